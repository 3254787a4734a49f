/**
 * `npm run bench:api`: latency (median, p95) and throughput of a quick skill call,
 * `hosting.search_domains` with one exact-lookup group against the shop simulator, through the
 * API over loopback HTTP with the SDK (bearer auth → runSkillCall workflow on a Temporal dev
 * server → activity on a worker) against a direct in-process `runSkill(impl, input, ctx)` of
 * the same skill on the same simulator. Both run in the same process, interleaved (best of 2
 * rounds), and print side by side with ratios api/direct. Loopback only; about 30 s.
 *
 * Env: BENCH_RUNS (sequential calls per round, default 30), BENCH_CONCURRENCY (default 20).
 */
import path from 'node:path';
import { ACTIVITIES_DIR } from '../activities/registry/registry.js';
import { runSkill } from '../activities/skill-activity.js';
import { createKey } from '../lib/keys.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { createClient, isCompleted, type SkillCallResponse } from '../sdk/index.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { best, measure as measureBench, printTable } from './stats.js';
import { createUpstreamMeter } from '../activities/upstream-meter.js';

const SEQUENTIAL = Number(process.env.BENCH_RUNS ?? 30);
const CONCURRENT = Number(process.env.BENCH_CONCURRENCY ?? 20);
const INPUT = { requests: [{ query: 'cedar.com' }] };
const BUDGET_MS = 110_000;

installTemporalRuntime(createLogger('error'));
const started = Date.now();
const shop = await startShopSimulator({ host: '127.0.0.1' });
const h = await startEngine({ appsDir: path.join(ACTIVITIES_DIR, 'apps'), config: { SHOP_URL: shop.url } });
const address = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
// A pro-tier key: the bench's ~100 calls stay far below its per-minute limit.
const { token } = await createKey(h.api.deps.store, {
  name: 'bench',
  scopes: ['*'],
  ownerId: 'owner_bench',
  tier: 'pro',
});
const client = createClient({ baseUrl: address, token });
const impl = h.api.deps.registry.available('hosting', 'search_domains')?.impl;
if (!impl) throw new Error('hosting.search_domains is not loaded');
let queued = 0;

const viaApi = async (): Promise<void> => {
  const res: SkillCallResponse = await client.skills.call('hosting', 'search_domains', INPUT);
  if (!isCompleted(res)) {
    queued++;
    await client.tasks.wait(res.task_id, { intervalMs: 50 });
  }
};
const direct = async (): Promise<void> => {
  const ctx = {
    signal: AbortSignal.timeout(60_000),
    heartbeat: () => {},
    anonymous: false,
    meter: createUpstreamMeter('hosting.search_domains'),
  };
  await runSkill(impl, INPUT, ctx);
};

const measure = (fn: () => Promise<void>) => measureBench(fn, SEQUENTIAL, CONCURRENT);

try {
  // Interleave the two so machine noise hits both alike; stop early if over budget.
  let a = await measure(viaApi);
  let b = await measure(direct);
  let rounds = 1;
  if (Date.now() - started < BUDGET_MS / 2) {
    a = best(a, await measure(viaApi));
    b = best(b, await measure(direct));
    rounds = 2;
  }
  process.stdout.write(
    `hosting.search_domains, 1 exact-lookup group on the shop simulator; ${SEQUENTIAL} sequential calls, ${CONCURRENT} concurrent; best of ${rounds} interleaved round(s)\n`,
  );
  printTable([
    ['', 'median ms', 'p95 ms', 'calls/s'],
    [
      'API (SDK → HTTP → runSkillCall workflow)',
      a.median.toFixed(1),
      a.p95.toFixed(1),
      a.throughput.toFixed(1),
    ],
    ['direct runSkill in-process', b.median.toFixed(2), b.p95.toFixed(2), b.throughput.toFixed(1)],
    [
      'ratio api/direct',
      (a.median / b.median).toFixed(1),
      (a.p95 / b.p95).toFixed(1),
      (a.throughput / b.throughput).toFixed(2),
    ],
  ]);
  if (queued > 0)
    process.stdout.write(`note: ${queued} API call(s) answered 202 queued and were polled to completion\n`);
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  await h.close();
  await shop.close();
}
