/**
 * The soak's tally: every request's latency and status by traffic kind, bucketed by the minute
 * of the drive in which it started, plus the outcome of every workflow run and the process
 * readings. Bounded by the drive itself (a fixed number of arrivals, each with a bounded number
 * of requests).
 */
import { percentile } from '../stats.js';
import type { ProcessSample } from './process-stats.js';

/** What a request was part of. */
export const KINDS = ['quick', 'run', 'poll', 'page'] as const;
export type Kind = (typeof KINDS)[number];

/** A response status, or `error` when no response came (connection refused, reset, timeout). */
export type Status = number | 'error';

/** Latency figures of one kind (or all) in one minute. */
export interface Latency {
  count: number;
  p50: number;
  p99: number;
}

/** What one minute of the drive looked like. */
export interface MinuteFigures {
  /** 0 for the drive's first minute. */
  minute: number;
  byKind: Record<Kind, Latency>;
  overall: Latency;
  /** Requests per second over the minute. */
  throughput: number;
  /** `kind status` → count, e.g. `quick 200`. */
  statuses: Record<string, number>;
  /** Workflow runs that reached a final state in this minute: started → final state seen, ms. */
  runs: { completed: number; other: number; p50: number; p99: number };
  /** The machine's 1-minute load average, highest reading in the minute. */
  load: number;
  /** Median and highest RSS and descriptors of each sampled process, by its label. */
  processes: Record<string, { rssMedian: number; rssMax: number; fdsMedian: number; fdsMax: number }>;
}

interface Bucket {
  latencies: Record<Kind, number[]>;
  statuses: Map<string, number>;
  runs: number[];
  runsOther: number;
  samples: Map<string, ProcessSample[]>;
  load: number[];
}

const emptyBucket = (): Bucket => ({
  latencies: { quick: [], run: [], poll: [], page: [] },
  statuses: new Map(),
  runs: [],
  runsOther: 0,
  samples: new Map(),
  load: [],
});

const latency = (xs: number[]): Latency => ({
  count: xs.length,
  p50: percentile(xs, 50),
  p99: percentile(xs, 99),
});

export class Recorder {
  private readonly buckets: Bucket[] = [];
  private readonly totals = new Map<string, number>();

  /** `startMs` is the drive's start (performance.now()); minutes are counted from it. */
  constructor(
    private readonly startMs: number,
    private readonly minuteMs = 60_000,
  ) {}

  private bucket(atMs: number): Bucket {
    const i = Math.max(0, Math.floor((atMs - this.startMs) / this.minuteMs));
    while (this.buckets.length <= i) this.buckets.push(emptyBucket());
    return this.buckets[i]!;
  }

  /** One request of `kind`, started at `startedMs`, answered `status` after `ms`. */
  request(kind: Kind, status: Status, startedMs: number, ms: number): void {
    const b = this.bucket(startedMs);
    b.latencies[kind].push(ms);
    const key = `${kind} ${status}`;
    b.statuses.set(key, (b.statuses.get(key) ?? 0) + 1);
    this.totals.set(key, (this.totals.get(key) ?? 0) + 1);
  }

  /** A workflow run seen in its final state `status` at `endedMs`, `ms` after its start. */
  run(status: string, endedMs: number, ms: number): void {
    const b = this.bucket(endedMs);
    if (status === 'completed') b.runs.push(ms);
    else b.runsOther++;
    const key = `run outcome ${status}`;
    this.totals.set(key, (this.totals.get(key) ?? 0) + 1);
  }

  /** A reading of the process labelled `label` (e.g. `service`) at `atMs`. */
  sample(label: string, atMs: number, s: ProcessSample): void {
    const samples = this.bucket(atMs).samples;
    const list = samples.get(label) ?? [];
    list.push(s);
    samples.set(label, list);
  }

  /** The machine's 1-minute load average at `atMs`. */
  loadAverage(atMs: number, load: number): void {
    this.bucket(atMs).load.push(load);
  }

  /** Every `kind status` and `run outcome` count over the whole drive. */
  statusTotals(): Record<string, number> {
    return Object.fromEntries([...this.totals].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The figures of the first `minutes` minutes, numbered from 0. */
  minutes(minutes: number): MinuteFigures[] {
    return Array.from({ length: minutes }, (_, minute) => {
      const b = this.buckets[minute] ?? emptyBucket();
      const all = KINDS.flatMap((k) => b.latencies[k]);
      const processes: MinuteFigures['processes'] = {};
      for (const [label, xs] of b.samples) {
        const rss = xs.map((x) => x.rssBytes);
        const fds = xs.map((x) => x.fds);
        processes[label] = {
          rssMedian: percentile(rss, 50),
          rssMax: Math.max(...rss),
          fdsMedian: percentile(fds, 50),
          fdsMax: Math.max(...fds),
        };
      }
      return {
        minute,
        byKind: Object.fromEntries(KINDS.map((k) => [k, latency(b.latencies[k])])) as Record<Kind, Latency>,
        overall: latency(all),
        throughput: all.length / (this.minuteMs / 1000),
        statuses: Object.fromEntries([...b.statuses].sort(([x], [y]) => x.localeCompare(y))),
        runs: {
          completed: b.runs.length,
          other: b.runsOther,
          p50: percentile(b.runs, 50),
          p99: percentile(b.runs, 99),
        },
        load: b.load.length > 0 ? Math.max(...b.load) : Number.NaN,
        processes,
      };
    });
  }
}
