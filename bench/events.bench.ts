/**
 * `npm run bench:events`: 1,000 runs wait for events (`wait_for_event` with a match), then 1,000
 * matching events are sent through `POST /v1/events`; against a baseline of the same number of
 * runs of the same definition resumed by signalling them directly with the Temporal client (what
 * the route does after its index lookup), side by side on one dev server and one worker. Prints
 * p50 and p95 from sending an event to its step finishing (the workflow's own clock, read from
 * the step's `finished_at`) for events sent one at a time, and events per second for the rest
 * sent concurrently, with skillflow ÷ baseline. Loopback only.
 */
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startEngine } from '../test/helpers/engine.js';
import { inPool, orderWaiter, startOrderRuns } from '../test/helpers/event-waiters.js';
import { eventSignal } from '../workflows/event-waits.js';
import { percentile, printTable } from './stats.js';

const RUNS = Number(process.env.BENCH_EVENTS_RUNS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_EVENTS_CONCURRENCY ?? 20);

installTemporalRuntime(createLogger('error'));
const h = await startEngine({
  config: { OWNER_MAX_RUNNING_RUNS: 10_000, RATE_LIMIT_STANDARD_PER_MINUTE: 10_000_000 },
});

/** Runs `fn(i)` for i in [0, n) with `CONCURRENCY` at a time. */
const pool = (n: number, fn: (i: number) => Promise<void>) => inPool(n, CONCURRENCY, fn);

/** Starts `RUNS` runs of the definition, each waiting for its own order id; resolves once all wait. */
async function waitingRuns(defId: string, prefix: string): Promise<string[]> {
  const ids = await startOrderRuns(h, defId, { n: RUNS, prefix, concurrency: CONCURRENCY });
  await pool(RUNS, async (i) => {
    await h.waitForTask(ids[i]!, (t) => t.steps?.[0]?.event !== undefined, 600_000);
  });
  return ids;
}

/** Latency: events sent one at a time to the first `LATENCY_EVENTS` runs, each awaited. */
const LATENCY_EVENTS = Number(process.env.BENCH_EVENTS_LATENCY ?? 200);

/**
 * Resumes every run with `send`: the first `LATENCY_EVENTS` one at a time, each awaited to the
 * run's end (latency without a backlog), the rest `CONCURRENCY` at a time (events per second).
 * Latency is the step's `finished_at` (the workflow's clock) minus the moment of sending.
 */
async function resume(
  ids: string[],
  send: (i: number) => Promise<void>,
): Promise<{ latencies: number[]; perSecond: number }> {
  const sentAt: number[] = new Array(ids.length);
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    sentAt[i] = Date.now();
    await send(i);
    await h.env.client.workflow.getHandle(ids[i]!).result();
    const t = (await h.request('GET', `/v1/tasks/${ids[i]}`)).json;
    latencies.push(Date.parse(t.steps[0].finished_at) - sentAt[i]!);
  }
  const rest = ids.length - LATENCY_EVENTS;
  const t0 = Date.now();
  await pool(rest, (j) => send(LATENCY_EVENTS + j));
  const perSecond = rest / ((Date.now() - t0) / 1000);
  await pool(rest, async (j) => {
    await h.env.client.workflow.getHandle(ids[LATENCY_EVENTS + j]!).result();
  });
  return { latencies, perSecond };
}

try {
  const def = await h.request(
    'POST',
    '/v1/workflows',
    orderWaiter('Events bench', 'bench.paid'),
    'application/yaml',
  );
  if (def.status !== 201) throw new Error(def.body);
  const oursIds = await waitingRuns(def.json.id, 'api');
  const baseIds = await waitingRuns(def.json.id, 'direct');
  const ours = await resume(oursIds, async (i) => {
    const res = await h.request('POST', '/v1/events', { name: 'bench.paid', data: { order_id: `api-${i}` } });
    if (res.status !== 200 || res.json.resumed !== 1) throw new Error(res.body);
  });
  const base = await resume(baseIds, async (i) => {
    await h.env.client.workflow
      .getHandle(baseIds[i]!)
      .signal(eventSignal, { step: 'paid', name: 'bench.paid', data: { order_id: `direct-${i}` } });
  });
  const row = (name: string, r: typeof ours) => [
    name,
    `${percentile(r.latencies, 50).toFixed(0)} ms`,
    `${percentile(r.latencies, 95).toFixed(0)} ms`,
    `${r.perSecond.toFixed(0)}/s`,
  ];
  process.stdout.write(
    `${RUNS} waiting runs per side: ${LATENCY_EVENTS} events one at a time (latency), the rest ${CONCURRENCY} at a time (events/s)\n`,
  );
  printTable([
    ['side', 'p50 event→step', 'p95', 'events/s'],
    row('POST /v1/events', ours),
    row('direct signal', base),
  ]);
  const ratio = percentile(ours.latencies, 50) / percentile(base.latencies, 50);
  process.stdout.write(
    `p50 ratio ${ratio.toFixed(2)} (goal ≤ 1.3), throughput ratio ${(ours.perSecond / base.perSecond).toFixed(2)}\n`,
  );
} finally {
  await h.close();
}
