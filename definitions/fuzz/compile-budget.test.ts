/**
 * The compiler's budget: each compile of a source up to the 64 KiB limit takes at most 100 ms of
 * CPU and 50 MB of heap. Generated definitions are grown to 50-100 % of the limit in nine ways,
 * others are mutated, and every case is measured in a child process of its own
 * (compile-probe.ts: one warm-up compile, the least CPU of nine more taken in rounds over all the cases, then the heap of one
 * between two collections), so that neither the test runner nor another test's heap is counted.
 * The child runs with V8's --single-threaded, so the CPU figure is the compile's own work, its
 * collections and optimising compiles included, done on the one thread: with V8's helper
 * threads the same compile counts up to 1.5-2 times its wall time.
 * The test runs in the quiet phase after the parallel suite, where no other test file runs beside
 * it: `npm run test:quiet`, or alone `npx vitest run --config vitest.quiet.config.ts
 * definitions/fuzz/compile-budget.test.ts`.
 *
 * What it asserts, for every case of every shape: the heap the compile keeps stays within 50 MB
 * and its CPU within 100 ms (figures in docs/benchmarks.md "Compiler budget").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../limits.js';
import { compileForTest } from '../testing/compile.js';
import { createTestCatalog } from '../testing/test-catalog.js';
import type { ProbeCase, ProbeMeasure } from './compile-probe.js';
import { definitionArbitraries, toSource } from './definition-arbitraries.js';
import { announce, expectWellFormed, FUZZ_SEED, runs } from './fuzz-run.js';
import { growSource, growth, type Growth } from './large-sources.js';
import { mutateText, mutateTree, textMutation, treeMutation } from './mutations.js';

/** The goal of one compile. */
const BUDGET = { cpuMs: 100, heapBytes: 50 * 1024 * 1024 };

interface Case extends ProbeCase {
  label: string;
}

const { definition } = definitionArbitraries(createTestCatalog());

function grownCases(kind: Growth, seed: number): Case[] {
  return fc.sample(fc.tuple(definition, growth), { seed, numRuns: runs(3) }).map(([data, g]) => ({
    source: growSource(data, kind, g.share, g.format),
    format: g.format,
    label: `${kind} ${g.format}`,
  }));
}

function mutatedCases(seed: number): Case[] {
  const mutated = fc.tuple(
    definition,
    fc.array(treeMutation, { minLength: 1, maxLength: 4 }),
    fc.array(textMutation, { maxLength: 3 }),
  );
  return fc
    .sample(mutated, { seed, numRuns: runs(20) })
    .map(([data, tree, text]) => ({
      source: mutateText(toSource(mutateTree(data, tree), 'yaml'), text),
      format: 'yaml' as const,
      label: `mutated ${[...tree, ...text].map((m) => m.kind).join(',')}`,
    }))
    .filter((c) => Buffer.byteLength(c.source) <= LIMITS.maxSourceBytes);
}

/** Every way of growing a source; its index picks the seed of its cases. */
const KINDS: Growth[] = [
  'flowJson',
  'deepNesting',
  'duplicateKeys',
  'aliasBomb',
  'unknownFields',
  'mustaches',
  'template',
  'steps',
  'references',
];
const cases = new Map<string, Case[]>([
  ...KINDS.map((kind, i): [string, Case[]] => [kind, grownCases(kind, FUZZ_SEED + i)]),
  ['mutated', mutatedCases(FUZZ_SEED + KINDS.length)],
]);

/** Measures every case in a child process (compile-probe.ts). */
function probe(all: Case[]): ProbeMeasure[] {
  const dir = mkdtempSync(join(tmpdir(), 'compile-budget-'));
  try {
    const file = join(dir, 'cases.json');
    writeFileSync(file, JSON.stringify(all.map(({ source, format }) => ({ source, format }))));
    const script = fileURLToPath(new URL('./compile-probe.ts', import.meta.url));
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--single-threaded', '--import', 'tsx', script, file],
      {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return JSON.parse(out) as ProbeMeasure[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const measured = new Map<Case, ProbeMeasure>();

describe('each compile of a source up to 64 KiB keeps at most 50 MB and stays within 100 ms of CPU', () => {
  beforeAll(() => {
    announce('compile-budget');
    const all = [...cases.values()].flat();
    probe(all).forEach((m, i) => measured.set(all[i]!, m));
  }, 600_000);

  afterAll(() => {
    const rows = [...measured].sort((a, b) => b[1].cpuMs - a[1].cpuMs);
    const over = rows.filter(([, m]) => m.cpuMs > BUDGET.cpuMs);
    console.info(`compile-budget: ${rows.length} cases, ${over.length} over the ${BUDGET.cpuMs} ms goal`);
    for (const [c, m] of rows.slice(0, 20)) {
      console.info(
        `  ${c.label} (${Buffer.byteLength(c.source)} bytes): ${m.cpuMs.toFixed(1)} ms CPU, ${m.wallMs.toFixed(1)} ms wall, ${(m.heapBytes / 1048576).toFixed(1)} MB kept, ${(m.grownBytes / 1048576).toFixed(1)} MB grown`,
      );
    }
  });

  it.each([...cases.keys()])('for %s sources', (kind) => {
    const list = cases.get(kind) ?? [];
    expect(list.length).toBeGreaterThan(0);
    for (const c of list) {
      expect(Buffer.byteLength(c.source)).toBeLessThanOrEqual(LIMITS.maxSourceBytes);
      expectWellFormed(compileForTest(c.source, c.format), c.source);
      const m = measured.get(c);
      expect({
        label: c.label,
        cpuOver: (m?.cpuMs ?? Infinity) > BUDGET.cpuMs,
        heapOver: (m?.heapBytes ?? Infinity) > BUDGET.heapBytes,
      }).toEqual({
        label: c.label,
        cpuOver: false,
        heapOver: false,
      });
    }
  });
});
