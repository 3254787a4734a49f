/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `for_each` and `parallel` on a real Temporal server with the API and a worker: a loop and a
 * group whose outputs later steps read, a group failure cancelling the other steps, and a tolerant
 * group (large loops, loop failures and cancellation: loops.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('for_each and parallel steps', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
    await h.startWorker();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function run(source: string, inputs: Record<string, unknown> = {}) {
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    return h.waitForTask(
      started.json.task_id,
      (t) => ['completed', 'failed', 'cancelled'].includes(t.status),
      30_000,
    );
  }

  it('runs each element, then a parallel group whose steps later steps read', async () => {
    const done = await run(
      `title: Loop and group
start_when:
  manual:
    inputs:
      words: { type: array, required: true }
steps:
  - id: each_word
    for_each:
      items: '{{inputs.words}}'
      concurrency: 2
      steps:
        - id: shout
          use_app_skill: echo.shout
          input: { requests: [{ text: '{{index}}:{{item}}' }] }
  - id: both
    parallel:
      steps:
        - id: left
          use_app_skill: echo.shout
          input: { requests: [{ text: left }] }
        - id: right
          use_app_skill: echo.shout
          input: { requests: [{ text: 'done {{steps.each_word.completed_count}}' }] }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{steps.left.results.0}} {{steps.right.results.0}}' }] }
`,
      { words: ['cedar', 'maple', 'oak'] },
    );
    expect(done.status, JSON.stringify([done.error, done.steps])).toBe('completed');
    const loop = done.result.outputs.each_word;
    expect(loop.completed_count).toBe(3);
    expect(loop.failed_count).toBe(0);
    expect(loop.results.map((r: any) => [r.index, r.status, r.outputs.shout.results])).toEqual([
      [0, 'completed', ['0:CEDAR']],
      [1, 'completed', ['1:MAPLE']],
      [2, 'completed', ['2:OAK']],
    ]);
    expect(done.result.outputs.after.results).toEqual(['LEFT DONE 3']);
    expect(done.steps.map((s: any) => [s.id, s.status, s.group ?? null])).toEqual([
      ['each_word', 'completed', null],
      ['both', 'completed', null],
      ['left', 'completed', 'both'],
      ['right', 'completed', 'both'],
      ['after', 'completed', null],
    ]);
    expect(done.steps[0].elements).toEqual({ total: 3, completed: 3, failed: 0, running: 0, failures: [] });
  });

  it('a failed step of a parallel group cancels the others and fails the run', async () => {
    const done = await run(`title: Group failure
start_when: { manual: {} }
steps:
  - id: both
    parallel:
      steps:
        - id: slow
          use_app_skill: echo.shout
          input: { requests: [{ text: slow, wait_ms: 20000 }] }
        - id: broken
          use_app_skill: echo.shout
          input: { requests: [{ text: broken, fail: NOT_FOUND }] }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: after }] }
`);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      code: 'NOT_FOUND',
      message: 'A step failed: A step of the group failed: The resource does not exist.',
      details: { step: 'both' },
    });
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['both', 'failed'],
      ['slow', 'cancelled'],
      ['broken', 'failed'],
      ['after', 'pending'],
    ]);
  });

  it('with continue_on_error the group finishes its other steps and the run goes on', async () => {
    const done = await run(`title: Tolerant group
start_when: { manual: {} }
steps:
  - id: both
    continue_on_error: true
    parallel:
      steps:
        - id: fine
          use_app_skill: echo.shout
          input: { requests: [{ text: fine, wait_ms: 300 }] }
        - id: broken
          use_app_skill: echo.shout
          input: { requests: [{ text: broken, fail: NOT_FOUND }] }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{steps.fine.results.0}} {{steps.broken.result_count}}' }] }
`);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.after.results).toEqual(['FINE 0']);
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['both', 'completed'],
      ['fine', 'completed'],
      ['broken', 'failed'],
      ['after', 'completed'],
    ]);
  });
});
