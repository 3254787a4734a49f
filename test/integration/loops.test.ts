/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `for_each` on a real Temporal server with the API and a worker: batches in child workflows
 * above 100 elements (the run's own history stays small), failures with and without
 * `continue_on_error`, a fail step inside a loop, bad lists at run time, one chat message per
 * element, and cancellation reaching the batches.
 */
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const FINAL = ['completed', 'failed', 'cancelled'];

describe('for_each at run time', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
    await h.startWorker();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function start(source: string, inputs: Record<string, unknown> = {}): Promise<string> {
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    return started.json.task_id;
  }
  async function run(source: string, inputs: Record<string, unknown> = {}, ms = 60_000) {
    const taskId = await start(source, inputs);
    return { taskId, ...(await h.waitForTask(taskId, (t) => FINAL.includes(t.status), ms)) };
  }
  const NUMBERS = `
start_when:
  manual:
    inputs:
      numbers: { type: array, required: true }
`;

  it('runs 230 elements in three child workflows, keeping the run history small', async () => {
    const numbers = Array.from({ length: 230 }, (_, i) => i);
    const done = await run(
      `title: Big loop${NUMBERS}steps:
  - id: each
    for_each:
      items: '{{inputs.numbers}}'
      concurrency: 20
      steps:
        - id: shout
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}} at {{index}}' }] }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: 'done {{steps.each.completed_count}}' }] }
`,
      { numbers },
    );
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const loop = done.result.outputs.each;
    expect(loop.completed_count).toBe(230);
    expect(loop.failed_count).toBe(0);
    expect(loop.outputs_dropped_count).toBe(0);
    expect(loop.results).toHaveLength(230);
    expect(loop.results[0]).toEqual({
      index: 0,
      status: 'completed',
      outputs: { shout: { results: ['N0 AT 0'], result_count: 1 } },
    });
    expect(loop.results[229]).toEqual({
      index: 229,
      status: 'completed',
      outputs: { shout: { results: ['N229 AT 229'], result_count: 1 } },
    });
    expect(done.result.outputs.after.results).toEqual(['DONE 230']);
    expect(done.steps[0].elements).toEqual({
      total: 230,
      completed: 230,
      failed: 0,
      running: 0,
      failures: [],
    });

    // Three batches: the run's history holds three child workflows and no activity of the loop.
    const events = await historyOf(done.taskId);
    const types = events.map((e) => temporal.api.enums.v1.EventType[e.eventType!]);
    expect(types.filter((t) => t.includes('START_CHILD_WORKFLOW_EXECUTION_INITIATED'))).toHaveLength(3);
    expect(types.filter((t) => t.includes('ACTIVITY_TASK_SCHEDULED'))).toHaveLength(1); // `after`
    expect(events.length).toBeLessThan(60);
    const child = await h.env.client.workflow.getHandle(`${done.taskId}.1`).describe();
    expect(child.type).toBe('runLoopBatch');
    expect(child.status.name).toBe('COMPLETED');
  });

  async function historyOf(taskId: string) {
    const history = await h.env.client.workflow.getHandle(taskId).fetchHistory();
    return history.events ?? [];
  }

  it('fails at the first failed element, and skips the elements after it', async () => {
    const done = await run(
      `title: Failing element${NUMBERS}steps:
  - id: each
    for_each:
      items: '{{inputs.numbers}}'
      steps:
        - id: shout
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}}', fail: '{{#if item}}NOT_FOUND{{/if}}' }] }
`,
      { numbers: [0, 1, 0] },
    );
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      code: 'NOT_FOUND',
      message: 'A step failed: An element failed: The resource does not exist.',
      details: { step: 'each' },
    });
    expect(done.steps[0]).toMatchObject({
      id: 'each',
      status: 'failed',
      error: { code: 'NOT_FOUND', message: 'An element failed: The resource does not exist.' },
      elements: {
        total: 3,
        completed: 1,
        failed: 1,
        running: 0,
        failures: [
          { index: 1, step: 'shout', error: { code: 'NOT_FOUND', message: 'The resource does not exist.' } },
        ],
      },
    });
  });

  it('with continue_on_error reports failed elements and finishes the others', async () => {
    const done = await run(
      `title: Tolerant loop${NUMBERS}steps:
  - id: each
    continue_on_error: true
    for_each:
      items: '{{inputs.numbers}}'
      concurrency: 3
      steps:
        - id: shout
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}}', fail: '{{#if item}}NOT_FOUND{{/if}}' }] }
  - id: report
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{steps.each.completed_count}} ok {{steps.each.failed_count}} failed' }] }
`,
      { numbers: [0, 1, 0, 1] },
    );
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const loop = done.result.outputs.each;
    expect(loop.results.map((r: any) => [r.index, r.status])).toEqual([
      [0, 'completed'],
      [1, 'failed'],
      [2, 'completed'],
      [3, 'failed'],
    ]);
    expect(loop.results[1].outputs).toEqual({});
    expect(loop.results[1].error).toEqual({
      step: 'shout',
      code: 'NOT_FOUND',
      message: 'The resource does not exist.',
    });
    expect(done.result.outputs.report.results).toEqual(['2 OK 2 FAILED']);
  });

  it('a fail step inside a loop ends the run with the author code and message', async () => {
    const done = await run(
      `title: Guarded loop${NUMBERS}steps:
  - id: each
    for_each:
      items: '{{inputs.numbers}}'
      steps:
        - id: check
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}}' }] }
        - id: stop
          if: $item > 5
          fail: { code: NUMBER_TOO_BIG, message: 'Element {{index}} is too big' }
`,
      { numbers: [1, 9, 2] },
    );
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      code: 'NUMBER_TOO_BIG',
      message: 'Element 1 is too big',
      details: { step: 'stop' },
    });
    expect(done.steps[0].error).toEqual({ code: 'NUMBER_TOO_BIG', message: 'Element 1 is too big' });
  });

  it('items that are not a list, or more than 10,000 of them, fail the step before any element runs', async () => {
    const notList = await run(`title: Not a list
start_when: { manual: {} }
steps:
  - id: outer
    for_each:
      items: [{ words: not a list }]
      steps:
        - id: inner
          for_each:
            items: $item.words
            steps:
              - id: shout
                use_app_skill: echo.shout
                input: { requests: [{ text: '{{item}}' }] }
`);
    expect(notList.status).toBe('failed');
    expect(notList.error).toEqual({
      code: 'LOOP_ITEMS_NOT_A_LIST',
      message: 'A step failed: An element failed: The for_each items are not a list.',
      details: { step: 'outer' },
    });

    const tooMany = await run(
      `title: Too many${NUMBERS}steps:
  - id: each
    for_each:
      items: '{{inputs.numbers}}'
      steps:
        - id: shout
          use_app_skill: echo.shout
          input: { requests: [{ text: '{{item}}' }] }
`,
      { numbers: Array.from({ length: 10_001 }, () => 0) },
    );
    expect(tooMany.status).toBe('failed');
    expect(tooMany.error).toEqual({
      code: 'TOO_LARGE',
      message: 'A step failed: A for_each takes at most 10000 items.',
      details: { step: 'each' },
    });
    expect(tooMany.steps[0].elements).toBeUndefined();
    const types = (await historyOf(tooMany.taskId)).map((e) => temporal.api.enums.v1.EventType[e.eventType!]);
    expect(types.some((t) => t.includes('ACTIVITY_TASK_SCHEDULED') || t.includes('CHILD_WORKFLOW'))).toBe(
      false,
    );
  });

  it('delivers one chat message per element, each under its own key', async () => {
    const done = await run(`title: Loop chat
start_when: { manual: {} }
steps:
  - id: each
    for_each:
      items: [cedar, maple]
      steps:
        - id: note
          send_chat_message: { title: 'Tree {{index}}', message: '{{item}}' }
`);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const rows = await h.api.deps.store.db
      .selectFrom('chat_messages')
      .select(['step_id'])
      .where('task_id', '=', done.taskId)
      .orderBy('step_id')
      .execute();
    expect(rows.map((r) => r.step_id)).toEqual(['each[0].note', 'each[1].note']);
  });

  it('cancelling the run cancels its running batches and their elements', async () => {
    const taskId = await start(
      `title: Slow loop${NUMBERS}steps:
  - id: each
    for_each:
      items: '{{inputs.numbers}}'
      concurrency: 4
      steps:
        - id: slow
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}}', wait_ms: 20000 }] }
`,
      { numbers: Array.from({ length: 150 }, (_, i) => i) },
    );
    await h.waitForTask(taskId, (t) => t.steps?.[0]?.elements?.running > 0, 30_000);
    const cancel = await h.request('POST', `/v1/tasks/${taskId}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.json)).toBeLessThan(300);
    const done = await h.waitForTask(taskId, (t) => FINAL.includes(t.status), 30_000);
    expect(done.status).toBe('cancelled');
    expect(done.steps[0].status).toBe('cancelled');
    for (const id of [`${taskId}.1`, `${taskId}.2`]) {
      const child = await h.env.client.workflow.getHandle(id).describe();
      expect([id, child.status.name]).toEqual([id, 'CANCELLED']);
    }
  });

  it('a loop inside an element runs in child workflows, and a fail step ends even a tolerant loop', async () => {
    const nested = await run(`title: Nested loops
start_when: { manual: {} }
steps:
  - id: outer
    for_each:
      items: [[1, 2], [3]]
      steps:
        - id: inner
          for_each:
            items: $item
            steps:
              - id: shout
                use_app_skill: echo.shout
                input: { requests: [{ text: 'n{{item}}' }] }
`);
    expect(nested.status, JSON.stringify(nested.error)).toBe('completed');
    expect(
      nested.result.outputs.outer.results.map((r: any) =>
        r.outputs.inner.results.map((e: any) => e.outputs.shout.results[0]),
      ),
    ).toEqual([['N1', 'N2'], ['N3']]);
    const types = (await historyOf(nested.taskId)).map((e) => temporal.api.enums.v1.EventType[e.eventType!]);
    expect(types.filter((t) => t === 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED')).toHaveLength(2);
    expect(types.filter((t) => t === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')).toHaveLength(0);

    const ended = await run(
      `title: Fail through tolerance${NUMBERS}steps:
  - id: each
    continue_on_error: true
    for_each:
      items: '{{inputs.numbers}}'
      steps:
        - id: stop
          if: $item > 5
          fail: { code: NUMBER_TOO_BIG, message: 'Element {{index}} is too big' }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: never }] }
`,
      { numbers: [1, 9, 2, 3] },
    );
    expect(ended.status).toBe('failed');
    expect(ended.error).toEqual({
      code: 'NUMBER_TOO_BIG',
      message: 'Element 1 is too big',
      details: { step: 'stop' },
    });
    expect(ended.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['each', 'failed'],
      ['after', 'pending'],
    ]);
  });
});
