/**
 * How the soak loads the stack: a closed-loop ramp that measures capacity (lanes that each start
 * their next operation when the last one ends, doubled until throughput stops rising), then an
 * open loop at a fixed arrival rate, which keeps arriving whatever the latency, so a slower
 * service shows as latency and a backlog instead of as fewer requests.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Recorder } from './recorder.js';
import type { Operation, Target } from './traffic.js';

/** One step of the capacity ramp. */
export interface RampStep {
  lanes: number;
  /** Operations finished per second. */
  opsPerSecond: number;
  /** Requests answered per second (a workflow run makes several). */
  requestsPerSecond: number;
}

/** A step gains when it beats the best so far by this factor; two steps in a row without a gain end the ramp. */
const GAIN = 1.1;

/**
 * Closed-loop ramp: 1, 2, 4, … lanes (at most `maxLanes`), `stepMs` each, until two steps in a
 * row gain less than 10 % over the best (one such step can be the machine's noise). Capacity is
 * the best step's operations per second.
 */
export async function measureCapacity(
  target: Target,
  next: () => Operation,
  opts: { stepMs: number; maxLanes: number },
): Promise<{ steps: RampStep[]; capacity: number }> {
  const steps: RampStep[] = [];
  let best = 0;
  let flat = 0;
  for (let lanes = 1; lanes <= opts.maxLanes && flat < 2; lanes *= 2) {
    const rec = new Recorder(performance.now(), opts.stepMs * 2);
    const until = performance.now() + opts.stepMs;
    let done = 0;
    const lane = async () => {
      while (performance.now() < until) {
        await next().run(target, rec);
        done++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: lanes }, lane));
    const seconds = (performance.now() - t0) / 1000;
    const requests = Object.entries(rec.statusTotals())
      .filter(([k]) => !k.startsWith('run outcome'))
      .reduce((s, [, n]) => s + n, 0);
    steps.push({ lanes, opsPerSecond: done / seconds, requestsPerSecond: requests / seconds });
    flat = done / seconds >= best * GAIN ? 0 : flat + 1;
    best = Math.max(best, done / seconds);
  }
  return { steps, capacity: best };
}

/** The outcome of an open-loop drive. */
export interface OpenLoop {
  /** Operations started. */
  arrivals: number;
  /** Arrivals not started because `maxInFlight` operations were still open (the service fell behind). */
  shed: number;
  /** The most operations open at once. */
  peakInFlight: number;
}

/**
 * Starts one operation every 1/`rate` s for `durationMs` (on a fixed timetable, so a late tick
 * catches up rather than drifting), never more than `maxInFlight` open at once, then waits for
 * the open ones to end.
 */
export async function openLoop(
  target: Target,
  next: () => Operation,
  rec: Recorder,
  opts: { rate: number; durationMs: number; maxInFlight: number },
): Promise<OpenLoop> {
  const t0 = performance.now();
  const total = Math.floor((opts.rate * opts.durationMs) / 1000);
  const open = new Set<Promise<void>>();
  let shed = 0;
  let peakInFlight = 0;
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    if (open.size >= opts.maxInFlight) {
      shed++;
      continue;
    }
    const op = next()
      .run(target, rec)
      .finally(() => open.delete(op));
    open.add(op);
    peakInFlight = Math.max(peakInFlight, open.size);
  }
  await Promise.all(open);
  return { arrivals: total - shed, shed, peakInFlight };
}
