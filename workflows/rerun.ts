/**
 * Re-runs: a new run of an earlier run's plan snapshot that reuses the outputs the earlier run
 * recorded instead of running those steps again. The API decides which steps are reused
 * (api/services/reruns.ts) and hands them over in the run's input; this module applies that
 * decision and records, as a run ends without a result, the outputs a later re-run may reuse.
 * Deterministic workflow code: everything comes from the input or the run's own state.
 */
import type { PlanStep, RunScope } from '../definitions/runtime/index.js';
import type { ElementResult } from './loop-elements.js';
import { summarise } from './progress.js';
import type { RunContext } from './run-context.js';

/** One step whose recorded output a re-run takes over, with the timing of the run that made it. */
export interface ReusedStep {
  output: unknown;
  started_at: string | null;
  finished_at: string | null;
}

/** What a re-run reuses: in its input, decided by the API. */
export interface RerunReuse {
  /** The task id of the run whose outputs these are. */
  of: string;
  /** Steps that do not run again, by id (a parallel group lists its inner steps too). */
  steps: Record<string, ReusedStep>;
  /**
   * The re-run's first loop: the outputs of the elements that completed, by element index
   * (only its other elements run).
   */
  elements?: Record<string, Record<string, Record<string, unknown>>>;
}

/** Memo key of the outputs a run that ends without a result leaves for a re-run. */
export const RECORDED_MEMO_KEY = 'recorded';

/**
 * The most characters of JSON a run records for re-runs. Past it nothing is recorded, so a
 * re-run of that run runs every step again (the memo stays far below Temporal's memo limit).
 */
export const MAX_RECORDED_CHARS = 1024 * 1024;

/** The outputs a failed or cancelled run recorded: completed steps, and a loop's completed elements. */
export interface RecordedOutputs {
  steps: Record<string, unknown>;
  /** The run's loops that did not complete: their elements' results as far as they got. */
  elements?: Record<string, ElementResult[]>;
}

/**
 * Takes over a step's recorded output when the re-run reuses it: the step keeps the recorded
 * timing and shows as `reused`; a parallel group's inner steps are taken over with it. Answers
 * whether it did (the step then does not run).
 */
export function reuseStep(step: PlanStep, scope: RunScope, ctx: RunContext): boolean {
  const reused = ctx.reuse?.steps[step.id];
  if (!reused) return false;
  const state = ctx.stateOf(step);
  state.status = 'reused';
  state.started_at = reused.started_at;
  state.finished_at = reused.finished_at;
  state.output_summary = summarise(reused.output);
  scope.steps[step.id] = reused.output;
  if (step.kind === 'parallel') for (const inner of step.steps) reuseStep(inner, scope, ctx);
  return true;
}

/**
 * What a run that ends without a result records for re-runs: the outputs of its steps so far
 * and its unfinished loops' element results, or nothing when that is larger than
 * MAX_RECORDED_CHARS.
 */
export function recordedOutputs(
  steps: Record<string, unknown>,
  loops: ReadonlyMap<string, ElementResult[]>,
): RecordedOutputs | undefined {
  const recorded: RecordedOutputs = { steps };
  const unfinished = [...loops].filter(([id]) => !Object.hasOwn(steps, id));
  if (unfinished.length > 0) recorded.elements = Object.fromEntries(unfinished);
  return JSON.stringify(recorded).length <= MAX_RECORDED_CHARS ? recorded : undefined;
}
