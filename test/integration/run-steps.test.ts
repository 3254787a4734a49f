/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * GET /v1/runs/{run_id}/steps/{step_id} on a real Temporal dev server, against the decision
 * simulator over HTTP: a skill step's resolved input and answer, a decision's question and
 * answer, a chat step's chat id without its text, a loop element's inner step (inline and in a
 * batch child workflow), a failed call, a step that calls nothing, and every bad request as a
 * whole error envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStepsService } from '../../api/services/run-steps.js';
import { TasksService } from '../../api/services/tasks.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Principal } from '../../lib/keys.js';
import { staticSecrets } from '../../lib/secrets.js';
import { UsageRecords } from '../../lib/store/owners/usage-records.js';
import { startDecisionSimulator, type DecisionSimulator } from '../../simulators/decision/server.js';
import { shoutWordDefinition } from '../helpers/definitions.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const KEY = 'dk-live-e2e-run-steps-4c1d';
const ENDED = ['completed', 'failed', 'cancelled'];
const BIG = Array.from({ length: 120 }, (_, i) => i);

const SOURCE = `${shoutWordDefinition('Step views')}  - id: worth_it
    decide:
      type: noul
      question: "Is cedar among the results?"
      context: "{{json steps.shout}}"
      fallback: false
  - id: each
    for_each:
      items: [oak, maple]
      steps:
        - id: inner
          use_app_skill: echo.shout
          input: { requests: [{ text: '{{index}}-{{item}}' }] }
  - id: big
    for_each:
      items: [${BIG.join(', ')}]
      concurrency: 20
      steps:
        - id: batched
          use_app_skill: echo.shout
          input: { requests: [{ text: 'n{{item}}' }] }
  - id: pause
    wait: { duration: 1s }
  - id: notify
    send_chat_message:
      title: Secret title
      message: "Private words for {{inputs.word}}"
`;

const FAILING = `title: Failing step view
start_when:
  manual: {}
steps:
  - id: broken
    use_app_skill: echo.shout
    input: { requests: [{ text: kept, fail: NOT_FOUND }] }
`;

let sim: DecisionSimulator;
let h: EngineHarness;
let runId: string;
let definitionId: string;

async function start(
  source: string,
  inputs: Record<string, unknown> = {},
): Promise<{ id: string; task: any }> {
  const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, { inputs });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  const task = await h.waitForTask(started.json.task_id, (t) => ENDED.includes(t.status), 90_000);
  return { id: created.json.id, task };
}

const step = (run: string, id: string, token?: string) =>
  h.request('GET', `/v1/runs/${run}/steps/${encodeURIComponent(id)}`, undefined, undefined, token);

beforeAll(async () => {
  sim = await startDecisionSimulator({ apiKey: KEY });
  h = await startEngine({
    config: { DECISION_URL: sim.url },
    secrets: staticSecrets({ decision_api_key: KEY }),
  });
  const { id, task } = await start(SOURCE, { word: 'cedar' });
  expect(task.status, JSON.stringify(task.error)).toBe('completed');
  runId = task.task_id;
  definitionId = id;
}, 120_000);

afterAll(async () => {
  await h?.close();
  await sim?.close();
});

