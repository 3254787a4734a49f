/**
 * `npm run bench:run-start`: what starting a run through the API costs on top of starting it
 * without HTTP, on one Temporal dev server, side by side in one process. Loopback only.
 *
 * 1. Throughput with a worker: BENCH_START_TOTAL starts, BENCH_START_IN_FLIGHT at a time, of a
 *    one-step definition, each way, interleaved, best of BENCH_START_ROUNDS:
 *    - API: `POST /v1/workflows/{id}/runs` over loopback HTTP with a bearer token (key check,
 *      tier limit, running-runs quota, definition read, scope check, input check, start);
 *    - direct: `RunsService.startRun` in-process with the definition already in hand (the
 *      interpreter's start alone). Goal: API ÷ direct ≥ 0.9.
 *    Measured twice: with the worker in its own process (as `npm run start:worker` runs it beside
 *    `npm run start:api`; test/fixtures/worker-process.ts), then in the bench's process (as
 *    `npm start` runs API and worker together). Between the two the started runs are left to
 *    finish.
 * 2. API CPU per start without a worker: `process.cpuUsage()` over BENCH_START_CPU sequential
 *    API starts, divided by their number; beside it the same for the direct start and for a
 *    trivial HTTP round trip (`GET /v1/health`), so the API's own share can be read off. The
 *    figures include the bench's own HTTP client, which runs in the same process. Goal: ≤ 5 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { APPS } from '../activities/apps/index.js';
import { createServices } from '../api/services/index.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { printTable, sustained } from './stats.js';

const TOTAL = Number(process.env.BENCH_START_TOTAL ?? 200);
const IN_FLIGHT = Number(process.env.BENCH_START_IN_FLIGHT ?? 10);
const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
const CPU_STARTS = Number(process.env.BENCH_START_CPU ?? 500);
const TARGET_RATIO = 0.9;
const TARGET_CPU_MS = 5;

const SOURCE = `title: Run start bench
start_when:
  manual:
    inputs:
      name: { type: string, required: true }
steps:
  - id: look
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: '{{inputs.name}}.com' }] }
`;

installTemporalRuntime(createLogger('error'));
const started = Date.now();
const shop = await startShopSimulator({ host: '127.0.0.1' });
// The runs' one lookup each is never held back by the shop's provider limit.
const PROVIDER_RATE_LIMITS = 'shop=10000000/60,*=10000000/60';
const h = await startEngine({
  apps: APPS,
  worker: false,
  config: {
    SHOP_URL: shop.url,
    PROVIDER_RATE_LIMITS,
    OWNER_MAX_RUNNING_RUNS: 1_000_000,
    RATE_LIMIT_STANDARD_PER_MINUTE: 10_000_000,
    RATE_LIMIT_PRO_PER_MINUTE: 10_000_000,
  },
});

/** The worker in its own process, on the engine's task queue; resolves once it polls. */
function workerProcess(): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(import.meta.dirname, '../test/fixtures/worker-process.ts')],
    {
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: h.env.address,
        TASK_QUEUE: h.taskQueue,
        APPS: 'product',
        SHOP_URL: shop.url,
        PROVIDER_RATE_LIMITS,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`the worker process exited with ${code}`)));
  });
}

/** Waits (up to two minutes) until no run of the bench is open. */
async function drained(): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const { count } = await h.env.client.workflow.count('ExecutionStatus="Running"');
    if (count === 0) return;
    await sleep(500);
  }
  throw new Error('the started runs did not finish within two minutes');
}

