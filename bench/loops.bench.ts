/**
 * `npm run bench:workflows` (second part): a `for_each` fan-out against the same loop written by
 * hand as plain Temporal code (bench/workflows/bare-loop.ts), side by side on one dev server and
 * one worker process, each element one domain lookup on the shop simulator with a fixed upstream
 * latency L. Prints wall time against the ideal ceil(items / concurrency) × L, skillflow ÷
 * hand-written, the run's own history events for both, and for a 10,000-element loop that it
 * completes, its history size and the worker's RSS. Loopback only, bounded.
 */
import { randomUUID } from 'node:crypto';
import { APPS } from '../activities/apps/index.js';
import { activityPolicy } from '../activities/policy.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { startBareWorker } from './bare-worker.js';
import { printTable } from './stats.js';

const ITEMS = Number(process.env.BENCH_LOOP_ITEMS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_LOOP_CONCURRENCY ?? 50);
const LATENCY_MS = Number(process.env.BENCH_LOOP_LATENCY_MS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BIG_ITEMS = Number(process.env.BENCH_LOOP_BIG_ITEMS ?? 10_000);
const BIG_LATENCY_MS = Number(process.env.BENCH_LOOP_BIG_LATENCY_MS ?? 20);

installTemporalRuntime(createLogger('error'));
const shop = await startShopSimulator({ host: '127.0.0.1' });
const h = await startEngine({
  apps: APPS,
  config: {
    SHOP_URL: shop.url,
    OWNER_MAX_RUNNING_RUNS: 10_000,
    RATE_LIMIT_STANDARD_PER_MINUTE: 1_000_000,
    // The shop's provider limit (600 a minute, half of it per owner) would pace both sides at
    // 5 lookups a second: the benchmark measures the fan-out, so it runs without one.
    PROVIDER_RATE_LIMITS: '',
  },
});
const bare = await startBareWorker(h, 'bare-loop.ts');

// Numbers as items keep 10,000 of them inside the run inputs' 64 KiB; each becomes `b<n>.com`.
const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);
const queries = (n: number) => numbers(n).map((i) => `b${i}.com`);
const LOOP = `title: Loop bench
start_when:
  manual:
    inputs:
      numbers: { type: array, required: true }
steps:
  - id: each
    for_each:
      items: '{{inputs.numbers}}'
      concurrency: ${CONCURRENCY}
      steps:
        - id: check
          use_app_skill: hosting.search_domains
          input: { requests: [{ query: 'b{{item}}.com' }] }
`;

async function historySize(id: string): Promise<number> {
  return (await h.env.client.workflow.getHandle(id).fetchHistory()).events!.length;
}

try {
  const def = await h.request('POST', '/v1/workflows', LOOP, 'application/yaml');
  if (def.status !== 201) throw new Error(def.body);
  const ours = async (n: number) => {
    const started = Date.now();
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
      inputs: { numbers: numbers(n) },
    });
    if (run.status !== 202) throw new Error(run.body);
    const result = (await h.env.client.workflow.getHandle(run.json.task_id).result()) as {
      outputs: { each: { completed_count: number } };
    };
    if (result.outputs.each.completed_count !== n) throw new Error('not every element completed');
    return { ms: Date.now() - started, id: run.json.task_id as string };
  };
  const handWritten = async (n: number) => {
    const id = `task_bare_loop_${randomUUID()}`;
    const started = Date.now();
    const done = await h.env.client.workflow.execute('bareLoop', {
      taskQueue: bare.taskQueue,
      workflowId: id,
      args: [
        {
          queries: queries(n),
          concurrency: CONCURRENCY,
          policy: activityPolicy('upstream-search'),
          ownerId: 'owner_a',
        },
      ],
    });
    if (done !== n) throw new Error('not every element completed');
    return { ms: Date.now() - started, id };
  };

  // Upstream requests one element makes (the ideal assumes one request of L per element).
  shop.reset();
  await ours(1);
  const perElement = shop.requests().length;

  shop.setFaults([{ type: 'latency', ms: LATENCY_MS }]);
  const sides = { ours: [] as number[], hand: [] as number[] };
  let ids = { ours: '', hand: '' };
  for (let r = 0; r < ROUNDS; r++) {
    const a = await ours(ITEMS);
    const b = await handWritten(ITEMS);
    sides.ours.push(a.ms);
    sides.hand.push(b.ms);
    ids = { ours: a.id, hand: b.id };
  }
  const ideal = Math.ceil(ITEMS / CONCURRENCY) * LATENCY_MS * perElement;
  const bestOurs = Math.min(...sides.ours);
  const bestHand = Math.min(...sides.hand);
  process.stdout.write(
    `for_each over ${ITEMS} items, concurrency ${CONCURRENCY}, upstream latency ${LATENCY_MS} ms × ${perElement} request(s) per element; best of ${ROUNDS} interleaved rounds\n`,
  );
  printTable([
    ['', 'wall ms', '÷ ideal', 'run history events'],
    ['ideal ceil(items/concurrency) × L', String(ideal), '1.00', ''],
    [
      'skillflow for_each (API start → result)',
      String(bestOurs),
      (bestOurs / ideal).toFixed(2),
      String(await historySize(ids.ours)),
    ],
    [
      'hand-written Temporal loop',
      String(bestHand),
      (bestHand / ideal).toFixed(2),
      String(await historySize(ids.hand)),
    ],
    ['ratio skillflow / hand-written', (bestOurs / bestHand).toFixed(2), '', ''],
  ]);
  process.stdout.write(
    `wall ms per round, skillflow: ${sides.ours.join(' ')}; hand-written: ${sides.hand.join(' ')}\n`,
  );

  shop.setFaults([{ type: 'latency', ms: BIG_LATENCY_MS }]);
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 250);
  const big = await ours(BIG_ITEMS);
  clearInterval(sampler);
  const bigIdeal = Math.ceil(BIG_ITEMS / CONCURRENCY) * BIG_LATENCY_MS * perElement;
  process.stdout.write(
    `for_each over ${BIG_ITEMS} items, concurrency ${CONCURRENCY}, latency ${BIG_LATENCY_MS} ms: completed in ${big.ms} ms (${(big.ms / bigIdeal).toFixed(2)} × the ideal ${bigIdeal} ms), run history ${await historySize(big.id)} events, process RSS (API + worker) ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(peak / 2 ** 20).toFixed(0)} MiB peak\n`,
  );
} finally {
  await bare.close();
  await h.close();
  await shop.close();
}
