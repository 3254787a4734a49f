import { describe, expect, it } from 'vitest';
import { Recorder } from './recorder.js';
import { goals, unexpectedStatuses } from './report.js';
import type { SoakResult } from './run-soak.js';
import { schedule, type Operation } from './traffic.js';

const MB = 1024 * 1024;

/** A drive of two measured minutes: p99 `p99s`, service RSS `rss` (MB), these statuses. */
function result(p99s: [number, number], rss: [number, number], extra: [string, number][] = []): SoakResult {
  const rec = new Recorder(0);
  for (const [minute, p99] of p99s.entries()) {
    const at = (minute + 1) * 60_000;
    // 100 requests, the slowest two at `p99`: the nearest-rank p99 is the 99th.
    for (let i = 0; i < 98; i++) rec.request('quick', 200, at, 10);
    for (let i = 0; i < 2; i++) rec.request('page', 200, at, p99);
    for (let s = 0; s < 60; s++)
      rec.sample('service', at + s * 1000, { rssBytes: rss[minute]! * MB, fds: 100 });
  }
  for (const [key, n] of extra) for (let i = 0; i < n; i++) rec.request('quick', Number(key), 60_000, 5);
  const [warmup, ...minutes] = rec.minutes(3);
  return {
    machine: { cpu: 'test', cores: 2, memoryGb: 1, node: 'v20', loadBefore: [0, 0, 0] },
    ramp: [],
    capacity: 10,
    rate: 5,
    drive: { arrivals: 100, shed: 0, peakInFlight: 3 },
    warmup: warmup!,
    minutes,
    statuses: rec.statusTotals(),
  };
}

const verdicts = (r: SoakResult) => goals(r).map((g) => [g.name, g.met]);

describe('the soak goals', () => {
  it('counts every status but each kind’s success, and every run outcome but completed', () => {
    expect(
      unexpectedStatuses({
        'page 200': 5,
        'poll 200': 4,
        'quick 200': 9,
        'quick 503': 1,
        'run 202': 2,
        'run 429': 1,
        'poll error': 1,
        'run outcome completed': 2,
        'run outcome timed out': 1,
      }),
    ).toEqual({ 'quick 503': 1, 'run 429': 1, 'poll error': 1, 'run outcome timed out': 1 });
  });

  it('meets every goal on a flat drive, and misses each one past its bound', () => {
    expect(verdicts(result([200, 300], [700, 769]))).toEqual([
      ['p99 last minute / first minute', true],
      ['service RSS growth', true],
      ['5xx answers', true],
      ['unexpected statuses and run outcomes', true],
      ['arrivals shed', true],
    ]);
    const bad = result([200, 301], [700, 771], [['502', 2]]);
    expect(goals(bad).map((g) => [g.name, g.value, g.met])).toEqual([
      ['p99 last minute / first minute', expect.closeTo(1.505, 6), false],
      ['service RSS growth', expect.closeTo(0.1014, 4), false],
      ['5xx answers', 2, false],
      ['unexpected statuses and run outcomes', 2, false],
      ['arrivals shed', 0, true],
    ]);
  });
});

describe('the traffic schedule', () => {
  it('interleaves operations by weight, evenly', () => {
    const op = (name: string, weight: number): Operation => ({ name, weight, run: async () => {} });
    const next = schedule([op('a', 3), op('b', 1), op('c', 2)]);
    expect(Array.from({ length: 12 }, () => next().name).join('')).toBe('acabcaacabca');
  });
});
