/**
 * Runs a run of a `for_each`'s elements: at most `concurrency` at a time (in order when 1), each
 * in its own scope (the outer steps' outputs, then its own; `item` and `index`). A failed element
 * stops new elements from starting unless the loop has `continue_on_error`. The loop itself runs
 * this inline, or in child workflows of at most `LOOP_BATCH_SIZE` elements (loop-batch.ts).
 *
 * Element outputs are bounded: the loop's output keeps each element's inner outputs while their
 * JSON stays within `budget` characters in all; an element finishing after that keeps an empty
 * `outputs` and is counted in `outputs_dropped_count` (so a run's result stays far below
 * Temporal's payload limit). Deterministic workflow code.
 */
import type { PlanStep, RunScope } from '../definitions/runtime/index.js';
import { pendingStep, type StepError, type StepProgress } from './progress.js';
import type { RunContext, RunSteps, SequenceFailure } from './run-context.js';

/** Characters of JSON a loop's element outputs may take in all (the rest are dropped). */
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
}

/** What a run of elements produced (a batch's child workflow answers this). */
export interface ElementsOutcome {
  /** One entry per element of the slice, in order (`skipped` if it never started). */
  results: ElementResult[];
  completed: number;
  failed: number;
  dropped: number;
  /** The first failures by index order of finishing, at most MAX_LISTED_FAILURES. */
  failures: ElementFailure[];
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
}

/** Output characters left to a loop; shared by its batches. */
export interface OutputBudget {
  left: number;
}

/** Keeps an element's outputs while the budget lasts; an empty object once it is spent. */
export function withinBudget(
  outputs: Record<string, unknown>,
  budget: OutputBudget,
): { outputs: Record<string, unknown>; dropped: boolean } {
  const size = JSON.stringify(outputs).length;
  if (size > budget.left) return { outputs: {}, dropped: true };
  budget.left -= size;
  return { outputs, dropped: false };
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
  const kept = withinBudget(result.outputs, budget);
  outcome.results[at] = { ...result, outputs: kept.outputs };
  if (kept.dropped) outcome.dropped += 1;
  if (result.status === 'completed') outcome.completed += 1;
  if (result.status !== 'failed') return;
  outcome.failed += 1;
  if (failure && outcome.failures.length < MAX_LISTED_FAILURES) outcome.failures.push(failure);
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
    const own: RunScope = {
      inputs: scope.inputs,
      steps: { ...scope.steps },
      loop: { item: job.items[at], index },
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
      },
      budget,
    );
    if (failure && !job.continueOnError) stop = true;
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
