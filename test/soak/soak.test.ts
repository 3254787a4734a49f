/**
 * The soak in CI: two minutes of the mixed traffic (quick skill calls, workflow runs polled to
 * their end, task polls, workspace pages) at half of the capacity measured just before, against
 * the real stack on loopback, with the same goals as `npm run soak`. Runs alone, after the parallel
 * suite, one file at a time with the compiler budget test (`npm run test:quiet`; this file only:
 * `npm run test:soak`): beside other test files, latency ratios would measure them.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../bench/soak/recorder.js';
import {
  goals,
  MAX_P99_RATIO,
  MAX_RSS_GROWTH,
  printReport,
  unexpectedStatuses,
} from '../../bench/soak/report.js';
import { runSoak, type SoakResult } from '../../bench/soak/run-soak.js';

const MINUTES = 2;

describe('soak: two minutes of mixed traffic at half of the measured capacity', () => {
  let result: SoakResult;

  it('drives every kind of traffic in every minute, and answers every request as expected', async () => {
    result = await runSoak({
      minutes: MINUTES,
      rampStepMs: 5_000,
      maxLanes: 64,
      maxInFlight: 1000,
      log: (line) => process.stdout.write(`soak: ${line}\n`),
    });
    printReport(result);
    expect(result.capacity).toBeGreaterThan(0);
    expect(result.rate).toBeCloseTo(result.capacity / 2, 6);
    expect(result.warmup.minute).toBe(0);
    expect(result.minutes.map((m) => m.minute)).toEqual([1, 2]);
    for (const m of result.minutes) {
      for (const kind of KINDS)
        expect(m.byKind[kind].count, `${kind} in minute ${m.minute}`).toBeGreaterThan(0);
      expect(m.runs.completed, `runs completed in minute ${m.minute}`).toBeGreaterThan(0);
      expect(m.processes.service?.rssMedian).toBeGreaterThan(0);
      expect(m.processes.service?.fdsMedian).toBeGreaterThan(0);
      expect(m.processes.temporal?.rssMedian).toBeGreaterThan(0);
    }
    // Limits are lifted: the only statuses are each kind's success, and every run completes.
    expect(unexpectedStatuses(result.statuses)).toEqual({});
    expect(Object.keys(result.statuses)).toEqual([
      'page 200',
      'poll 200',
      'quick 200',
      'run 202',
      'run outcome completed',
    ]);
    expect(result.drive.shed).toBe(0);
  }, 900_000);

  it('keeps the last minute’s p99 within 1.5× the first’s and RSS growth within 10 %', () => {
    expect(result, 'the drive did not complete').toBeDefined();
    const [first, last] = [result.minutes[0]!, result.minutes.at(-1)!];
    expect(last.overall.p99).toBeLessThanOrEqual(MAX_P99_RATIO * first.overall.p99);
    const rssGrowth = last.processes.service!.rssMedian / first.processes.service!.rssMedian - 1;
    expect(rssGrowth).toBeLessThanOrEqual(MAX_RSS_GROWTH);
    expect(goals(result).filter((g) => !g.met)).toEqual([]);
  });
});
