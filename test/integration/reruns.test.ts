/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * Re-running a run from a step on a real Temporal server, with the domain search skill talking
 * over HTTP to the shop simulator: steps before `from_step` are taken over (no shop request, the
 * earlier times), edited inputs re-run the steps that read them, a loop re-runs only its failed
 * elements, the earlier run's view never changes but for its link, and every bad request is a
 * whole error envelope with nothing started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS } from '../../activities/apps/index.js';
import { startShopSimulator, type ShopSimulator } from '../../simulators/shop/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const ENDED = ['completed', 'failed', 'cancelled'];

const FOUR_STEPS = `title: Re-run probe
start_when:
  manual:
    inputs:
      first: { type: string, default: cedar }
      second: { type: string, default: maple }
      stop: { type: boolean, default: true }
steps:
  - id: first_search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: '{{inputs.first}}', tlds: [com] }] }
  - id: second_search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: '{{inputs.second}}', tlds: [com] }] }
  - id: gate
    if: inputs.stop == true
    fail: { code: STOPPED, message: Stopped on purpose. }
  - id: third_search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'birch{{steps.first_search.result_count}}', tlds: [com] }] }
`;

describe('re-running a run from a step', () => {
  let shop: ShopSimulator;
  let h: EngineHarness;
  beforeAll(async () => {
    shop = await startShopSimulator({ host: '127.0.0.1' });
    h = await startEngine({ apps: APPS, config: { SHOP_URL: shop.url } });
  });
  afterAll(async () => {
    await h?.close();
    await shop?.close();
  });

  /** Shop requests whose search names `text`, since the last reset. */
  const searches = (text: string) =>
    shop.requests().filter((r) => (r.params.search ?? []).some((s) => s.toLowerCase().includes(text))).length;

  async function define(source: string): Promise<string> {
    const created = await h.request('POST', '/v1/workflows', source, 'application/yaml');
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    return created.json.id as string;
  }

  async function runToEnd(id: string, inputs: Record<string, unknown> = {}) {
    const started = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    return h.waitForTask(started.json.task_id, (t) => ENDED.includes(t.status), 60_000);
  }

  async function rerun(taskId: string, body: unknown, token?: string) {
    return h.request('POST', `/v1/runs/${taskId}/rerun`, body, 'application/json', token);
  }

  async function rerunToEnd(taskId: string, body: unknown) {
    const res = await rerun(taskId, body);
    expect(res.status, JSON.stringify(res.json)).toBe(202);
    const task = await h.waitForTask(res.json.task_id, (t) => ENDED.includes(t.status), 60_000);
    return { answer: res.json, task };
  }

  /** The earlier run's view lists a re-run once visibility caught up. */
  async function rerunsOf(taskId: string, count: number) {
    return h.waitForTask(taskId, (t) => t.reruns.length >= count, 15_000);
  }

  it('takes over the steps before the failed one: no shop request, their times, the same outputs', async () => {
    const id = await define(FOUR_STEPS);
    shop.reset();
    const failed = await runToEnd(id);
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('STOPPED');
    expect(failed.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['first_search', 'completed'],
      ['second_search', 'completed'],
      ['gate', 'failed'],
      ['third_search', 'pending'],
    ]);
    expect(searches('cedar')).toBeGreaterThan(0);
    // The outputs a re-run takes over sit in the run's final memo, encrypted like every payload.
    const raw = await h.env.client.workflowService.describeWorkflowExecution({
      namespace: h.env.client.options.namespace,
      execution: { workflowId: failed.task_id },
    });
    const fields = raw.workflowExecutionInfo!.memo!.fields!;
    expect(Object.keys(fields).sort()).toEqual(['progress', 'recorded']);
    for (const payload of Object.values(fields)) {
      expect(Buffer.from(payload.metadata!.encoding!).toString()).toBe('binary/encrypted');
      expect(Buffer.from(payload.data!).toString('latin1')).not.toContain('cedar');
    }
    expect(failed.rerun_of).toBeNull();
    expect(failed.reruns).toEqual([]);

    shop.reset();
    const { answer, task } = await rerunToEnd(failed.task_id, { inputs: { stop: false } });
    expect(answer).toEqual({
      task_id: expect.stringMatching(/^task_/),
      rerun_of: failed.task_id,
      from_step: 'gate',
      reused_steps: ['first_search', 'second_search'],
      reused_elements: 0,
      links: { task: `/v1/tasks/${answer.task_id}`, rerun_of: `/v1/tasks/${failed.task_id}` },
    });
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    expect(task.trigger).toBe('rerun');
    expect(task.rerun_of).toBe(failed.task_id);
    expect(task.definition).toEqual(failed.definition);
    expect(task.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['first_search', 'reused'],
      ['second_search', 'reused'],
      ['gate', 'skipped'],
      ['third_search', 'completed'],
    ]);
    for (const i of [0, 1]) {
      expect(task.steps[i].started_at).toBe(failed.steps[i].started_at);
      expect(task.steps[i].finished_at).toBe(failed.steps[i].finished_at);
      expect(task.steps[i].output_summary).toEqual(failed.steps[i].output_summary);
    }
    // The reused steps made no request; the step after the failed one did.
    expect(searches('cedar')).toBe(0);
    expect(searches('maple')).toBe(0);
    expect(searches('birch')).toBeGreaterThan(0);
    const count = task.result.outputs.first_search.result_count as number;
    expect(task.steps[0].output_summary).toEqual({ result_count: count });

    // The earlier run's view is unchanged but for its link to the re-run.
    const after = await rerunsOf(failed.task_id, 1);
    expect(after.reruns).toEqual([task.task_id]);
    expect({ ...after, reruns: [] }).toEqual(failed);
  });

  it('re-runs a step before from_step whose run input changed, and the steps that read it', async () => {
    const id = await define(FOUR_STEPS.replace('Re-run probe', 'Re-run edited input'));
    const failed = await runToEnd(id);
    expect(failed.status).toBe('failed');
    shop.reset();
    const { answer, task } = await rerunToEnd(failed.task_id, { inputs: { first: 'oak', stop: false } });
    expect(answer.reused_steps).toEqual(['second_search']);
    expect(task.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['first_search', 'completed'],
      ['second_search', 'reused'],
      ['gate', 'skipped'],
      ['third_search', 'completed'],
    ]);
    expect(searches('oak')).toBeGreaterThan(0);
    expect(searches('cedar')).toBe(0);
    expect(searches('maple')).toBe(0);
  });

  it('re-runs a completed run from a named step with an edited step input, and a re-run of a re-run', async () => {
    const id = await define(FOUR_STEPS.replace('Re-run probe', 'Re-run completed'));
    const done = await runToEnd(id, { stop: false });
    expect(done.status).toBe('completed');
    shop.reset();
    const { answer, task } = await rerunToEnd(done.task_id, {
      from_step: 'third_search',
      step_inputs: { second_search: { requests: [{ query: 'willow', tlds: ['com'] }] } },
    });
    expect(answer.from_step).toBe('third_search');
    expect(answer.reused_steps).toEqual(['first_search']);
    expect(task.steps.map((s: any) => [s.id, s.status])).toEqual([
      ['first_search', 'reused'],
      ['second_search', 'completed'],
      ['gate', 'skipped'],
      ['third_search', 'completed'],
    ]);
    expect(searches('willow')).toBeGreaterThan(0);
    expect(searches('maple')).toBe(0);
    expect(searches('cedar')).toBe(0);

    // A re-run of the re-run takes over what the first one reused and ran.
    shop.reset();
    const again = await rerunToEnd(task.task_id, { from_step: 'third_search' });
    expect(again.answer.reused_steps).toEqual(['first_search', 'second_search']);
    expect(again.task.rerun_of).toBe(task.task_id);
    expect(again.task.steps[0].started_at).toBe(done.steps[0].started_at);
    expect(searches('willow')).toBe(0);
    // A completed run without from_step runs every step again.
    shop.reset();
    const whole = await rerunToEnd(done.task_id, {});
    expect(whole.answer).toMatchObject({ from_step: 'first_search', reused_steps: [] });
    expect(whole.task.steps.map((s: any) => s.status)).toEqual([
      'completed',
      'completed',
      'skipped',
      'completed',
    ]);
    expect(searches('cedar')).toBeGreaterThan(0);
  });

  it("runs the earlier run's snapshot after the definition got a new version", async () => {
    const id = await define(FOUR_STEPS.replace('Re-run probe', 'Re-run snapshot'));
    const failed = await runToEnd(id);
    expect(failed.definition.version).toBe(1);
    const v2 = FOUR_STEPS.replace('Re-run probe', 'Re-run snapshot').replace(
      'id: third_search',
      'id: renamed',
    );
    const updated = await h.request('PUT', `/v1/workflows/${id}`, v2, 'application/yaml');
    expect([updated.status, updated.json.version]).toEqual([200, 2]);
    const { answer, task } = await rerunToEnd(failed.task_id, { inputs: { stop: false } });
    expect(answer.reused_steps).toEqual(['first_search', 'second_search']);
    expect(task.definition).toEqual({ id, version: 1 });
    expect(task.steps.map((s: any) => s.id)).toEqual([
      'first_search',
      'second_search',
      'gate',
      'third_search',
    ]);
    expect(task.status).toBe('completed');
  });

  it('re-runs only the failed elements of a loop', async () => {
    const id = await define(`title: Re-run loop
start_when: { manual: {} }
steps:
  - id: ideas
    continue_on_error: true
    for_each:
      items: [aspen, rowan, hazel, alder]
      concurrency: 1
      steps:
        - id: check
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: '{{item}}', tlds: [com] }] }
  - id: gate
    if: $nodes.ideas.output.failed_count > 0
    fail: { code: SOME_FAILED, message: Some ideas failed. }
`);
    shop.reset();
    shop.setFaults([{ type: 'status', status: 400, match: 'hazel' }]);
    const failed = await runToEnd(id);
    expect(failed.status).toBe('failed');
    expect(failed.steps[0].elements).toMatchObject({ total: 4, completed: 3, failed: 1 });
    shop.reset();
    const { answer, task } = await rerunToEnd(failed.task_id, { from_step: 'ideas' });
    expect(answer).toMatchObject({ from_step: 'ideas', reused_steps: [], reused_elements: 3 });
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    expect(task.steps[0].elements).toEqual({
      total: 4,
      completed: 4,
      failed: 0,
      running: 0,
      reused: 3,
      failures: [],
    });
    expect(searches('hazel')).toBeGreaterThan(0);
    for (const name of ['aspen', 'rowan', 'alder']) expect(searches(name)).toBe(0);
    expect(task.result.outputs.ideas.results.map((r: any) => r.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('takes over the steps before a cancelled one and refuses an open run with 409', async () => {
    const id = await define(`title: Re-run cancelled
start_when: { manual: {} }
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: poplar, tlds: [com] }] }
  - id: pause
    wait: { duration: 10m }
`);
    const started = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: {} });
    const taskId = started.json.task_id as string;
    await h.waitForTask(taskId, (t) => t.steps[1]?.status === 'running', 30_000);
    const open = await rerun(taskId, {});
    expect(open.status).toBe(409);
    expect(open.json).toEqual({
      error: {
        code: 'CONFLICT',
        message: 'The run is still open: wait for it to end, or cancel it, before re-running it.',
        details: {},
      },
    });
    await h.request('POST', `/v1/tasks/${taskId}/cancel`);
    await h.waitForTask(taskId, (t) => t.status === 'cancelled', 30_000);
    shop.reset();
    const res = await rerun(taskId, {});
    expect(res.status, JSON.stringify(res.json)).toBe(202);
    expect(res.json).toMatchObject({ from_step: 'pause', reused_steps: ['search'] });
    const task = await h.waitForTask(res.json.task_id, (t) => t.steps[1]?.status === 'running', 30_000);
    expect(task.steps[0].status).toBe('reused');
    expect(searches('poplar')).toBe(0);
    await h.request('POST', `/v1/tasks/${res.json.task_id}/cancel`);
  });

  it('answers every bad request with a whole envelope and starts nothing', async () => {
    const id = await define(FOUR_STEPS.replace('Re-run probe', 'Re-run refusals'));
    const failed = await runToEnd(id);
    const runsBefore = (await h.request('GET', `/v1/workflows/${id}/runs`)).json.runs.length;
    const cases: Array<[unknown, number, unknown]> = [
      [
        { from_step: 'nowhere' },
        422,
        {
          code: 'INVALID_RERUN',
          message: 'The re-run does not fit the run it re-runs; see details.issues.',
          details: {
            issues: [{ path: 'from_step', message: 'Names no top-level step of the run.' }],
            steps: ['first_search', 'second_search', 'gate', 'third_search'],
          },
        },
      ],
      [
        { inputs: { stop: 'yes' } },
        422,
        {
          code: 'INVALID_RERUN',
          message: 'The re-run does not fit the run it re-runs; see details.issues.',
          details: { issues: [{ path: 'inputs.stop', message: 'must be of type boolean' }] },
        },
      ],
      [
        { step_inputs: { second_search: { requests: [] } } },
        422,
        {
          code: 'INVALID_RERUN',
          message: 'The re-run does not fit the run it re-runs; see details.issues.',
          details: {
            issues: [{ path: 'step_inputs.second_search.requests', message: expect.any(String) }],
          },
        },
      ],
      [
        { step_inputs: { gate: {} } },
        422,
        {
          code: 'INVALID_RERUN',
          message: 'The re-run does not fit the run it re-runs; see details.issues.',
          details: {
            issues: [
              {
                path: 'step_inputs.gate',
                message:
                  'Names no skill step of the run (top-level or in a parallel group; not inside a loop).',
              },
            ],
          },
        },
      ],
      [
        { from_step: 'Not An Id' },
        400,
        {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at from_step: must be a step id',
          details: { issues: [{ path: 'from_step', message: 'must be a step id' }] },
        },
      ],
      [
        { again: true },
        400,
        {
          code: 'INVALID_PARAMETER',
          message: 'Invalid value at again: Unknown field.',
          details: { issues: [{ path: 'again', message: 'Unknown field.' }] },
        },
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await rerun(failed.task_id, body);
      expect([res.status, res.json], JSON.stringify(body)).toEqual([status, { error }]);
      expect(JSON.stringify(res.json)).not.toContain('Not An Id');
    }
    const notJson = await h.request('POST', `/v1/runs/${failed.task_id}/rerun`, '{nope', 'application/json');
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.code).toBe('INVALID_BODY');
    // Another owner's run, and a run that does not exist, are the same 404.
    for (const [taskId, token] of [
      [failed.task_id, h.otherToken],
      ['task_00000000-0000-0000-0000-000000000000', undefined],
    ] as const) {
      const res = await rerun(taskId, {}, token);
      expect([res.status, res.json]).toEqual([
        404,
        { error: { code: 'NOT_FOUND', message: 'No task with this id.', details: {} } },
      ]);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await h.request('GET', `/v1/workflows/${id}/runs`)).json.runs.length).toBe(runsBefore);
    expect((await h.request('GET', `/v1/tasks/${failed.task_id}`)).json.reruns).toEqual([]);
  });
});
