/**
 * Per-step progress without a history write per step state change: a live run answers the
 * `progress` query, a completed run carries its steps in its result, and the run list tells
 * queued from running by describe. The task view looks the same as when the memo was upserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRESS_BY_QUERY_PATCH } from '../../workflows/run-definition.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const THREE_STEPS = `title: Progress view
start_when:
  manual: {}
steps:
  - id: first
    use_app_skill: echo.shout
    input:
      requests:
        - text: first
  - id: slow
    use_app_skill: echo.shout
    input:
      requests:
        - text: slow
          wait_ms: 3000
  - id: notify
    send_chat_message:
      title: Progress
      message: "{{steps.slow.results.[0]}}"
`;

type Step = { id: string; status: string; output_summary: unknown; error: unknown };
const brief = (steps: Step[]) => steps.map((s) => `${s.id}:${s.status}`);

describe('run progress by query', () => {
  let h: EngineHarness;
  let defId: string;

  beforeAll(async () => {
    h = await startEngine();
    const def = await h.request('POST', '/v1/workflows', THREE_STEPS, 'application/yaml');
    expect(def.status).toBe(201);
    defId = def.json.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const runs = async () =>
    Object.fromEntries(
      (await h.request('GET', `/v1/workflows/${defId}/runs`)).json.runs.map(
        (r: { task_id: string; status: string }) => [r.task_id, r.status],
      ),
    );

  it('shows a live run mid-step from the query, and a closed run from its result, with no memo write', async () => {
    const run = await h.request('POST', `/v1/workflows/${defId}/runs`, {});
    const taskId = run.json.task_id as string;
    const live = await h.waitForTask(taskId, (t) => t.steps?.[1]?.status === 'running');
    expect(live).toMatchObject({ status: 'running', finished_at: null, result: null, error: null });
    expect(brief(live.steps)).toEqual(['first:completed', 'slow:running', 'notify:pending']);
    expect(live.steps[0]).toMatchObject({ output_summary: { result_count: 1 }, error: null });
    expect(Date.parse(live.steps[1].started_at)).toBeGreaterThanOrEqual(Date.parse(live.started_at));
    expect(live.steps[1].finished_at).toBeNull();
    expect(await runs()).toEqual({ [taskId]: 'running' });

    const done = await h.waitForTask(taskId, (t) => t.status === 'completed');
    expect(brief(done.steps)).toEqual(['first:completed', 'slow:completed', 'notify:completed']);
    expect(done.steps[1].output_summary).toEqual({ result_count: 1 });
    expect(done.steps).toEqual(done.result.steps);
    expect(await runs()).toEqual({ [taskId]: 'completed' });

    // The history holds the patch marker and no memo write: the run cost no more than its activities.
    const history = await h.env.client.workflow.getHandle(taskId).fetchHistory();
    const events = history.events!;
    expect(events.filter((e) => e.workflowPropertiesModifiedEventAttributes)).toEqual([]);
    const marker = events.find((e) => e.markerRecordedEventAttributes)!.markerRecordedEventAttributes!;
    const patch = JSON.parse(
      Buffer.from(marker.details!['patch-data']!.payloads![0]!.data!).toString('utf8'),
    );
    expect(patch).toEqual({ id: PROGRESS_BY_QUERY_PATCH, deprecated: false });
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(3);
  }, 60_000);

  it('falls back to the recorded memo, still running, when no worker answers; a new run is queued', async () => {
    const run = await h.request('POST', `/v1/workflows/${defId}/runs`, {});
    const taskId = run.json.task_id as string;
    await h.waitForTask(taskId, (t) => t.steps?.[1]?.status === 'running');
    await h.worker!.shutdown();

    const t0 = Date.now();
    const orphan = await h.request('GET', `/v1/tasks/${taskId}`);
    expect(orphan.status).toBe(200);
    // Bounded by the query deadline (1.5 s), plus the describe.
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(orphan.json).toMatchObject({ status: 'running', finished_at: null, result: null, error: null });
    expect(brief(orphan.json.steps)).toEqual(['first:pending', 'slow:pending', 'notify:pending']);

    const queued = await h.request('POST', `/v1/workflows/${defId}/runs`, {});
    const queuedTask = await h.request('GET', `/v1/tasks/${queued.json.task_id}`);
    expect(queuedTask.json).toMatchObject({ status: 'queued', finished_at: null });
    expect(brief(queuedTask.json.steps)).toEqual(['first:pending', 'slow:pending', 'notify:pending']);
    const listed = await runs();
    expect(listed[taskId]).toBe('running');
    expect(listed[queued.json.task_id]).toBe('queued');

    // A worker again: both runs finish, and their steps read as before.
    await h.startWorker();
    for (const id of [taskId, queued.json.task_id as string]) {
      const done = await h.waitForTask(id, (t) => t.status === 'completed', 45_000);
      expect(brief(done.steps)).toEqual(['first:completed', 'slow:completed', 'notify:completed']);
    }
  }, 90_000);
});
