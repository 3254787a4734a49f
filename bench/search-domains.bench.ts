/**
 * Benchmark of `hosting.search_domains` (npm run bench:search): a 5-group call against the shop
 * simulator on loopback with an injected upstream latency L per request. It prints, per run and
 * as medians, the wall time against the ideal ceil(operations / 2) × L of a perfect 2-slot
 * schedule, the busy share of the 2 slots, and the highest number of operations ever in flight.
 *
 * Env: BENCH_LATENCY_MS (default 200), BENCH_RUNS (default 3). Bounded: about runs × 7 × L.
 */
import { loadConfig } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { staticSecrets } from '../lib/secrets.js';
import { startShopSimulator } from '../simulators/shop/server.js';
import {
  createSearchDomainsSkill,
  hostingConfig,
  MAX_IN_FLIGHT_OPERATIONS,
  type SearchDiagnostics,
} from '../activities/apps/hosting/index.js';
import { POLICY_PROFILES, resolvePolicy } from '../activities/policy.js';
import { runSkill } from '../activities/runtime/run-skill.js';
import { createUpstreamMeter } from '../activities/runtime/upstream-meter.js';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Five groups covering every mode: 1 + 4 + 2 + 3 + 1 = 11 upstream operations. */
const INPUT = {
  requests: [
    { id: 'fqdn', query: 'cedar.online' },
    { id: 'keyword-tlds', query: 'cedarwood', tlds: ['com', 'net'] },
    { id: 'keyword', query: 'lanternfish' },
    { id: 'keyword-one-tld', query: 'quillpen', tlds: ['io'] },
    { id: 'idn', query: 'bücher.ai' },
  ],
};

interface Row {
  ops: number;
  wallMs: number;
  idealMs: number;
  ratio: number;
  busyShare: number;
  maxInFlight: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const pad = (v: string | number, n: number): string => String(v).padStart(n);

async function main(): Promise<void> {
  const sim = await startShopSimulator({ faults: [{ type: 'latency', ms: LATENCY_MS }] });
  const rows: Row[] = [];
  try {
    let last: SearchDiagnostics | undefined;
    const skill = createSearchDomainsSkill(
      {
        config: hostingConfig(loadConfig({ SHOP_URL: sim.url })),
        logger: createLogger('silent'),
        secrets: staticSecrets({}),
      },
      POLICY_PROFILES['upstream-search'].deadlines,
      { onDiagnostics: (d) => (last = d) },
    );
    const runnable = { policy: resolvePolicy('upstream-search'), impl: skill };
    const ctx = {
      view: 'full',
      anonymous: false,
      meter: createUpstreamMeter({ skill: 'hosting.search_domains' }),
    } as const;
    for (let run = 0; run < RUNS; run++) {
      sim.reset();
      sim.setFaults([{ type: 'latency', ms: LATENCY_MS }]);
      await runSkill(runnable, INPUT, ctx);
      const d = last!;
      const ops = d.limiter.operations;
      const idealMs = Math.ceil(ops / MAX_IN_FLIGHT_OPERATIONS) * LATENCY_MS;
      rows.push({
        ops,
        wallMs: d.wallMs,
        idealMs,
        ratio: d.wallMs / idealMs,
        busyShare: d.limiter.busyMs / (d.limiter.capacity * d.wallMs),
        maxInFlight: d.limiter.maxInFlight,
      });
    }
  } finally {
    await sim.close();
  }
  const out: string[] = [];
  out.push(
    `hosting.search_domains: 5 groups, loopback shop simulator, latency L = ${LATENCY_MS} ms per request, ${RUNS} run(s)`,
  );
  out.push(
    `${pad('run', 3)} ${pad('ops', 4)} ${pad('wall ms', 8)} ${pad('ideal ms', 9)} ${pad('wall/ideal', 11)} ${pad('busy share', 11)} ${pad('max in flight', 14)}`,
  );
  rows.forEach((r, i) =>
    out.push(
      `${pad(i + 1, 3)} ${pad(r.ops, 4)} ${pad(r.wallMs.toFixed(0), 8)} ${pad(r.idealMs, 9)} ${pad(r.ratio.toFixed(2), 11)} ${pad(r.busyShare.toFixed(2), 11)} ${pad(r.maxInFlight, 14)}`,
    ),
  );
  const highest = Math.max(...rows.map((r) => r.maxInFlight));
  out.push(`ideal = ceil(operations / ${MAX_IN_FLIGHT_OPERATIONS}) × L`);
  out.push(`wall/ideal = ${median(rows.map((r) => r.ratio)).toFixed(2)} (median)`);
  out.push(
    `busy share of the ${MAX_IN_FLIGHT_OPERATIONS} slots = ${median(rows.map((r) => r.busyShare)).toFixed(2)} (median)`,
  );
  out.push(
    `highest in flight = ${highest} (limit ${MAX_IN_FLIGHT_OPERATIONS}; ratio ${(highest / MAX_IN_FLIGHT_OPERATIONS).toFixed(2)})`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
  if (highest > MAX_IN_FLIGHT_OPERATIONS) process.exitCode = 1;
}

await main();
