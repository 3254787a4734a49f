/* eslint-disable @typescript-eslint/no-explicit-any -- API responses are asserted field by field in tests. */
/**
 * `use_workflow` on a real Temporal server with the API and a worker: a parent runs a child
 * definition of the same owner as a child workflow, reads its declared outputs, links its task;
 * another owner's definition is never found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
        details: { step: 'sub' },
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
    const childRun = await h.request('GET', `/v1/tasks/${done.steps[0].child_task_id}`);
    expect([childRun.json.status, childRun.json.error.code]).toEqual(['failed', 'NOT_FOUND']);
  });
});