try {
  const created = await h.request('POST', '/v1/workflows', SOURCE, 'application/yaml');
  if (created.status !== 201) throw new Error(created.body);
  const id = created.json.id as string;
  const address = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
  // The same services the API builds, for the start without HTTP.
  const { engine } = createServices(h.api.deps);
  const def = await engine.definitions.get('owner_a', id);

  let unexpected = 0;
  let n = 0;
  const body = () => JSON.stringify({ inputs: { name: `cedar${n++}` } });
  // undici's request (keep-alive), as a server-side client calls an API: the client's own CPU
  // runs on the same cores as the API, the dev server and the worker, and is not the API's.
  const viaApi = async (): Promise<void> => {
    const res = await request(`${address}/v1/workflows/${id}/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: body(),
    });
    await res.body.arrayBuffer();
    if (res.statusCode !== 202) unexpected++;
  };
  const direct = async (): Promise<void> => {
    await engine.runs.startRun(def, { name: `cedar${n++}` });
  };
  const health = async (): Promise<void> => {
    const res = await request(`${address}/v1/health`);
    await res.body.arrayBuffer();
  };

  // 1. Throughput with a worker running the started runs: its own process, then this one.
  const throughput = async (): Promise<{ api: number; direct: number }> => {
    let api = 0;
    let bare = 0;
    await sustained(viaApi, 20, 5);
    await sustained(direct, 20, 5);
    for (let r = 0; r < ROUNDS; r++) {
      api = Math.max(api, await sustained(viaApi, TOTAL, IN_FLIGHT));
      bare = Math.max(bare, await sustained(direct, TOTAL, IN_FLIGHT));
    }
    await drained();
    return { api, direct: bare };
  };
  const child = await workerProcess();
  let apart: { api: number; direct: number };
  try {
    apart = await throughput();
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await h.startWorker();
  const together = await throughput();

  // 2. CPU per start, no worker (the runs stay queued).
  await h.worker?.shutdown();
  h.worker = undefined;
  const cpuPer = async (fn: () => Promise<void>, count: number): Promise<number> => {
    for (let i = 0; i < 20; i++) await fn();
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) await fn();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / count;
  };
  const cpuApi = await cpuPer(viaApi, CPU_STARTS);
  const cpuDirect = await cpuPer(direct, CPU_STARTS);
  const cpuHealth = await cpuPer(health, CPU_STARTS);

  process.stdout.write(
    `\nrun starts of a one-step definition; throughput: ${TOTAL} starts, ${IN_FLIGHT} in flight, best of ${ROUNDS} interleaved rounds, worker running\n`,
  );
  const ratioApart = apart.api / apart.direct;
  const ratioTogether = together.api / together.direct;
  printTable([
    ['', 'starts/s, worker apart', 'starts/s, worker in process', 'CPU ms per start (no worker)'],
    [
      'API (POST /v1/workflows/{id}/runs over HTTP)',
      apart.api.toFixed(1),
      together.api.toFixed(1),
      cpuApi.toFixed(2),
    ],
    [
      'direct RunsService.startRun in-process',
      apart.direct.toFixed(1),
      together.direct.toFixed(1),
      cpuDirect.toFixed(2),
    ],
    ['trivial HTTP round trip (GET /v1/health)', '-', '-', cpuHealth.toFixed(2)],
    ['ratio api/direct', ratioApart.toFixed(2), ratioTogether.toFixed(2), (cpuApi / cpuDirect).toFixed(2)],
  ]);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const own = cpuApi - cpuDirect;
  process.stdout.write(
    `target throughput api/direct ≥ ${TARGET_RATIO}: worker in its own process ${ratioApart.toFixed(2)} ${verdict(ratioApart >= TARGET_RATIO)}, ` +
      `worker in the bench's process ${ratioTogether.toFixed(2)} ${verdict(ratioTogether >= TARGET_RATIO)}; ` +
      `target API CPU per start ≤ ${TARGET_CPU_MS} ms: ${cpuApi.toFixed(2)} ${verdict(cpuApi <= TARGET_CPU_MS)} ` +
      `(of which the start itself ${cpuDirect.toFixed(2)}, the API's own work ${own.toFixed(2)})\n`,
  );
  if (unexpected > 0) process.stdout.write(`note: ${unexpected} API start(s) did not answer 202\n`);
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  await h.close();
  await shop.close();
}
