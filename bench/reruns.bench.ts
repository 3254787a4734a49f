/**
 * `npm run bench:reruns`: a 9-step run that failed at step 7, re-run from step 7 through
 * `POST /v1/runs/{run_id}/rerun`, against a fresh run of the same definition with the same
 * inputs (the baseline), side by side on one dev server, one worker and the shop simulator (every
 * shop answer delayed by `BENCH_RERUN_UPSTREAM_MS`, as a real upstream is not instant). Prints the
 * p50 and p95 wall time from the API request to the run's end for each, the ratio, and the shop
 * requests the re-runs made for steps 1-6 (must be 0). Loopback only.
 */
import { APPS } from '../activities/apps/index.js';
import { createLogger } from '../lib/logger.js';
import { installTemporalRuntime } from '../lib/temporal/runtime.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import { startEngine } from '../test/helpers/engine.js';
import { percentile, printTable } from './stats.js';

const ROUNDS = Number(process.env.BENCH_RERUN_ROUNDS ?? 10);
const UPSTREAM_MS = Number(process.env.BENCH_RERUN_UPSTREAM_MS ?? 100);

installTemporalRuntime(createLogger('error'));
const shop = await startShopSimulator({ host: '127.0.0.1' });
const h = await startEngine({
  apps: APPS,
  config: { SHOP_URL: shop.url, OWNER_MAX_RUNNING_RUNS: 10_000, RATE_LIMIT_STANDARD_PER_MINUTE: 10_000_000 },
});

const search = (n: number) => `  - id: step_${n}
    use_app_skill: hosting.search_domains
    input: { requests: [{ query: 'bench${n}{{inputs.round}}', tlds: [com] }] }
`;
const SOURCE = `title: Re-run bench
start_when:
  manual:
    inputs:
      round: { type: string, required: true }
      stop: { type: boolean, default: true }
steps:
${[1, 2, 3, 4, 5, 6].map(search).join('')}  - id: step_7
    if: inputs.stop == true
    fail: { code: STOPPED, message: Stopped at step 7. }
${[8, 9].map(search).join('')}`;

const ENDED = ['completed', 'failed', 'cancelled'];

try {
  const def = await h.request('POST', '/v1/workflows', SOURCE, 'application/yaml');
  if (def.status !== 201) throw new Error(def.body);
  shop.setFaults([{ type: 'latency', ms: UPSTREAM_MS }]);
  /** Wall time of one run from its start request to its end, in ms. */
  const timed = async (start: () => Promise<string>): Promise<number> => {
    const t0 = performance.now();
    const taskId = await start();
    const done = await h.waitForTask(taskId, (t) => ENDED.includes(t.status), 120_000);
    if (done.status !== 'completed') throw new Error(`run ${done.status}: ${JSON.stringify(done.error)}`);
    return performance.now() - t0;
  };
  const fresh: number[] = [];
  const reruns: number[] = [];
  let repeated = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const failed = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
      inputs: { round: `r${round}` },
    });
    const ended = await h.waitForTask(failed.json.task_id, (t) => ENDED.includes(t.status), 120_000);
    if (ended.status !== 'failed') throw new Error('the first run did not fail at step 7');
    // Side by side: a fresh run and a re-run of the same inputs, alternating which goes first.
    const freshRun = () =>
      timed(async () => {
        const res = await h.request('POST', `/v1/workflows/${def.json.id}/runs`, {
          inputs: { round: `r${round}`, stop: false },
        });
        return res.json.task_id as string;
      });
    const rerun = async () => {
      // The log is bounded: start it afresh (and the latency rule with it).
      shop.reset();
      shop.setFaults([{ type: 'latency', ms: UPSTREAM_MS }]);
      const ms = await timed(async () => {
        const res = await h.request('POST', `/v1/runs/${failed.json.task_id}/rerun`, {
          inputs: { stop: false },
        });
        if (res.status !== 202) throw new Error(res.body);
        return res.json.task_id as string;
      });
      repeated += countEarly(round);
      return ms;
    };
    if (round % 2 === 0) {
      fresh.push(await freshRun());
      reruns.push(await rerun());
    } else {
      reruns.push(await rerun());
      fresh.push(await freshRun());
    }
  }
  const p = (xs: number[], q: number) => percentile(xs, q).toFixed(0);
  printTable([
    ['run', 'p50 wall ms', 'p95 wall ms'],
    ['fresh run (9 steps, 8 searches)', p(fresh, 50), p(fresh, 95)],
    ['re-run from step 7', p(reruns, 50), p(reruns, 95)],
    ['re-run ÷ fresh', (percentile(reruns, 50) / percentile(fresh, 50)).toFixed(2), ''],
  ]);
  process.stdout.write(
    `rounds: ${ROUNDS}; upstream latency ${UPSTREAM_MS} ms; shop requests the re-runs made for steps 1-6: ${repeated}\n`,
  );
} finally {
  await h.close();
  await shop.close();
}

/** Shop requests in the log that name steps 1-6 of `round`. */
function countEarly(round: number): number {
  const early = [1, 2, 3, 4, 5, 6].map((n) => `bench${n}r${round}`);
  return shop.requests().filter((r) => (r.params.search ?? []).some((s) => early.includes(s.toLowerCase())))
    .length;
}
