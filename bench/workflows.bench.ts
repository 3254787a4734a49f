/**
 * `npm run bench:workflows`: end-to-end latency (median, p95) and throughput of a two-step
 * definition (domain search against the shop simulator, then a chat message) started through
 * the API, against a bare Temporal workflow calling the same activities, side by side on the
 * same dev server and worker process. Prints both and the ratios. Loopback only, bounded.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Worker, bundleWorkflowCode, NativeConnection } from '@temporalio/worker';
import { ACTIVITIES_DIR } from '../activities/registry/registry.js';
import { activityPolicy } from '../activities/policy.js';
import { platformActivities } from '../activities/platform/index.js';
import { webhookPolicy } from '../lib/net/webhook.js';
import { createActivities } from '../activities/index.js';
import { dataConverterFor } from '../lib/temporal/client.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { TEST_KEYRING, TEST_RESOLVE } from '../test/helpers/fixtures.js';
import { best, measure as measureBench, printTable } from './stats.js';

const SEQUENTIAL = Number(process.env.BENCH_RUNS ?? 30);
const CONCURRENT = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DEFINITION = `title: Bench
start_when:
  manual: {}
steps:
  - id: search
    use_app_skill: hosting.search_domains
    input:
      requests:
        - query: cedar.com
  - id: notify
    send_chat_message:
      title: Domains
      message: "{{steps.search.result_count}} domains found"
`;

installTemporalRuntime(createLogger('error'));
const shop = await startShopSimulator({ host: '127.0.0.1' });
const h = await startEngine({ appsDir: path.join(ACTIVITIES_DIR, 'apps'), config: { SHOP_URL: shop.url } });
const bareQueue = `bare-${randomUUID()}`;
const connection = await NativeConnection.connect({ address: h.env.address });
const bare = await Worker.create({
  connection,
  taskQueue: bareQueue,
  workflowBundle: await bundleWorkflowCode({
    workflowsPath: path.resolve(import.meta.dirname, 'workflows/bare.ts'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  }),
  activities: {
    ...createActivities(h.api.deps.registry),
    ...platformActivities(h.api.deps.store, TEST_KEYRING, webhookPolicy(h.api.deps.config, TEST_RESOLVE)),
  },
  dataConverter: dataConverterFor(TEST_KEYRING),
});
const bareDone = bare.run();

try {
  const def = await h.request('POST', '/v1/workflows', DEFINITION, 'application/yaml');
  if (def.status !== 201) throw new Error(def.body);
  const ours = async () => {
    const run = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {});
    await h.env.client.workflow.getHandle(run.json.task_id).result();
  };
  const baseline = async () => {
    await h.env.client.workflow.execute('bareTwoStep', {
      taskQueue: bareQueue,
      workflowId: `task_bare_${randomUUID()}`,
      args: [
        {
          searchInput: { requests: [{ query: 'cedar.com' }] },
          policy: activityPolicy('upstream-search'),
          ownerId: 'owner_a',
        },
      ],
    });
  };
  const measure = (fn: () => Promise<void>) => measureBench(fn, SEQUENTIAL, CONCURRENT);
  // Interleave the two so machine noise hits both alike.
  const a1 = await measure(ours);
  const b1 = await measure(baseline);
  const a2 = await measure(ours);
  const b2 = await measure(baseline);
  const a = best(a1, a2);
  const b = best(b1, b2);
  process.stdout.write(
    `two-step definition (domain search on the shop simulator + chat message), ${SEQUENTIAL} sequential runs, ${CONCURRENT} concurrent; best of 2 interleaved rounds\n`,
  );
  printTable([
    ['', 'median ms', 'p95 ms', 'runs/s'],
    ['skillflow (API start → result)', a.median.toFixed(1), a.p95.toFixed(1), a.throughput.toFixed(1)],
    ['bare Temporal workflow', b.median.toFixed(1), b.p95.toFixed(1), b.throughput.toFixed(1)],
    [
      'ratio skillflow/bare',
      (a.median / b.median).toFixed(2),
      (a.p95 / b.p95).toFixed(2),
      (a.throughput / b.throughput).toFixed(2),
    ],
  ]);
} finally {
  bare.shutdown();
  await bareDone;
  await connection.close();
  await h.close();
  await shop.close();
}
