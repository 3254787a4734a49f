/**
 * The worker is killed (SIGKILL) in the middle of a run and a new one started: the run
 * completes, every step's output is there, and nothing ran twice that had finished.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';

const TWO_STEPS = `title: Survives worker loss
start_when:
  manual: {}
steps:
  - id: first
    use_app_skill: echo.shout
    input:
      requests:
        - text: before
  - id: slow
    use_app_skill: echo.shout
    input:
      requests:
        - text: x
          wait_ms: 4000
`;

function startWorkerProcess(h: EngineHarness): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'test/fixtures/worker-process.ts')],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: h.env.address, TASK_QUEUE: h.taskQueue },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

describe('worker killed mid-run', () => {
  let h: EngineHarness;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    h = await startEngine({ worker: false });
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await h?.close();
  });

  it('completes the run on a new worker without losing or repeating finished steps', async () => {
    const def = await h.request('POST', '/v1/workflows', TWO_STEPS, 'application/yaml');
    expect(def.status).toBe(201);
    // No worker yet: the task is queued, every step pending.
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    const queued = await h.request('GET', `/v1/tasks/${run.json.task_id}`);
    expect(queued.json).toMatchObject({ status: 'queued', result: null, error: null, finished_at: null });
    expect(queued.json.steps.map((s: { id: string; status: string }) => `${s.id}:${s.status}`)).toEqual([
      'first:pending',
      'slow:pending',
    ]);

    const first = await startWorkerProcess(h);
    children.push(first);
    await h.waitForTask(run.json.task_id, (t) => t.steps?.[1]?.status === 'running');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));

    const second = await startWorkerProcess(h);
    children.push(second);
    const task = await h.waitForTask(run.json.task_id, (t) => t.status === 'completed', 60_000);
    expect(task.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
    expect(task.result.outputs).toEqual({
      first: { results: ['BEFORE'], result_count: 1 },
      slow: { results: ['X'], result_count: 1 },
    });
    const history = await h.env.client.workflow.getHandle(run.json.task_id).fetchHistory();
    const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes);
    expect(scheduled.map((e) => e.activityTaskScheduledEventAttributes!.activityType!.name)).toEqual([
      'echo.shout',
      'echo.shout',
    ]);
    const slowStarted = history.events!.filter((e) => e.activityTaskStartedEventAttributes).pop()!;
    expect(slowStarted.activityTaskStartedEventAttributes!.attempt).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
