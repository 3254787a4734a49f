/** Small helpers shared by the benchmarks. */

/** The p-th percentile (nearest rank) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

/** Prints rows as an aligned table. */
export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const row of rows)
    process.stdout.write(
      row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ') + '\n',
    );
}

/** Latency and throughput of one side of a benchmark. */
export interface Figures {
  median: number;
  p95: number;
  throughput: number;
}

/**
 * One warm-up call, `sequential` timed calls (latency), then `total` calls with `concurrent` in
 * flight (sustained throughput, per second; one burst of `concurrent` when `total` is not given).
 */
export async function measure(
  fn: () => Promise<void>,
  sequential: number,
  concurrent: number,
  total = concurrent,
): Promise<Figures> {
  await fn();
  const latencies: number[] = [];
  for (let i = 0; i < sequential; i++) {
    const t0 = performance.now();
    await fn();
    latencies.push(performance.now() - t0);
  }
  const throughput = await sustained(fn, total, concurrent);
  return { median: percentile(latencies, 50), p95: percentile(latencies, 95), throughput };
}

/** The better of two rounds of the same side (lower latency, higher throughput). */
export function best(x: Figures, y: Figures): Figures {
  return {
    median: Math.min(x.median, y.median),
    p95: Math.min(x.p95, y.p95),
    throughput: Math.max(x.throughput, y.throughput),
  };
}

/**
 * Sustained throughput (per second): `total` calls, `inFlight` at a time, each lane starting
 * its next call when one ends. Steadier than one burst on a shared machine.
 */
export async function sustained(fn: () => Promise<void>, total: number, inFlight: number): Promise<number> {
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      await fn();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
  return total / ((performance.now() - t0) / 1000);
}