describe('a run step view', () => {
  it("shows a skill step's resolved input and its answer", async () => {
    const res = await step(runId, 'shout');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      run_id: runId,
      step_id: 'shout',
      kind: 'skill',
      skill: 'echo.shout',
      call: {
        state: 'completed',
        attempt: 1,
        input: { requests: [{ text: 'cedar' }] },
        output: { results: ['CEDAR'], result_count: 1 },
      },
    });
  });

  it("shows a decision's question, rendered context and answer (the run's own output)", async () => {
    const res = await step(runId, 'worth_it');
    const task = (await h.request('GET', `/v1/tasks/${runId}`)).json;
    expect(res.json).toEqual({
      run_id: runId,
      step_id: 'worth_it',
      kind: 'decide',
      skill: null,
      call: {
        state: 'completed',
        attempt: 1,
        input: {
          decision: { type: 'noul', fallback: false },
          question: 'Is cedar among the results?',
          context: JSON.stringify({ results: ['CEDAR'], result_count: 1 }),
        },
        output: task.result.outputs.worth_it,
      },
    });
  });

  it("shows a chat step's chat id and delivery, never its title or text", async () => {
    const res = await step(runId, 'notify');
    expect(res.json.kind).toBe('chat');
    expect(res.json.call.input).toEqual({ chat_id: `workflow:${definitionId}` });
    expect(res.json.call.state).toBe('completed');
    expect(res.json.call.output).toMatchObject({ chat_id: `workflow:${definitionId}`, stored: true });
    // This engine runs in the development mode CHAT_SERVER_SEALED, whose delivery output holds
    // the text: the input never does.
    expect(JSON.stringify(res.json.call.input)).not.toContain('Private words');
  });

  it("shows a loop element's inner step, inline and in a batch child workflow", async () => {
    const inline = await step(runId, 'each[1].inner');
    expect(inline.json.call).toEqual({
      state: 'completed',
      attempt: 1,
      input: { requests: [{ text: '1-maple' }] },
      output: { results: ['1-MAPLE'], result_count: 1 },
    });
    // 120 elements run in two batch child workflows of 60: element 117 is in the second.
    const batched = await step(runId, 'big[117].batched');
    expect(batched.json).toEqual({
      run_id: runId,
      step_id: 'big[117].batched',
      kind: 'skill',
      skill: 'echo.shout',
      call: {
        state: 'completed',
        attempt: 1,
        input: { requests: [{ text: 'n117' }] },
        output: { results: ['N117'], result_count: 1 },
      },
    });
    // An element the loop does not have: the step exists, its call does not.
    const beyond = await step(runId, 'each[5].inner');
    expect(beyond.json).toEqual({
      run_id: runId,
      step_id: 'each[5].inner',
      kind: 'skill',
      skill: 'echo.shout',
      call: null,
    });
  });

  it('answers a step that calls nothing, and a loop itself, with call null', async () => {
    for (const [id, kind] of [
      ['pause', 'wait'],
      ['big', 'for_each'],
    ] as const) {
      const res = await step(runId, id);
      expect(res.json).toEqual({ run_id: runId, step_id: id, kind, skill: null, call: null });
    }
  });

  it('shows a call running now as started, before its history says so', async () => {
    const created = await h.request(
      'POST',
      '/v1/workflows',
      `title: Slow step view
start_when:
  manual: {}
steps:
  - id: slow
    use_app_skill: echo.shout
    input: { requests: [{ text: later, wait_ms: 3000 }] }
`,
      'application/yaml',
    );
    const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, {});
    const id = started.json.task_id as string;
    await h.waitForTask(id, (t) => t.steps[0].status === 'running');
    const deadline = Date.now() + 10_000;
    let view: any;
    do {
      view = (await step(id, 'slow')).json;
      if (view.call?.state === 'started') break;
      await new Promise((r) => setTimeout(r, 100));
    } while (Date.now() < deadline);
    expect(view.call).toEqual({
      state: 'started',
      attempt: 1,
      input: { requests: [{ text: 'later', wait_ms: 3000 }] },
      output: null,
    });
    await h.waitForTask(id, (t) => t.status === 'completed', 30_000);
    expect((await step(id, 'slow')).json.call).toEqual({
      state: 'completed',
      attempt: 1,
      input: { requests: [{ text: 'later', wait_ms: 3000 }] },
      output: { results: ['LATER'], result_count: 1 },
    });
  });

  it('says a call the run left open when it was terminated is abandoned', async () => {
    const created = await h.request(
      'POST',
      '/v1/workflows',
      `title: Abandoned step view
start_when:
  manual: {}
steps:
  - id: slow
    use_app_skill: echo.shout
    input: { requests: [{ text: never, wait_ms: 20000 }] }
`,
      'application/yaml',
    );
    const started = await h.request('POST', `/v1/workflows/${created.json.id}/runs`, {});
    const id = started.json.task_id as string;
    await h.waitForTask(id, (t) => t.steps[0].status === 'running');
    await h.env.client.workflow.getHandle(id).terminate('the step view test ends it');
    expect((await step(id, 'slow')).json.call).toEqual({
      state: 'abandoned',
      attempt: null,
      input: { requests: [{ text: 'never', wait_ms: 20000 }] },
      output: null,
    });
  });

  it('shows a failed call with its input and no output', async () => {
    const { task } = await start(FAILING);
    expect(task.status).toBe('failed');
    const res = await step(task.task_id, 'broken');
    expect(res.json).toEqual({
      run_id: task.task_id,
      step_id: 'broken',
      kind: 'skill',
      skill: 'echo.shout',
      call: {
        state: 'failed',
        attempt: 1,
        input: { requests: [{ text: 'kept', fail: 'NOT_FOUND' }] },
        output: null,
      },
    });
  });

  it('answers no call rather than a wrong one when a look runs out of history events', async () => {
    const deps = h.api.deps;
    const tasks = new TasksService(deps.temporal, undefined, new UsageRecords(deps.store));
    const owner: Principal = { ownerId: 'owner_a', keyId: 'k_test', scopes: ['*'], tier: 'pro' };
    const short = new RunStepsService(deps.temporal, tasks, 10);
    const err = await short.get(owner, runId, 'notify').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkillflowError);
    expect(err).toMatchObject({ code: 'RUN_HISTORY_TOO_LONG', details: { max_events: 10 } });
    // The first step's call closes within the budget: it is answered.
    const first = await short.get(owner, runId, 'shout');
    expect(first.call?.state).toBe('completed');
  });

  it('answers every bad request with a whole error envelope', async () => {
    expect(await step(runId, 'nope')).toMatchObject({
      status: 404,
      json: { error: { code: 'NOT_FOUND', message: 'The run has no step with this id.', details: {} } },
    });
    // An inner step named without its element, and an element of a step that is no loop.
    for (const id of ['inner', 'shout[0].inner', 'big[1].inner'])
      expect((await step(runId, id)).json.error.message).toBe('The run has no step with this id.');
    expect(await step(runId, 'shout', h.otherToken)).toMatchObject({
      status: 404,
      json: { error: { code: 'NOT_FOUND', message: 'No task with this id.', details: {} } },
    });
    expect(await step('task_missing', 'shout')).toMatchObject({
      status: 404,
      json: { error: { code: 'NOT_FOUND', message: 'No task with this id.', details: {} } },
    });
    // A malformed id (a loop element without its inner step too) never reaches the history.
    for (const id of ['Bad-Id<script>', 'each[0]', 'each[01].inner']) {
      const malformed = await step(runId, id);
      expect(malformed.status).toBe(400);
      const rule = 'must be a step id (in a loop element: loop[2].inner)';
      expect(malformed.json).toEqual({
        error: {
          code: 'INVALID_PARAMETER',
          message: `Invalid params at step_id: ${rule}`,
          details: { issues: [{ location: 'params', path: 'step_id', message: rule }] },
        },
      });
      expect(malformed.body).not.toContain('script');
    }
  });
});
