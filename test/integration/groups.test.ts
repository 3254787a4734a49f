/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `for_each` and `parallel` on a real Temporal server with the API and a worker (work in
 * progress: the loop and the group run inline; batching into child workflows comes next).
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
    expect(done.status, JSON.stringify([done.error, done.steps])).toBe("completed");
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
});
