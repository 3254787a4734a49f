/**
 * `npm run bench:workflows`: end-to-end latency (median, p95) and throughput of a two-step
 * definition (domain search against the shop simulator, then a chat message) started through
 * the API, and started the way the API starts it without the HTTP request (the interpreter
 * alone), against a bare Temporal workflow calling the same activities, side by side on the
 * same dev server and worker process. Prints all three and the ratios. Loopback only, bounded.
 */
import { randomUUID } from 'node:crypto';
import { APPS } from '../activities/apps/index.js';
import { activityPolicy } from '../activities/policy.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { startBareWorker } from './bare-worker.js';
import { catalogFromRegistry } from '../activities/registry/catalog.js';
import { DefinitionsService } from '../api/services/definitions.js';
import { RunsService } from '../api/services/runs.js';
import { BENCH_DEFINITION } from './workflows/definition.js';
import { best, measure as measureBench, printTable, sustained, type Figures } from './stats.js';

const SEQUENTIAL = Number(process.env.BENCH_RUNS ?? 30);
const CONCURRENT = Number(process.env.BENCH_CONCURRENCY ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Runs per throughput measurement, CONCURRENT in flight at a time. */
const SUSTAINED = Number(process.env.BENCH_SUSTAINED_RUNS ?? 100);
/** Set: every skillflow run goes through the owner's flow-control queue (never full at this cap). */
const OWNER_CAP = process.env.BENCH_OWNER_RUN_CONCURRENCY
  ? { OWNER_RUN_CONCURRENCY: Number(process.env.BENCH_OWNER_RUN_CONCURRENCY) }
  : {};

installTemporalRuntime(createLogger('error'));
const shop = await startShopSimulator({ host: '127.0.0.1' });
const h = await startEngine({
  apps: APPS,
  config: {
    SHOP_URL: shop.url,
    OWNER_MAX_RUNNING_RUNS: 10_000,
    RATE_LIMIT_STANDARD_PER_MINUTE: 1_000_000,
    // The shop's provider limit (600 a minute, half of it per owner) is shared by all three sides
    // and used up within the first round on a quiet machine, after which whichever side runs
    // next waits for the minute: the benchmark measures the engine, so it runs without one.
    PROVIDER_RATE_LIMITS: '',
    ...OWNER_CAP,
  },
});
const bare = await startBareWorker(h, 'bare.ts');

try {
  const def = await h.request('POST', '/v1/workflows', BENCH_DEFINITION, 'application/yaml');
  if (def.status !== 201) throw new Error(def.body);
  // The last workflow id of each side, to count the history events one run costs.
  const last = { ours: '', interpreter: '', bare: '' };
  const ours = async () => {
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    if (run.status !== 202) throw new Error(run.body);
    last.ours = run.json.task_id;
    await h.env.client.workflow.getHandle(run.json.task_id).result();
  };
  // The same start as the API's (plan snapshot, policies, search attributes, start memo) minus
  // the HTTP request, key check, owner quota count and definition read.
  const { deps } = h.api;
  const stored = await new DefinitionsService(
    deps.store,
    deps.keyring,
    catalogFromRegistry(deps.registry),
  ).get('owner_a', def.json.id);
  const runs = new RunsService(deps.temporal, deps.config, deps.registry);
  const interpreter = async () => {
    last.interpreter = await runs.startRun(stored);
    await h.env.client.workflow.getHandle(last.interpreter).result();
  };
  const baseline = async () => {
    last.bare = `task_bare_${randomUUID()}`;
    await h.env.client.workflow.execute('bareTwoStep', {
      taskQueue: bare.taskQueue,
      workflowId: last.bare,
      args: [
        {
          searchInput: { requests: [{ query: 'cedar.com' }] },
          policy: activityPolicy('upstream-search'),
          ownerId: 'owner_a',
        },
      ],
    });
  };
  const measure = async (fn: () => Promise<void>): Promise<Figures> => ({
    ...(await measureBench(fn, SEQUENTIAL, 1)),
    throughput: await sustained(fn, SUSTAINED, CONCURRENT),
  });
  // Interleave the sides so machine noise hits them alike; keep the best of each.
  const sides = [ours, interpreter, baseline];
  const rounds: Figures[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round: Figures[] = [];
    for (const side of sides) round.push(await measure(side));
    rounds.push(round);
  }
  const [a, c, b] = sides.map((_, i) => rounds.map((round) => round[i]!).reduce(best));
  process.stdout.write(
    `two-step definition (domain search on the shop simulator + chat message), ${SEQUENTIAL} sequential runs for latency, ${SUSTAINED} runs ${CONCURRENT} at a time for throughput; best of ${ROUNDS} interleaved rounds\n`,
  );
  const row = (name: string, f: Figures) => [
    name,
    f.median.toFixed(1),
    f.p95.toFixed(1),
    f.throughput.toFixed(1),
  ];
  const ratio = (name: string, x: Figures) => [
    name,
    (x.median / b!.median).toFixed(2),
    (x.p95 / b!.p95).toFixed(2),
    (x.throughput / b!.throughput).toFixed(2),
  ];
  printTable([
    ['', 'median ms', 'p95 ms', 'runs/s'],
    row('skillflow (API start → result)', a!),
    row('skillflow interpreter (no HTTP)', c!),
    row('bare Temporal workflow', b!),
    ratio('ratio API/bare', a!),
    ratio('ratio interpreter/bare', c!),
  ]);
  const events = async (id: string) => {
    const all = (await h.env.client.workflow.getHandle(id).fetchHistory()).events!;
    const memo = all.filter((e) => e.workflowPropertiesModifiedEventAttributes);
    return `${all.length} events (${memo.length} memo writes)`;
  };
  process.stdout.write(
    `history of one run: API ${await events(last.ours)}, interpreter ${await events(last.interpreter)}, bare ${await events(last.bare)}\n`,
  );
  // Per-round throughput ratios: the spread the best-of hides.
  process.stdout.write(
    `throughput ratio per round, API/bare: ${rounds.map((r) => (r[0]!.throughput / r[2]!.throughput).toFixed(2)).join(' ')}; interpreter/bare: ${rounds.map((r) => (r[1]!.throughput / r[2]!.throughput).toFixed(2)).join(' ')}\n`,
  );
} finally {
  await bare.close();
  await h.close();
  await shop.close();
}
