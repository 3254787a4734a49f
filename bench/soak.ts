/**
 * `npm run soak`: SOAK_MINUTES (default 10) of mixed traffic at half of the measured capacity
 * against the real stack on loopback, with per-minute latency, throughput, memory and open
 * descriptors; exits 1 when a goal is missed (bench/soak/report.ts, docs/benchmarks.md "Soak").
 */
import { goals, printReport } from './soak/report.js';
import { runSoak } from './soak/run-soak.js';

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
if (!Number.isInteger(minutes) || minutes < 2 || minutes > 240)
  throw new Error('SOAK_MINUTES must be a whole number of minutes from 2 to 240');

const result = await runSoak({
  minutes,
  rampStepMs: 10_000,
  maxLanes: 64,
  maxInFlight: 1000,
  log: (line) => process.stdout.write(`${line}\n`),
});
printReport(result);
process.exit(goals(result).every((g) => g.met) ? 0 : 1);
