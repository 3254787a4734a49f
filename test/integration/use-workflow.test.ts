/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `use_workflow` on a real Temporal server with the API and a worker: a parent runs a child
 * definition of the same owner as a child workflow, reads its declared outputs, links its task;
 * another owner's definition is never found; nesting, scopes, schedules and a child's own
 * cancellation follow their rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../lib/keys.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

describe('use_workflow', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine();
  });
  afterAll(async () => {
    await h?.close();
  });

  const CHILD = `title: Child
start_when:
  manual:
    inputs:
      word: { type: string, required: true }
steps:
  - id: shout
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{inputs.word}}' }] }
outputs:
  loud: $nodes.shout.output.results.0
  count: '{{steps.shout.result_count}}'
`;

  it('runs the child, reads its declared outputs and links its task', async () => {
    const child = await h.request('POST', '/v1/workflows', CHILD, 'application/yaml');
    expect(child.status, child.body).toBe(201);
    const parent = await h.request(
      'POST',
      '/v1/workflows',
      `title: Parent
start_when: { manual: {} }
steps:
  - id: sub
    use_workflow: { workflow: ${child.json.id}, version: 1, inputs: { word: cedar } }
  - id: after
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{steps.sub.loud}} x{{steps.sub.count}}' }] }
`,
      'application/yaml',
    );
    expect(parent.status, parent.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${parent.json.id}/runs`, { inputs: {} });
    expect(run.status, run.body).toBe(202);
    const done = await h.waitForTask(run.json.task_id, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.sub).toEqual({ loud: 'CEDAR', count: 1 });
    expect(done.result.outputs.after.results).toEqual(['CEDAR X1']);
    const childTask = done.steps[0].child_task_id;
    expect(childTask).toBe(`${run.json.task_id}.1`);
    const seen = await h.request('GET', `/v1/tasks/${childTask}`);
    expect(seen.status).toBe(200);
    expect(seen.json.status).toBe('completed');
    expect(
      (await h.request('GET', `/v1/tasks/${childTask}`, undefined, undefined, h.otherToken)).status,
    ).toBe(404);
  });

  it("refuses another owner's definition at compile time", async () => {
    const child = await h.request('POST', '/v1/workflows', CHILD, 'application/yaml', h.otherToken);
    expect(child.status).toBe(201);
    const parent = await h.request(
      'POST',
      '/v1/workflows',
      `title: Parent\nstart_when: { manual: {} }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child.json.id} }\n`,
      'application/yaml',
    );
    expect(parent.status).toBe(422);
    expect(parent.json.error.details.diagnostics).toEqual([
      {
        code: 'UNKNOWN_WORKFLOW',
        message: 'None of your workflow definitions has this id.',
        path: 'steps[0].use_workflow.workflow',
        line: 5,
        column: 31,
      },
    ]);
  });

  it('refuses a pin of its own next version, and a start nesting deeper than 5 runs', async () => {
    const first = await h.request('POST', '/v1/workflows', CHILD, 'application/yaml');
    const id = first.json.id as string;
    const selfPin = await h.request(
      'PUT',
      `/v1/workflows/${id}`,
      `title: Self\nstart_when: { manual: {} }\nsteps:\n  - id: again\n    use_workflow: { workflow: ${id}, version: 2 }\n`,
      'application/yaml',
    );
    expect(selfPin.status).toBe(422);
    expect(selfPin.json.error.details.diagnostics.map((d: any) => [d.code, d.path])).toEqual([
      ['WORKFLOW_CYCLE', 'steps[0].use_workflow.version'],
    ]);
    // Unpinned, it uses whatever its current version is: itself, without end.
    const recursive = await h.request(
      'PUT',
      `/v1/workflows/${id}`,
      `title: Self\nstart_when: { manual: {} }\nsteps:\n  - id: again\n    use_workflow: { workflow: ${id} }\n`,
      'application/yaml',
    );
    expect(recursive.status, recursive.body).toBe(200);
    const start = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: {} });
    expect(start.status).toBe(422);
    expect(start.json).toEqual({
      error: {
        code: 'WORKFLOW_DEPTH_EXCEEDED',
        message: 'use_workflow steps nest deeper than 5 runs; see details.max_depth.',
        details: { max_depth: 5 },
      },
    });
  });

  it('checks unpinned inputs at start; cancelling cancels the child; a failing child fails the step', async () => {
    const child = await h.request(
      'POST',
      '/v1/workflows',
      `title: Child
start_when:
  manual:
    inputs:
      word: { type: string, required: true }
      wait_ms: { type: integer, default: 0 }
steps:
  - id: shout
    use_app_skill: echo.shout
    input: { requests: [{ text: '{{inputs.word}}', wait_ms: '{{inputs.wait_ms}}' }] }
`,
      'application/yaml',
    );
    expect(child.status, child.body).toBe(201);
    const parentOf = async (inputs: string) => {
      const res = await h.request(
        'POST',
        '/v1/workflows',
        `title: Parent\nstart_when: { manual: {} }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child.json.id}, inputs: ${inputs} }\n`,
        'application/yaml',
      );
      expect(res.status, res.body).toBe(201);
      return res.json.id as string;
    };
    const wrong = await parentOf('{ wrd: cedar }');
    const refused = await h.request('POST', `/v1/workflows/${wrong}/runs`, { inputs: {} });
    expect(refused.status).toBe(422);
    expect(refused.json).toEqual({
      error: {
        code: 'INVALID_WORKFLOW_INPUT',
        message: "A use_workflow step's inputs do not match the child workflow's declared inputs.",
        details: { step: 'sub', definition_id: wrong },
      },
    });
    // Cancelling the parent cancels its running child.
    const slow = await parentOf('{ word: cedar, wait_ms: 20000 }');
    const started = await h.request('POST', `/v1/workflows/${slow}/runs`, { inputs: {} });
    const running = await h.waitForTask(
      started.json.task_id,
      (t) => t.steps?.[0]?.child_task_id !== undefined,
    );
    const childId = running.steps[0].child_task_id as string;
    await h.waitForTask(childId, (t) => t.status === 'running');
    expect((await h.request('POST', `/v1/tasks/${started.json.task_id}/cancel`)).status).toBeLessThan(300);
    const cancelled = await h.waitForTask(started.json.task_id, (t) => t.status === 'cancelled');
    expect(cancelled.steps[0].status).toBe('cancelled');
    expect((await h.waitForTask(childId, (t) => t.status !== 'running')).status).toBe('cancelled');
    // The child's own step fails: so does the parent's step, with its code.
    const failing = await h.request(
      'PUT',
      `/v1/workflows/${child.json.id}`,
      `title: Failing child\nstart_when:\n  manual:\n    inputs:\n      word: { type: string, required: true }\nsteps:\n  - id: shout\n    use_app_skill: echo.shout\n    input: { requests: [{ text: '{{inputs.word}}', fail: NOT_FOUND }] }\n`,
      'application/yaml',
    );
    expect(failing.status, failing.body).toBe(200);
    const parent = await parentOf('{ word: cedar }');
    const run = await h.request('POST', `/v1/workflows/${parent}/runs`, { inputs: {} });
    const done = await h.waitForTask(run.json.task_id, (t) => ['completed', 'failed'].includes(t.status));
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('NOT_FOUND');
    expect(done.error.details).toEqual({ step: 'sub' });
    // The step reports the child's own step error, not the child run's wrapper.
    expect(done.steps[0].error.code).toBe('NOT_FOUND');
    expect(done.steps[0].error.message.startsWith('A step failed')).toBe(false);
    const childRun = await h.request('GET', `/v1/tasks/${done.steps[0].child_task_id}`);
    expect([childRun.json.status, childRun.json.error.code]).toEqual(['failed', 'NOT_FOUND']);
  });

  const yaml = (body: string, tok?: string) =>
    h.request('POST', '/v1/workflows', body, 'application/yaml', tok);
  const runToEnd = async (id: string, tok?: string) => {
    const run = await h.request('POST', `/v1/workflows/${id}/runs`, { inputs: {} }, undefined, tok);
    expect(run.status, run.body).toBe(202);
    return h.waitForTask(run.json.task_id, (t) => ['completed', 'failed', 'cancelled'].includes(t.status));
  };

  it('nests exactly 5 runs; a sixth level is refused at start', async () => {
    let next = await yaml(
      `title: Leaf\nstart_when: { manual: {} }\nsteps:\n  - id: s\n    use_app_skill: echo.shout\n    input: { requests: [{ text: deep }] }\noutputs:\n  said: $nodes.s.output.results.0\n`,
    );
    expect(next.status, next.body).toBe(201);
    const level = (child: string) =>
      yaml(
        `title: Level\nstart_when: { manual: {} }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child} }\noutputs:\n  said: $nodes.sub.output.said\n`,
      );
    for (let depth = 4; depth >= 1; depth--) {
      next = await level(next.json.id);
      expect(next.status, next.body).toBe(201);
    }
    const done = await runToEnd(next.json.id);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.result.outputs.sub).toEqual({ said: 'DEEP' });
    const sixth = await level(next.json.id);
    const refused = await h.request('POST', `/v1/workflows/${sixth.json.id}/runs`, { inputs: {} });
    expect(refused.json).toEqual({
      error: {
        code: 'WORKFLOW_DEPTH_EXCEEDED',
        message: 'use_workflow steps nest deeper than 5 runs; see details.max_depth.',
        details: { max_depth: 5 },
      },
    });
  });

  it('refuses a start whose children reach more than 25 use_workflow steps', async () => {
    const leaf = await yaml(CHILD);
    const steps = Array.from(
      { length: 26 },
      (_, i) => `  - id: s${i}\n    use_workflow: { workflow: ${leaf.json.id}, inputs: { word: w } }\n`,
    ).join('');
    const wide = await yaml(`title: Wide\nstart_when: { manual: {} }\nsteps:\n${steps}`);
    expect(wide.status, wide.body).toBe(201);
    const refused = await h.request('POST', `/v1/workflows/${wide.json.id}/runs`, { inputs: {} });
    expect(refused.json).toEqual({
      error: {
        code: 'WORKFLOW_TREE_TOO_LARGE',
        message:
          'The workflows a run uses reach more than 25 use_workflow steps or 1,000,000 characters of plans; see details.',
        details: { max_children: 25, max_chars: 1_000_000 },
      },
    });
  });

  it("needs the caller's scopes for every skill a child calls", async () => {
    const child = await yaml(
      `title: Child\nstart_when: { manual: {} }\nsteps:\n  - id: s\n    for_each:\n      items: [a]\n      steps:\n        - id: slow\n          use_app_skill: echo.slow_echo\n          input: { requests: [{ text: '{{item}}' }] }\n`,
    );
    expect(child.status, child.body).toBe(201);
    const { token: narrow } = await createKey(h.api.deps.store, {
      name: 'narrow',
      scopes: ['workflows', 'skill:echo.shout'],
      ownerId: 'owner_a',
    });
    const parent = await yaml(
      `title: Parent\nstart_when: { manual: {} }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child.json.id} }\n`,
      narrow,
    );
    expect(parent.status, parent.body).toBe(201);
    const refused = await h.request(
      'POST',
      `/v1/workflows/${parent.json.id}/runs`,
      { inputs: {} },
      undefined,
      narrow,
    );
    expect(refused.json).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'The API key is not scoped to every skill this workflow uses.',
        details: { skills: ['echo.slow_echo'], required_scope: ['skill:echo.slow_echo'] },
      },
    });
    // The child's own inner step needs the scope too, not only top-level steps.
    const direct = await h.request(
      'POST',
      `/v1/workflows/${child.json.id}/runs`,
      { inputs: {} },
      undefined,
      narrow,
    );
    expect(direct.json.error.details).toEqual({
      skills: ['echo.slow_echo'],
      required_scope: ['skill:echo.slow_echo'],
    });
  });

  it('a scheduled parent pins its children, and its schedule runs them', async () => {
    const child = await yaml(
      `title: Child\nstart_when: { manual: {} }\nsteps:\n  - id: s\n    use_app_skill: echo.shout\n    input: { requests: [{ text: nightly }] }\noutputs:\n  said: $nodes.s.output.results.0\n`,
    );
    const scheduled = (pin: string) =>
      yaml(
        `title: Nightly\nstart_when: { schedule: { cron: '0 3 * * *', timezone: UTC } }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child.json.id}${pin} }\n`,
      );
    const unpinned = await scheduled('');
    expect(unpinned.status).toBe(422);
    expect(unpinned.json.error.details.diagnostics).toEqual([
      {
        code: 'WORKFLOW_VERSION_REQUIRED',
        message:
          "A scheduled definition must pin each workflow's version: its runs are authorised when it is saved.",
        path: 'steps[0].use_workflow.workflow',
        line: 5,
        column: 31,
      },
    ]);
    const pinned = await scheduled(', version: 1');
    expect(pinned.status, pinned.body).toBe(201);
    const trigger = await h.request('POST', `/v1/workflows/${pinned.json.id}/schedule/trigger`);
    expect(trigger.status, trigger.body).toBe(200);
    let runs: any[] = [];
    for (let i = 0; i < 100 && runs[0]?.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      runs = (await h.request('GET', `/v1/workflows/${pinned.json.id}/runs`)).json.runs;
    }
    expect(runs.map((r) => [r.status, r.trigger])).toEqual([['completed', 'schedule']]);
    const task = await h.request('GET', `/v1/tasks/${runs[0].task_id}`);
    expect(task.json.result.outputs.sub).toEqual({ said: 'NIGHTLY' });
  });

  it("a child cancelled on its own fails the parent's step, which a handler can take", async () => {
    const child = await yaml(
      `title: Slow\nstart_when: { manual: {} }\nsteps:\n  - id: s\n    use_app_skill: echo.shout\n    input: { requests: [{ text: slow, wait_ms: 20000 }] }\n`,
    );
    const parent = await yaml(
      `title: Parent\nstart_when: { manual: {} }\nsteps:\n  - id: sub\n    use_workflow: { workflow: ${child.json.id} }\n    on_error:\n      - id: note\n        use_app_skill: echo.shout\n        input: { requests: [{ text: '{{error.code}}' }] }\n`,
    );
    expect(parent.status, parent.body).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${parent.json.id}/runs`, { inputs: {} });
    const running = await h.waitForTask(run.json.task_id, (t) => t.steps?.[0]?.child_task_id !== undefined);
    const childId = running.steps[0].child_task_id as string;
    await h.waitForTask(childId, (t) => t.status === 'running');
    expect((await h.request('POST', `/v1/tasks/${childId}/cancel`)).status).toBeLessThan(300);
    const done = await h.waitForTask(run.json.task_id, (t) =>
      ['completed', 'failed', 'cancelled'].includes(t.status),
    );
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    expect(done.steps[0]).toMatchObject({
      status: 'failed',
      handled: true,
      error: { code: 'CHILD_RUN_CANCELLED', message: 'The child run was cancelled.' },
    });
    expect(done.steps[1]).toMatchObject({ id: 'note', status: 'completed', handler: 'sub' });
    expect(done.result.outputs.sub).toEqual({
      error: { code: 'CHILD_RUN_CANCELLED', message: 'The child run was cancelled.' },
    });
    expect((await h.request('GET', `/v1/tasks/${childId}`)).json.status).toBe('cancelled');
  });
});
