/**
 * Runs a run of a `for_each`'s elements: at most `concurrency` at a time (in order when 1), each
 * in its own scope (the outer steps' outputs, then its own; `item` and `index`). A failed element
 * stops new elements from starting unless the loop has `continue_on_error`. The loop itself runs
 * this inline, or in child workflows of at most `LOOP_BATCH_SIZE` elements (loop-batch.ts).
 *
 * Element results are bounded: a run's loops keep their elements' results in full while their
 * JSON stays within one budget of `LOOP_OUTPUT_BUDGET` characters for the whole run; an element
 * finishing after that keeps only its index, status and error code and step (empty `outputs`,
 * no error message) and is counted in `outputs_dropped_count`. Deterministic workflow code.
 */
import type { PlanStep, RunScope } from '../definitions/runtime/index.js';
import { pendingStep, type StepError, type StepProgress } from './progress.js';
import type { RunContext, RunSteps, SequenceFailure } from './run-context.js';

/** Characters of JSON a run's loop element results may take in all (past it they are cut down). */
export const LOOP_OUTPUT_BUDGET = 512 * 1024;
/** Failed elements a loop's progress names (the rest are counted). */
export const MAX_LISTED_FAILURES = 5;

export type ElementStatus = 'completed' | 'failed' | 'skipped';

export interface ElementResult {
  index: number;
  status: ElementStatus;
  outputs: Record<string, unknown>;
  /** A failed element: the inner step that failed and its error. */
  error?: StepError & { step: string };
}

export interface ElementFailure {
  index: number;
  step: string;
  error: StepError;
  /** The fail step that ended the element, if one did. */
  ended?: string;
  /** The innermost step that failed, when it is not `step` (a step of a group in the element). */
  origin?: string;
}

/** What a run of elements produced (a batch's child workflow answers this). */
export interface ElementsOutcome {
  /** One entry per element of the slice, in order (`skipped` if it never started). */
  results: ElementResult[];
  completed: number;
  failed: number;
  dropped: number;
  /** The first failures in the order they happened, at most MAX_LISTED_FAILURES. */
  failures: ElementFailure[];
  /** The first element a fail step ended: it ends the loop, `continue_on_error` or not. */
  ended?: ElementFailure;
  /** Elements a re-run took over from an earlier run (counted in `completed`). */
  reused?: number;
}

export interface ElementsJob {
  steps: PlanStep[];
  items: unknown[];
  /** The index of `items[0]` in the whole loop. */
  offset: number;
  concurrency: number;
  continueOnError: boolean;
  /** The loop's id (element step keys are `<loop>[<index>].<step>`). */
  loopId: string;
  /** A re-run's loop: the outputs of elements an earlier run completed, by index (they do not run). */
  reused?: Record<string, Record<string, unknown>>;
}

/** Result characters left to a run's loops; shared by all of them and their batches. */
export interface OutputBudget {
  left: number;
}

/**
 * Keeps an element's result whole while the budget lasts; past it, only its index, status, and
 * error code and step (an element already cut down by a batch costs nothing again).
 */
export function withinBudget(
  result: ElementResult,
  budget: OutputBudget,
): { result: ElementResult; dropped: boolean } {
  const cut = cutDown(result);
  if (Object.keys(result.outputs).length === 0 && result.error?.message === cut.error?.message)
    return { result, dropped: false };
  const size = JSON.stringify(result).length;
  if (size > budget.left) return { result: cut, dropped: true };
  budget.left -= size;
  return { result, dropped: false };
}

function cutDown(result: ElementResult): ElementResult {
  const { index, status, error } = result;
  return {
    index,
    status,
    outputs: {},
    ...(error && { error: { code: error.code, message: '', step: error.step } }),
  };
}

/** The ids whose outputs belong to one element: its steps and their parallel groups' steps. */
function elementIds(steps: readonly PlanStep[]): string[] {
  return steps.flatMap((s) => [s.id, ...(s.kind === 'parallel' ? elementIds(s.steps) : [])]);
}

export function emptyOutcome(job: Pick<ElementsJob, 'items' | 'offset'>): ElementsOutcome {
  return {
    results: job.items.map((_, i) => ({ index: job.offset + i, status: 'skipped', outputs: {} })),
    completed: 0,
    failed: 0,
    dropped: 0,
    failures: [],
  };
}

/** Adds one finished element to an outcome (`failure` names a failed one, when known). */
export function recordElement(
  outcome: ElementsOutcome,
  at: number,
  result: ElementResult,
  failure: ElementFailure | undefined,
  budget: OutputBudget,
): void {
  const kept = withinBudget(result, budget);
  outcome.results[at] = kept.result;
  if (kept.dropped) outcome.dropped += 1;
  if (result.status === 'completed') outcome.completed += 1;
  if (result.status !== 'failed') return;
  outcome.failed += 1;
  if (failure && outcome.failures.length < MAX_LISTED_FAILURES) outcome.failures.push(failure);
  if (failure?.ended !== undefined) outcome.ended ??= failure;
}

export async function runElements(
  job: ElementsJob,
  scope: RunScope,
  ctx: RunContext,
  run: RunSteps,
  budget: OutputBudget,
  changed: (outcome: ElementsOutcome, running: number) => void,
): Promise<ElementsOutcome> {
  const ids = elementIds(job.steps);
  const outcome = emptyOutcome(job);
  let next = 0;
  let running = 0;
  let stop = false;
  const runElement = async (at: number) => {
    const index = job.offset + at;
    const earlier = job.reused?.[String(index)];
    if (earlier) {
      recordElement(outcome, at, { index, status: 'completed', outputs: earlier }, undefined, budget);
      outcome.reused = (outcome.reused ?? 0) + 1;
      changed(outcome, running);
      return;
    }
    const own: RunScope = {
      inputs: scope.inputs,
      steps: { ...scope.steps },
      loop: { item: job.items[at], index },
      // A loop inside an on_error handler still reads the failure it handles.
      ...(scope.error && { error: scope.error }),
    };
    const states = new Map<PlanStep, StepProgress>();
    const local: RunContext = {
      ...ctx,
      prefix: `${ctx.prefix}${job.loopId}[${index}].`,
      stateOf: (s) => {
        let entry = states.get(s);
        if (!entry) states.set(s, (entry = pendingStep(s.id)));
        return entry;
      },
      publish: () => undefined,
      // Only the loop's elements are taken over, never the steps inside one.
      reuse: undefined,
      loops: undefined,
    };
    running += 1;
    const failure: SequenceFailure | undefined = await run(job.steps, own, local);
    running -= 1;
    const outputs: Record<string, unknown> = {};
    for (const id of ids) if (Object.hasOwn(own.steps, id)) outputs[id] = own.steps[id];
    const result: ElementResult = failure
      ? { index, status: 'failed', outputs, error: { ...failure.error, step: failure.step } }
      : { index, status: 'completed', outputs };
    recordElement(
      outcome,
      at,
      result,
      failure && {
        index,
        step: failure.step,
        error: failure.error,
        ...(failure.ended !== undefined && { ended: failure.ended }),
        ...(failure.origin !== undefined && { origin: failure.origin }),
      },
      budget,
    );
    if (failure && (!job.continueOnError || failure.ended !== undefined)) stop = true;
    changed(outcome, running);
  };
  const worker = async () => {
    while (next < job.items.length && !stop) {
      const at = next;
      next += 1;
      await runElement(at);
    }
  };
  const workers = Math.min(job.concurrency, job.items.length);
  changed(outcome, 0);
  await Promise.all(Array.from({ length: workers }, worker));
  return outcome;
}
