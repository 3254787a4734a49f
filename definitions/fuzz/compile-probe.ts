/**
 * Measures compiles in a process of its own, for the compiler budget test: nothing else runs in
 * it (no test runner, no other test's heap), and with V8's --single-threaded its CPU time is the
 * compile's own work, collections and optimising compiles included. Reads a JSON file of cases (`{ source, format }[]`, the path is the
 * first argument) and writes one JSON line of measures to stdout. Each case is compiled once to
 * warm up, then `RUNS` times for the least CPU and wall time, then once between two collections
 * for the heap. Run it with `node --expose-gc --single-threaded --import tsx`.
 */
import { readFileSync } from 'node:fs';
import { compileForTest } from '../testing/compile.js';

/** Measured compiles per case, after one warm-up compile. */
const RUNS = 9;

/** What one case cost: the least over the runs. */
export interface ProbeMeasure {
  cpuMs: number;
  wallMs: number;
  /** Heap kept after the compile and a collection (the answer). */
  heapBytes: number;
  /** Heap grown by the end of the compile, garbage included. */
  grownBytes: number;
}

/** One case to measure. */
export interface ProbeCase {
  source: string;
  format: 'yaml' | 'json';
}

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');

/** CPU and wall time of one compile. */
function timeOnce({ source, format }: ProbeCase): { cpuMs: number; wallMs: number } {
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  compileForTest(source, format);
  const wallMs = performance.now() - wallBefore;
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}

/** The heap one compile grows (garbage included) and keeps (after a collection). */
function heapOnce({ source, format }: ProbeCase): { heapBytes: number; grownBytes: number } {
  collect!();
  const heapBefore = process.memoryUsage().heapUsed;
  const result = compileForTest(source, format);
  const grownBytes = Math.max(0, process.memoryUsage().heapUsed - heapBefore);
  collect!();
  const heapBytes = Math.max(0, process.memoryUsage().heapUsed - heapBefore);
  // Keeps the answer alive until the heap it holds is measured.
  if (!result) throw new Error('no answer');
  return { heapBytes, grownBytes };
}

/**
 * Times are taken without a forced collection just before: a full collection also shrinks the
 * young generation, and the compile would then pay for growing it again (up to 3 times the CPU),
 * which no long-running process does. The runs are interleaved (every case once per round), so a
 * slow stretch of the machine (another tenant, a frequency drop) costs one run of several cases,
 * not every run of one case; each case keeps its least time.
 */
function measureAll(items: readonly ProbeCase[]): ProbeMeasure[] {
  for (const item of items) timeOnce(item);
  const best = items.map(() => ({ cpuMs: Infinity, wallMs: Infinity }));
  for (let round = 0; round < RUNS; round += 1) {
    items.forEach((item, i) => {
      const t = timeOnce(item);
      best[i]!.cpuMs = Math.min(best[i]!.cpuMs, t.cpuMs);
      best[i]!.wallMs = Math.min(best[i]!.wallMs, t.wallMs);
    });
  }
  return items.map((item, i) => ({ ...best[i]!, ...heapOnce(item) }));
}

const path = process.argv[2];
if (!path) throw new Error('usage: compile-probe.ts <cases.json>');
const cases = JSON.parse(readFileSync(path, 'utf8')) as ProbeCase[];
process.stdout.write(`${JSON.stringify(measureAll(cases))}\n`);
