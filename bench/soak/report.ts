/**
 * The soak's goals and its printed report. Goals, over the open-loop drive:
 * - latency: the last minute's p99 (every request) at most 1.5× the first minute's;
 * - memory: the service's RSS in the last minute at most 10 % above its RSS in the first
 *   minute after the warm-up, each the median of that minute's one-a-second readings (see
 *   docs/benchmarks.md);
 * - statuses: every request answered with its kind's expected status (no 5xx, no 4xx, no
 *   connection error), every run completed, no arrival shed.
 */
import { printTable } from '../stats.js';
import { KINDS, type MinuteFigures } from './recorder.js';
import { EXPECTED_STATUS, WARMUP_MINUTES, type SoakResult } from './run-soak.js';

export const MAX_P99_RATIO = 1.5;
export const MAX_RSS_GROWTH = 0.1;

/** One goal, its measured value and whether it was met. */
export interface Goal {
  name: string;
  value: number;
  limit: number;
  met: boolean;
}

/** `kind status` and `run outcome` counts that are not what the soak expects. */
export function unexpectedStatuses(statuses: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(statuses).filter(([key]) => {
      if (key.startsWith('run outcome ')) return key !== 'run outcome completed';
      const [kind, status] = key.split(' ') as [keyof typeof EXPECTED_STATUS, string];
      return String(EXPECTED_STATUS[kind]) !== status;
    }),
  );
}

/** The goals, measured on the first and last minute of the drive. */
export function goals(r: SoakResult): Goal[] {
  const first = r.minutes[0]!;
  const last = r.minutes.at(-1)!;
  const p99Ratio = last.overall.p99 / first.overall.p99;
  const rssFirst = first.processes.service?.rssMedian ?? Number.NaN;
  const rssLast = last.processes.service?.rssMedian ?? Number.NaN;
  const rssGrowth = rssLast / rssFirst - 1;
  const unexpected = Object.values(unexpectedStatuses(r.statuses)).reduce((s, n) => s + n, 0);
  const fiveHundreds = Object.entries(r.statuses)
    .filter(([key]) => /^\w+ 5\d\d$/.test(key))
    .reduce((s, [, n]) => s + n, 0);
  return [
    {
      name: 'p99 last minute / first minute',
      value: p99Ratio,
      limit: MAX_P99_RATIO,
      met: p99Ratio <= MAX_P99_RATIO,
    },
    { name: 'service RSS growth', value: rssGrowth, limit: MAX_RSS_GROWTH, met: rssGrowth <= MAX_RSS_GROWTH },
    { name: '5xx answers', value: fiveHundreds, limit: 0, met: fiveHundreds === 0 },
    { name: 'unexpected statuses and run outcomes', value: unexpected, limit: 0, met: unexpected === 0 },
    { name: 'arrivals shed', value: r.drive.shed, limit: 0, met: r.drive.shed === 0 },
  ];
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const mb = (n: number | undefined) => (n === undefined ? '-' : (n / 1024 / 1024).toFixed(1));

function minuteRow(m: MinuteFigures): string[] {
  const s = m.processes.service;
  const t = m.processes.temporal;
  return [
    m.minute === 0 ? '0 (warm-up)' : String(m.minute),
    m.throughput.toFixed(1),
    ...KINDS.map((k) => `${ms(m.byKind[k].p50)}/${ms(m.byKind[k].p99)}`),
    `${ms(m.overall.p50)}/${ms(m.overall.p99)}`,
    `${m.runs.completed}`,
    `${ms(m.runs.p50)}/${ms(m.runs.p99)}`,
    `${mb(s?.rssMedian)} (${mb(s?.rssMax)})`,
    `${s?.fdsMedian ?? '-'} (${s?.fdsMax ?? '-'})`,
    `${mb(t?.rssMedian)}`,
    `${t?.fdsMedian ?? '-'}`,
    m.load.toFixed(2),
  ];
}

/** Prints the whole report to stdout. */
export function printReport(r: SoakResult): void {
  const { machine } = r;
  process.stdout.write(
    `\nmachine: ${machine.cores} × ${machine.cpu}, ${machine.memoryGb.toFixed(0)} GB, Node ${machine.node}; ` +
      `load average before ${machine.loadBefore.map((l) => l.toFixed(2)).join(' ')}\n` +
      `capacity ${r.capacity.toFixed(1)} operations/s (ramp: ${r.ramp
        .map(
          (s) =>
            `${s.lanes} lanes ${s.opsPerSecond.toFixed(1)} ops/s ${s.requestsPerSecond.toFixed(1)} req/s`,
        )
        .join('; ')})\n` +
      `drive: ${r.rate.toFixed(1)} operations/s for ${WARMUP_MINUTES} min of warm-up and ${r.minutes.length} min, ${r.drive.arrivals} arrivals, ` +
      `${r.drive.shed} shed, at most ${r.drive.peakInFlight} open\n\n`,
  );
  printTable([
    [
      'min',
      'req/s',
      ...KINDS.map((k) => `${k} p50/p99 ms`),
      'all p50/p99 ms',
      'runs',
      'run end-to-end p50/p99 ms',
      'service RSS MB median (max)',
      'service fds median (max)',
      'temporal RSS MB',
      'temporal fds',
      'load',
    ],
    ...[r.warmup, ...r.minutes].map(minuteRow),
  ]);
  process.stdout.write(`\nstatuses: ${JSON.stringify(r.statuses)}\n`);
  for (const g of goals(r))
    process.stdout.write(
      `goal ${g.name}: ${Number.isInteger(g.value) ? g.value : g.value.toFixed(3)} (limit ${g.limit}) ${g.met ? 'met' : 'MISSED'}\n`,
    );
}
