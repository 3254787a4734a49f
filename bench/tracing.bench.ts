/**
 * `npm run bench:tracing`: what tracing costs. The same measurements twice, each in a fresh
 * child process (tracing is process-wide), interleaved over BENCH_ROUNDS rounds: once without
 * an endpoint (tracing off: nothing loaded) and once exporting every span over OTLP/HTTP
 * (protobuf) to a receiver on loopback that only counts bytes. Measured per process:
 * - the median and p95 of a quick skill call through the API (`hosting.search_domains`, one
 *   exact lookup on the shop simulator, POST over loopback HTTP, BENCH_RUNS sequential calls);
 * - runs per second of the two-step benchmark definition started through the API and awaited
 *   (BENCH_SUSTAINED_RUNS runs, BENCH_CONCURRENCY in flight).
 * Loopback only, bounded.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { APPS } from '../activities/apps/index.js';
import { createKey } from '../lib/keys.js';
import { loadConfig, withValues } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startTracing } from '../lib/tracing/index.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { BENCH_DEFINITION } from './workflows/definition.js';
import { measure, printTable, sustained } from './stats.js';

const SEQUENTIAL = Number(process.env.BENCH_RUNS ?? 100);
const CONCURRENT = Number(process.env.BENCH_CONCURRENCY ?? 10);
const SUSTAINED = Number(process.env.BENCH_SUSTAINED_RUNS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Result {
  p50: number;
  p95: number;
  runsPerSecond: number;
  exportedBytes: number;
}

/** One side, in this process: prints its figures as one JSON line. */
async function side(traced: boolean): Promise<void> {
  installTemporalRuntime(createLogger('error'));
  let exportedBytes = 0;
  const receiver = createServer((req, res) => {
    req.on('data', (c: Buffer) => (exportedBytes += c.length));
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const shop = await startShopSimulator({ host: '127.0.0.1' });
  const config = withValues(loadConfig({ LOG_LEVEL: 'silent' }), {
    OTEL_EXPORTER_OTLP_ENDPOINT: traced ? endpoint : undefined,
  });
  const tracing = await startTracing(config.tracing);
  const h = await startEngine({
    apps: APPS,
    config: {
      SHOP_URL: shop.url,
      OWNER_MAX_RUNNING_RUNS: 10_000,
      RATE_LIMIT_STANDARD_PER_MINUTE: 1_000_000,
      RATE_LIMIT_PRO_PER_MINUTE: 1_000_000,
      PROVIDER_RATE_LIMITS: 'shop=1000000/60,*=1000000/60',
    },
  });
  try {
    const address = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
    const { token } = await createKey(h.api.deps.store, {
      name: 'bench',
      scopes: ['*'],
      ownerId: 'owner_bench',
      tier: 'pro',
    });
    const call = async () => {
      const res = await fetch(`${address}/v1/apps/hosting/skills/search_domains`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ requests: [{ query: 'cedar.com' }] }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`skill call answered ${res.status}`);
    };
    const calls = await measure(call, SEQUENTIAL, CONCURRENT);
    const def = await h.request('POST', '/v1/workflows', BENCH_DEFINITION, 'application/yaml');
    if (def.status !== 201) throw new Error(def.body);
    const run = async () => {
      const started = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
      if (started.status !== 202) throw new Error(started.body);
      await h.env.client.workflow.getHandle(started.json.task_id).result();
    };
    await run();
    const runsPerSecond = await sustained(run, SUSTAINED, CONCURRENT);
    await tracing?.flush();
    const result: Result = {
      p50: calls.median,
      p95: calls.p95,
      runsPerSecond,
      exportedBytes,
    };
    process.stdout.write(`BENCH ${JSON.stringify(result)}\n`);
  } finally {
    await h.close();
    await tracing?.shutdown();
    await shop.close();
    receiver.close();
  }
}

function child(traced: boolean): Result {
  const out = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename], {
    env: { ...process.env, BENCH_TRACING_SIDE: traced ? 'on' : 'off' },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = out.stdout.split('\n').find((l) => l.startsWith('BENCH '));
  if (!line) throw new Error(`the ${traced ? 'traced' : 'untraced'} side failed:\n${out.stderr}`);
  return JSON.parse(line.slice('BENCH '.length)) as Result;
}

if (process.env.BENCH_TRACING_SIDE) {
  await side(process.env.BENCH_TRACING_SIDE === 'on');
  process.exit(0);
}

const sides: Record<'off' | 'on', Result[]> = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  sides.off.push(child(false));
  sides.on.push(child(true));
}
const bestOf = (rs: Result[]): Result => ({
  p50: Math.min(...rs.map((r) => r.p50)),
  p95: Math.min(...rs.map((r) => r.p95)),
  runsPerSecond: Math.max(...rs.map((r) => r.runsPerSecond)),
  exportedBytes: Math.max(...rs.map((r) => r.exportedBytes)),
});
const off = bestOf(sides.off);
const on = bestOf(sides.on);
process.stdout.write(
  `\nquick call: hosting.search_domains via the API, ${SEQUENTIAL} sequential; runs: the two-step bench definition, ${SUSTAINED} runs, ${CONCURRENT} in flight; best of ${ROUNDS} rounds, one process per side and round\n`,
);
printTable([
  ['', 'call p50 ms', 'call p95 ms', 'runs/s', 'exported KiB'],
  ...(
    [
      ['tracing off', off],
      ['tracing on (OTLP/HTTP protobuf)', on],
    ] as const
  ).map(([name, r]) => [
    name,
    r.p50.toFixed(2),
    r.p95.toFixed(2),
    r.runsPerSecond.toFixed(1),
    (r.exportedBytes / 1024).toFixed(0),
  ]),
  [
    'ratio on/off',
    (on.p50 / off.p50).toFixed(2),
    (on.p95 / off.p95).toFixed(2),
    (on.runsPerSecond / off.runsPerSecond).toFixed(2),
    '',
  ],
]);
