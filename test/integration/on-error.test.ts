/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `on_error` handlers on a real Temporal server with the API and a worker: a handled failure lets
 * the run go on, a handler ending at a fail step ends the run with its code, a failing handler
 * fails the run, and a handler on a loop names the inner step that failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('on_error handlers', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function run(source: string) {
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs: {} });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const taskId = started.json.task_id as string;
    return {
      taskId,
      ...(await h.waitForTask(taskId, (t) => ['completed', 'failed', 'cancelled'].includes(t.status))),
    };
  }

  const FAILING = `  - id: lookup
    use_app_skill: echo.shout
    input: { requests: [{ text: gone, fail: NOT_FOUND }] }
`;

  it('runs the handler with the error, counts the step as handled and goes on', async () => {
    const done = await run(`title: Handled
start_when: { manual: {} }
steps:
${FAILING}    on_error:
      - id: tell
        send_chat_message: { title: Lookup failed, message: '{{error.code}} at {{error.step}}' }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: 'found {{steps.lookup.result_count}}' }] }
`);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.steps.map((s: any) => [s.id, s.status, s.handler ?? null, s.handled ?? null])).toEqual([
      ['lookup', 'failed', null, true],
      ['tell', 'completed', 'lookup', null],
      ['after', 'completed', null, null],
    ]);
    expect(done.steps[0].error).toEqual({ code: 'NOT_FOUND', message: 'The resource does not exist.' });
    expect(done.result.outputs.after.results).toEqual(['FOUND 0']);
    expect(done.result.outputs.tell).toBeUndefined();
    expect((await h.chatMessage(done.taskId))?.content).toEqual({
      title: 'Lookup failed',
      message: 'NOT_FOUND at lookup',
    });
  });

  it('a handler ending at a fail step ends the run with its code and message', async () => {
    const done = await run(`title: Handler fails the run
start_when: { manual: {} }
steps:
${FAILING}    on_error:
      - id: give_up
        if: $error.code == 'NOT_FOUND'
        fail: { code: LOOKUP_GONE, message: 'The lookup ended with {{error.code}}.' }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: never }] }
`);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      code: 'LOOKUP_GONE',
      message: 'The lookup ended with NOT_FOUND.',
      details: { step: 'give_up' },
    });
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['lookup', 'failed'],
      ['give_up', 'failed'],
      ['after', 'pending'],
    ]);
  });

  it('a failing handler fails the run with its own error', async () => {
    const done = await run(`title: Handler breaks
start_when: { manual: {} }
steps:
${FAILING}    on_error:
      - id: retry_elsewhere
        use_app_skill: echo.shout
        input: { requests: [{ text: again, fail: FORBIDDEN }] }
`);
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      code: 'FORBIDDEN',
      message: 'A step failed: The API key is not allowed to do this.',
      details: { step: 'retry_elsewhere' },
    });
  });

  it('a handler on a loop names the inner step that failed; one inside an element lets it complete', async () => {
    const done = await run(`title: Loop handlers
start_when: { manual: {} }
steps:
  - id: each
    for_each:
      items: [ok, bad]
      steps:
        - id: broken
          if: $item == 'bad'
          use_app_skill: echo.shout
          input: { requests: [{ text: '{{item}}', fail: NOT_FOUND }] }
    on_error:
      - id: report
        send_chat_message: { title: Loop failed, message: '{{error.code}} in {{error.step}}' }
  - id: tolerant
    for_each:
      items: [1, 2]
      steps:
        - id: flaky
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}}', fail: NOT_FOUND }] }
          on_error:
            - { id: note, use_app_skill: echo.shout, input: { requests: [{ text: 'handled {{index}}' }] } }
`);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.steps.map((s: any) => [s.id, s.status, s.handled ?? null])).toEqual([
      ['each', 'failed', true],
      ['report', 'completed', null],
      ['tolerant', 'completed', null],
    ]);
    expect((await h.chatMessage(done.taskId))?.content).toEqual({
      title: 'Loop failed',
      message: 'NOT_FOUND in broken',
    });
    const tolerant = done.result.outputs.tolerant;
    expect(tolerant.completed_count).toBe(2);
    expect(tolerant.results.map((r: any) => [r.status, r.outputs.flaky.result_count])).toEqual([
      ['completed', 0],
      ['completed', 0],
    ]);
  });

  it('a handled parallel group leaves the failed step its uniform output; a loop in a handler reads error', async () => {
    const done = await run(`title: Group and loop in handlers
start_when: { manual: {} }
steps:
  - id: both
    parallel:
      steps:
        - id: fine
          use_app_skill: echo.shout
          input: { requests: [{ text: fine }] }
        - id: broken
          use_app_skill: echo.shout
          input: { requests: [{ text: broken, fail: NOT_FOUND }] }
    on_error:
      - id: each_note
        for_each:
          items: [a, b]
          steps:
            - id: note
              send_chat_message:
                { chat_id: handler-notes, title: Note, message: '{{item}} {{error.code}} {{error.step}}' }
      - id: stop_if_other
        if: $error.code != 'NOT_FOUND'
        fail: { code: UNEXPECTED, message: 'Another failure.' }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: 'broken {{steps.broken.result_count}}' }] }
`);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.after.results).toEqual(['BROKEN 0']);
    expect(done.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['both', 'failed'],
      ['fine', 'completed'],
      ['broken', 'failed'],
      ['each_note', 'completed'],
      ['stop_if_other', 'skipped'],
      ['after', 'completed'],
    ]);
    // The handler's loop elements read the failure it handles.
    const chat = await h.request('POST', '/v1/chats/messages', { chat_id: 'handler-notes' });
    const notes = chat.json.messages.map((m: any) => [m.step_id, m.message]);
    expect(notes.sort()).toEqual([
      ['each_note[0].note', 'a NOT_FOUND broken'],
      ['each_note[1].note', 'b NOT_FOUND broken'],
    ]);
  });
});
