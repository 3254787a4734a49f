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
 * 2. API CPU per start without a worker: `process.cpuUsage()` over BENCH_START_CPU sequential
 *    API starts, divided by their number; beside it the same for the direct start and for a
 *    trivial HTTP round trip (`GET /v1/health`), so the API's own share can be read off. The
 *    figures include the bench's own HTTP client, which runs in the same process. Goal: ≤ 5 ms.
 */
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
const h = await startEngine({
  apps: APPS,
  config: {
    SHOP_URL: shop.url,
    OWNER_MAX_RUNNING_RUNS: 1_000_000,
    RATE_LIMIT_STANDARD_PER_MINUTE: 10_000_000,
    RATE_LIMIT_PRO_PER_MINUTE: 10_000_000,
  },
});

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
  const viaApi = async (): Promise<void> => {
    const res = await fetch(`${address}/v1/workflows/${id}/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: body(),
    });
    await res.arrayBuffer();
    if (res.status !== 202) unexpected++;
  };
  const direct = async (): Promise<void> => {
    await engine.runs.startRun(def, { name: `cedar${n++}` });
  };
  const health = async (): Promise<void> => {
    const res = await fetch(`${address}/v1/health`);
    await res.arrayBuffer();
  };

  // 1. Throughput with the worker running the started runs.
  let api = 0;
  let bare = 0;
  await sustained(viaApi, 20, 5);
  await sustained(direct, 20, 5);
  for (let r = 0; r < ROUNDS; r++) {
    api = Math.max(api, await sustained(viaApi, TOTAL, IN_FLIGHT));
    bare = Math.max(bare, await sustained(direct, TOTAL, IN_FLIGHT));
  }
  const ratio = api / bare;

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
  printTable([
    ['', 'starts/s', 'CPU ms per start (no worker)'],
    ['API (POST /v1/workflows/{id}/runs over HTTP)', api.toFixed(1), cpuApi.toFixed(2)],
    ['direct RunsService.startRun in-process', bare.toFixed(1), cpuDirect.toFixed(2)],
    ['trivial HTTP round trip (GET /v1/health)', '-', cpuHealth.toFixed(2)],
    ['ratio api/direct', ratio.toFixed(2), (cpuApi / cpuDirect).toFixed(2)],
  ]);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const own = cpuApi - cpuDirect;
  process.stdout.write(
    `target throughput api/direct ≥ ${TARGET_RATIO}: ${ratio.toFixed(2)} ${verdict(ratio >= TARGET_RATIO)}; ` +
      `target API CPU per start ≤ ${TARGET_CPU_MS} ms: ${cpuApi.toFixed(2)} ${verdict(cpuApi <= TARGET_CPU_MS)} ` +
      `(of which the start itself ${cpuDirect.toFixed(2)}, the API's own work ${own.toFixed(2)})\n`,
  );
  if (unexpected > 0) process.stdout.write(`note: ${unexpected} API start(s) did not answer 202\n`);
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  await h.close();
  await shop.close();
}
