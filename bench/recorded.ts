/**
 * The figures recorded in docs/benchmarks.md, per benchmark: `npm run bench` prints them after
 * each benchmark's own output, so a new run is read beside the last recorded one (a slower
 * figure is seen, not only a missed goal). Keep them equal to the document when it is updated.
 */
/** The benchmarks `npm run bench` runs, in order. */
export const BENCHES = [
  'search-domains.bench.ts',
  'workflows.bench.ts',
  'loops.bench.ts',
  'memory.bench.ts',
  'api.bench.ts',
  'run-start.bench.ts',
  'icons.bench.ts',
  'web.bench.ts',
  'events.bench.ts',
  'reruns.bench.ts',
  'tracing.bench.ts',
  'cluster.bench.ts',
  'cli.bench.ts',
  'startup.bench.ts',
] as const;

export interface Recorded {
  /** The day the figures were recorded. */
  date: string;
  /** Each figure as the document states it. */
  figures: readonly string[];
}

export const RECORDED: Readonly<Record<(typeof BENCHES)[number], Recorded>> = {
  'search-domains.bench.ts': {
    date: '2026-11-22',
    figures: ['wall ÷ ideal 1.05 (median)', 'busy share 0.92', 'highest in flight 2 (limit 2)'],
  },
  'workflows.bench.ts': {
    date: '2026-11-23',
    figures: [
      'latency p50 API/bare 0.99-1.00, interpreter/bare 1.00',
      'throughput interpreter/bare 0.94-0.96, API/bare 0.63-0.73',
    ],
  },
  'loops.bench.ts': {
    date: '2026-11-26',
    figures: [
      '1,000 elements: skillflow ÷ hand-written 1.05-1.07, wall ÷ ideal 2.60',
      '10,000 elements: 874-883 history events',
    ],
  },
  'memory.bench.ts': { date: '2026-11-23', figures: ['0.30-0.34 MB RSS per cached workflow'] },
  'api.bench.ts': {
    date: '2026-11-28',
    figures: [
      'PGlite: p50 api/bare 1.10-1.17, throughput api/bare 0.81-0.90',
      'PostgreSQL: p50 api/bare 1.11-1.17, throughput api/bare 0.86-0.94',
    ],
  },
  'run-start.bench.ts': {
    date: '2026-11-28',
    figures: [
      'throughput api/direct: worker in its own process 0.76-0.81, in the bench process 0.75-0.83',
      'API CPU per start 1.33-1.67 ms (bench client included)',
    ],
  },
  'icons.bench.ts': {
    date: '2026-11-28',
    figures: ['warm route / bare throughput 0.86-0.87', 'offline search p50 0.89-1.03 ms', 'index 94-110 ms'],
  },
  'web.bench.ts': {
    date: '2026-11-23',
    figures: ['first contentful paint ratio 1.47', 'app list on screen ratio 1.41'],
  },
  'events.bench.ts': {
    date: '2026-11-26',
    figures: ['p50 event → step ratio 1.01', 'events/s ratio 0.52'],
  },
  'reruns.bench.ts': {
    date: '2026-11-26',
    figures: ['re-run ÷ fresh p50 0.31', '0 repeated upstream calls'],
  },
  'tracing.bench.ts': {
    date: '2026-11-26',
    figures: ['quick call p50 on ÷ off 0.99-1.26', 'runs/s on ÷ off 0.75-0.87'],
  },
  'cluster.bench.ts': {
    date: '2026-11-27',
    figures: ['runs/s with 1, 2, 4 workers: 8.1, 9.5, 9.4 (ratios 1.00, 1.17, 1.15)'],
  },
  'cli.bench.ts': {
    date: '2026-11-27',
    figures: ['--help 112 ms median (+29 ms over node)', 'workflows validate 538 ms median'],
  },
  'startup.bench.ts': { date: '2026-11-27', figures: ['second npm start healthy in 6.8 s (median)'] },
};

/** The line printed after a benchmark: its recorded figures. */
export function recordedLines(file: (typeof BENCHES)[number]): string {
  const r = RECORDED[file];
  return `recorded ${r.date} (docs/benchmarks.md): ${r.figures.join('; ')}\n`;
}
