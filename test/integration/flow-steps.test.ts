/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `wait`, `fail` and `retry` on a real Temporal server with the API and a worker: a wait sleeps on
 * a durable timer and shows when it wakes; an instant that has passed sets no timer; a bad or
 * too distant instant fails the step with its code; a fail step ends the run with the author's
 * code and message, which Temporal holds only encrypted; a step's retry bounds its attempts
 * (counted at a webhook that keeps failing).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('wait, fail and retry steps', () => {
  let h: EngineHarness;
  let hook: Server;
  let hookUrl: string;
  let hookCalls = 0;

  beforeAll(async () => {
    hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hookCalls += 1;
        res.writeHead(503).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    h = await startEngine({ config: { WEBHOOK_ALLOW_LOOPBACK: true } });
    await h.startWorker();
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((r) => hook?.close(r));
  });

  async function run(source: string, inputs: Record<string, unknown> = {}) {
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    return started.json.task_id as string;
  }
  const finished = (taskId: string) =>
    h.waitForTask(taskId, (t) => ['completed', 'failed', 'cancelled'].includes(t.status), 30_000);
  const historyOf = async (taskId: string) =>
    (await h.env.client.workflow.getHandle(taskId).fetchHistory()).events ?? [];

  it('waits on a durable timer: running with its wake-up time, then { until, waited_ms }', async () => {
    const taskId = await run(`title: Pause
start_when:
  manual: {}
steps:
  - id: pause
    wait: { duration: 2s }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: 'waited {{steps.pause.waited_ms}}' }] }
`);
    const waiting = await h.waitForTask(taskId, (t) => t.steps[0]?.wake_at !== undefined, 10_000);
    expect(waiting.status).toBe('running');
    expect(waiting.steps[0]).toMatchObject({ id: 'pause', status: 'running' });
    const wakeAt = Date.parse(waiting.steps[0].wake_at);
    expect(wakeAt - Date.parse(waiting.steps[0].started_at)).toBe(2_000);
    const done = await finished(taskId);
    expect(done.status).toBe('completed');
    expect(done.result.outputs.pause).toEqual({ until: waiting.steps[0].wake_at, waited_ms: 2_000 });
    expect(done.result.outputs.after.results).toEqual(['WAITED 2000']);
    expect(Date.parse(done.finished_at)).toBeGreaterThanOrEqual(wakeAt);
    const events = await historyOf(taskId);
    expect(events.filter((e) => e.timerStartedEventAttributes).length).toBe(1);
  });

  const UNTIL = `title: Until
start_when:
  manual:
    inputs:
      at: { type: string, required: true }
steps:
  - id: until_then
    wait: { until: '{{inputs.at}}' }
`;

  it('continues at once, without a timer, when the instant has passed', async () => {
    const taskId = await run(UNTIL, { at: '2020-01-01T00:00:00+01:00' });
    const done = await finished(taskId);
    expect(done.status).toBe('completed');
    expect(done.result.outputs.until_then.waited_ms).toBe(0);
    expect(done.steps[0].wake_at).toBe(done.result.outputs.until_then.until);
    expect((await historyOf(taskId)).some((e) => e.timerStartedEventAttributes)).toBe(false);
  });

  it.each([
    [
      'not an instant',
      'next friday',
      'INVALID_WAIT_UNTIL',
      'The wait step needs an ISO-8601 instant with an offset, such as 2026-12-01T09:00:00Z.',
    ],
    [
      'more than 366 days ahead',
      '2099-01-01T00:00:00Z',
      'WAIT_TOO_LONG',
      'The wait step may wait at most 366 days.',
    ],
  ])('fails the step when the rendered instant is %s, with its code', async (_what, at, code, message) => {
    const taskId = await run(UNTIL, { at });
    const done = await finished(taskId);
    expect(done.status).toBe('failed');
    expect(done.steps[0]).toMatchObject({ id: 'until_then', status: 'failed', error: { code, message } });
    expect(done.error).toEqual({
      code,
      message: `A step failed: ${message}`,
      details: { step: 'until_then' },
    });
  });

  it("ends the run with the author's code and message; Temporal holds the message only encrypted", async () => {
    const taskId = await run(
      `title: Stop
start_when:
  manual:
    inputs:
      names: { type: array, required: true }
steps:
  - id: check
    use_app_skill: echo.shout
    input: { requests: [{ text: checked }] }
  - id: stop
    if: $nodes.check.output.result_count == 1
    fail:
      code: NO_NAMES_FREE
      message: 'None of the {{len inputs.names}} names is free.'
  - id: never
    use_app_skill: echo.shout
    input: { requests: [{ text: never }] }
`,
      { names: ['cedar', 'maple'] },
    );
    const done = await finished(taskId);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      code: 'NO_NAMES_FREE',
      message: 'None of the 2 names is free.',
      details: { step: 'stop' },
    });
    expect(done.steps.map((s: any) => [s.id, s.status, s.error])).toEqual([
      ['check', 'completed', null],
      ['stop', 'failed', { code: 'NO_NAMES_FREE', message: 'None of the 2 names is free.' }],
      ['never', 'pending', null],
    ]);
    const history = JSON.stringify(await historyOf(taskId));
    expect(history).toContain('"type":"NO_NAMES_FREE"');
    expect(history).toContain('"message":"Encoded failure"');
    expect(history).not.toContain('names is free');
  });

  it('cuts a fail message that renders past 2,000 characters, and marks the cut', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `${i}`.padStart(100, 'x'));
    const taskId = await run(
      `title: Long stop
start_when:
  manual:
    inputs:
      names: { type: array, required: true }
steps:
  - id: stop
    fail: { code: TOO_MANY_NAMES, message: '{{#each inputs.names}}{{this}}{{/each}}' }
`,
      { names },
    );
    const done = await finished(taskId);
    expect(done.error.code).toBe('TOO_MANY_NAMES');
    expect(done.error.message).toBe(`${names.join('').slice(0, 1_999)}…`);
    expect(done.steps[0].error.message).toBe(done.error.message);
  });

  it("bounds a step's attempts by its retry: two webhook deliveries, then the step fails", async () => {
    const chat = await h.request('POST', '/v1/chats/webhook', { chat_id: 'chat_retry', url: hookUrl });
    expect(chat.status).toBe(200);
    hookCalls = 0;
    const taskId = await run(`title: Retry twice
start_when:
  manual: {}
steps:
  - id: tell
    send_chat_message: { chat_id: chat_retry, title: t, message: m }
    retry: { max_attempts: 2, initial_interval: 1s }
`);
    const done = await finished(taskId);
    expect(done.status).toBe('failed');
    expect(done.steps[0]).toMatchObject({
      id: 'tell',
      status: 'failed',
      error: { code: 'WEBHOOK_DELIVERY_FAILED' },
    });
    expect(hookCalls).toBe(2);
    const started = (await historyOf(taskId)).find((e) => e.activityTaskStartedEventAttributes);
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBe(2);
  });
});
