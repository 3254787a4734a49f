/**
 * `npm run bench:api`: latency (median, p95) and throughput of a quick skill call,
 * `hosting.search_domains` with one exact-lookup group against the shop simulator, three ways in
 * one process, interleaved (best of BENCH_ROUNDS rounds):
 * - API: POST /v1/apps/hosting/skills/search_domains over loopback HTTP with a bearer token
 *   (key check through the key cache, tier, provider and owner-share counters taken from the
 *   process's leases of the store counters, upstream meter, usage record batched after the
 *   answer; the skill runs in the API process, no workflow);
 * - bare: a bare Fastify route on loopback that validates the body and calls the same skill,
 *   without auth or limits;
 * - direct: `runSkill(skill, input, ctx)` in-process (the API's own runner), no HTTP.
 * Both HTTP sides are called with the same `fetch` request. Throughput is sustained: BENCH_TOTAL
 * calls with BENCH_CONCURRENCY in flight. Prints the ratios api/bare (targets: p50 ≤ 1.2,
 * throughput ≥ 0.8 at 20 concurrent) and api/direct, once with the platform store on
 * PGlite (in-process) and once on a throwaway PostgreSQL server on loopback when its binaries
 * are installed. Loopback only.
 *
 * Env: BENCH_RUNS (sequential calls per round, default 100), BENCH_CONCURRENCY (default 20),
 * BENCH_TOTAL (calls per throughput round, default 1000), BENCH_ROUNDS (default 3), BENCH_STORES (`pglite,postgres` by default).
 */
import Fastify from 'fastify';
import { APPS } from '../activities/apps/index.js';
import { policyDeadlineMs, runSkill, type RunContext } from '../activities/runtime/run-skill.js';
import { createUpstreamMeter } from '../activities/runtime/upstream-meter.js';
import { createKey } from '../lib/keys.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../test/helpers/postgres.js';
import { best, measure as measureBench, printTable, type Figures } from './stats.js';

const SEQUENTIAL = Number(process.env.BENCH_RUNS ?? 100);
const CONCURRENT = Number(process.env.BENCH_CONCURRENCY ?? 20);
const TOTAL = Number(process.env.BENCH_TOTAL ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const INPUT = { requests: [{ query: 'cedar.com' }] };
const BODY = JSON.stringify(INPUT);
const TARGET_P50 = 1.2;
const TARGET_THROUGHPUT = 0.8;
const STORES = (process.env.BENCH_STORES ?? 'pglite,postgres').split(',');

installTemporalRuntime(createLogger('error'));
const started = Date.now();
const shop = await startShopSimulator({ host: '127.0.0.1' });

/** One full comparison with the platform store on `store`. */
async function benchOn(store: 'pglite' | 'postgres', databaseUrl?: string): Promise<void> {
  // Limits high enough that the bench's few hundred calls are never queued: the checks still run.
  const h = await startEngine({
    apps: APPS,
    config: {
      SHOP_URL: shop.url,
      RATE_LIMIT_PRO_PER_MINUTE: 1_000_000,
      PROVIDER_RATE_LIMITS: 'shop=1000000/60,*=1000000/60',
    },
    ...(databaseUrl ? { databaseUrl } : {}),
  });
  const apiAddress = await h.api.app.listen({ host: '127.0.0.1', port: 0 });
  const { token } = await createKey(h.api.deps.store, {
    name: 'bench',
    scopes: ['*'],
    ownerId: 'owner_bench',
    tier: 'pro',
  });
  const skill = h.api.deps.registry.available('hosting', 'search_domains');
  if (!skill) throw new Error('hosting.search_domains is not loaded');

  const ctx = (): RunContext & { view: 'full' } => ({
    view: 'full',
    anonymous: false,
    deadlineMs: policyDeadlineMs(skill),
    meter: createUpstreamMeter({ skill: 'hosting.search_domains' }),
  });

  // The baseline: the same skill behind a bare Fastify route, no auth, no limits, no records.
  const bare = Fastify();
  bare.post('/bare/search_domains', async (req) => {
    const { output, previews } = await runSkill(skill, req.body, ctx());
    return { ...(output as Record<string, unknown>), previews };
  });
  const bareAddress = await bare.listen({ host: '127.0.0.1', port: 0 });

  let unexpected = 0;
  const post = (url: string, headers: Record<string, string>) => async (): Promise<void> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: BODY,
    });
    await res.arrayBuffer();
    if (res.status !== 200) unexpected++;
  };
  const viaApi = post(`${apiAddress}/v1/apps/hosting/skills/search_domains`, {
    authorization: `Bearer ${token}`,
  });
  const viaBare = post(`${bareAddress}/bare/search_domains`, {});
  const direct = async (): Promise<void> => {
    await runSkill(skill, INPUT, ctx());
  };

  const measure = (fn: () => Promise<void>) => measureBench(fn, SEQUENTIAL, CONCURRENT, TOTAL);

  try {
    // Interleave the three so machine noise hits all alike.
    let a: Figures | undefined;
    let b: Figures | undefined;
    let d: Figures | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const [x, y, z] = [await measure(viaApi), await measure(viaBare), await measure(direct)];
      a = a ? best(a, x) : x;
      b = b ? best(b, y) : y;
      d = d ? best(d, z) : z;
    }
    if (!a || !b || !d) throw new Error('BENCH_ROUNDS must be at least 1');
    const p50 = a.median / b.median;
    const tput = a.throughput / b.throughput;
    process.stdout.write(
      `\nstore ${store}: hosting.search_domains, 1 exact-lookup group on the shop simulator; ${SEQUENTIAL} sequential calls, ${TOTAL} with ${CONCURRENT} in flight; best of ${ROUNDS} interleaved rounds\n`,
    );
    printTable([
      ['', 'median ms', 'p95 ms', 'calls/s'],
      [
        'API (HTTP → auth → limits → skill in-process)',
        a.median.toFixed(2),
        a.p95.toFixed(2),
        a.throughput.toFixed(1),
      ],
      ['bare Fastify route (HTTP → skill)', b.median.toFixed(2), b.p95.toFixed(2), b.throughput.toFixed(1)],
      ['direct runSkill in-process', d.median.toFixed(2), d.p95.toFixed(2), d.throughput.toFixed(1)],
      ['ratio api/bare', p50.toFixed(2), (a.p95 / b.p95).toFixed(2), tput.toFixed(2)],
      [
        'ratio api/direct',
        (a.median / d.median).toFixed(1),
        (a.p95 / d.p95).toFixed(1),
        (a.throughput / d.throughput).toFixed(2),
      ],
    ]);
    const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
    process.stdout.write(
      `target p50 api/bare ≤ ${TARGET_P50}: ${p50.toFixed(2)} ${verdict(p50 <= TARGET_P50)}; ` +
        `target throughput api/bare ≥ ${TARGET_THROUGHPUT} at ${CONCURRENT} concurrent: ${tput.toFixed(2)} ${verdict(tput >= TARGET_THROUGHPUT)}\n`,
    );
    if (unexpected > 0) process.stdout.write(`note: ${unexpected} HTTP call(s) did not answer 200\n`);
  } finally {
    await bare.close();
    await h.close();
  }
}

let pg: TestPostgres | undefined;
try {
  if (STORES.includes('pglite')) await benchOn('pglite');
  if (STORES.includes('postgres')) {
    if (postgresAvailable()) {
      pg = await startTestPostgres();
      await benchOn('postgres', pg.url);
    } else process.stdout.write('\nstore postgres: skipped (no PostgreSQL server binaries here)\n');
  }
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
} finally {
  pg?.stop();
  await shop.close();
}
