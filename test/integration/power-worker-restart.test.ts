/**
 * A worker is killed (SIGKILL) while a power-design search waits for the upstream: the
 * long-running policy notices the lost worker by its heartbeat timeout, a new worker runs the
 * search again, and the run completes with the results.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/config.js';
import { startPowerSimulator, type PowerSimulator } from '../../simulators/power/server.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { APPS } from '../../activities/apps/index.js';

function startWorkerProcess(h: EngineHarness, powerUrl: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'test/fixtures/worker-process.ts')],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: h.env.address,
        TASK_QUEUE: h.taskQueue,
        APPS: 'product',
        POWER_URL: powerUrl,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
  });
}

describe('power search survives a lost worker', () => {
  let h: EngineHarness;
  let sim: PowerSimulator;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    sim = await startPowerSimulator({ latencyMs: 4000 });
    h = await startEngine({ worker: false, apps: APPS, config: { POWER_URL: sim.url } });
  }, 60_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await h?.close();
    await sim?.close();
  });

  it('completes the search on a new worker', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      `title: Power survives
start_when:
  manual: {}
steps:
  - id: search
    use_app_skill: electronics.search_power_designs
    input:
      requests:
        - { vinMin: 10, vinMax: 24, vout: [5], iout: [2], max_results: 2 }
`,
      'application/yaml',
    );
    expect(def.status).toBe(201);
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    const first = await startWorkerProcess(h, sim.url);
    children.push(first);
    // Killed while the upstream search is in flight.
    const deadline = Date.now() + 20_000;
    while (!sim.requests().some((r) => r.method === 'POST') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(sim.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    sim.setLatency(50);

    const second = await startWorkerProcess(h, sim.url);
    children.push(second);
    const task = await h.waitForTask(run.json.task_id, (t) => t.status === 'completed', 150_000);
    expect(task.result.outputs.search.result_count).toBe(2);
    expect(task.result.outputs.search.results.map((s: { rank: number }) => s.rank)).toEqual([1, 2]);
    const history = await h.env.client.workflow.getHandle(run.json.task_id).fetchHistory();
    const started = history.events!.filter((e) => e.activityTaskStartedEventAttributes).pop()!;
    expect(started.activityTaskStartedEventAttributes!.attempt).toBe(2);
    expect(sim.requests().filter((r) => r.method === 'POST')).toHaveLength(2);
  }, 200_000);
});
