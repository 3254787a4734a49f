/**
 * Shared settings and checks of the compiler's property tests. The seed is fixed so that CI runs
 * the same cases every time; `FUZZ_SEED` replays another seed and `FUZZ_SCALE` multiplies every
 * run count (both printed by each test file).
 */
import { expect } from 'vitest';
import { DiagnosticSchema } from '../diagnostics.js';
import type { CompileResult } from '../compiler/compile-definition.js';
import { PLAN_VERSION } from '../runtime/plan.js';
import { MARKER } from './schema-arbitrary.js';

const DEFAULT_SEED = 20_261_125;

function settings(): { seed: number; scale: number } {
  const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
  const scale = Number(process.env.FUZZ_SCALE ?? 1);
  if (!Number.isSafeInteger(seed)) throw new Error('FUZZ_SEED must be an integer');
  if (!(scale > 0)) throw new Error('FUZZ_SCALE must be a positive number');
  return { seed, scale };
}

/** The seed of this run. */
export const FUZZ_SEED = settings().seed;

/** A run count scaled by `FUZZ_SCALE`. */
export function runs(base: number): number {
  return Math.max(1, Math.round(base * settings().scale));
}

/** fast-check parameters for a property of `base` runs. */
export function fuzzParams(base: number): { seed: number; numRuns: number; endOnFailure: true } {
  return { seed: FUZZ_SEED, numRuns: runs(base), endOnFailure: true };
}

/** Reports the seed, so that a failure in CI can be replayed with `FUZZ_SEED`. */
export function announce(file: string): void {
  console.info(`${file}: FUZZ_SEED=${FUZZ_SEED} FUZZ_SCALE=${settings().scale}`);
}

const MARKED = new RegExp(MARKER, 'i');

/**
 * The compiler's answer is well formed: a plan of the current version, or at least one
 * diagnostic, each with a known code, a path, a position inside the source and a message that
 * quotes no author text (generated author text always holds the marker).
 */
export function expectWellFormed(result: CompileResult, source: string): void {
  if (result.ok) {
    expect(result.diagnostics).toEqual([]);
    expect(result.plan.planVersion).toBe(PLAN_VERSION);
    expect(result.plan.steps.length).toBeGreaterThan(0);
    return;
  }
  expect(result.diagnostics.length).toBeGreaterThan(0);
  const lines = source.split('\n').length;
  for (const diagnostic of result.diagnostics) {
    expect(DiagnosticSchema.strict().parse(diagnostic)).toEqual(diagnostic);
    expect(diagnostic.message.length).toBeGreaterThan(0);
    expect(diagnostic.message).not.toMatch(MARKED);
    expect(diagnostic.line).toBeGreaterThanOrEqual(1);
    expect(diagnostic.line).toBeLessThanOrEqual(lines);
    expect(diagnostic.column).toBeGreaterThanOrEqual(1);
  }
}
