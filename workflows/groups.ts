/**
 * The steps that hold steps. `for_each` runs its inner steps once per element of its list
 * (loop-elements.ts): inline up to `LOOP_BATCH_SIZE` elements, in child workflows of at most
 * that many elements each above it (loop-batch.ts), so a 10,000-element loop adds about six events per
 * batch to the run's history rather than several per element. Batches run in at most two lanes
 * that split the loop's concurrency, so no more than `concurrency` elements ever run at once;
 * after a failed element no new batch starts unless the loop has `continue_on_error`, and the
 * loop then fails with the first failure's code. `parallel` runs its inner steps at the same
 * time in the outer scope (their outputs are the group's level's); the first failure cancels the
 * others unless the group has `continue_on_error`. Deterministic workflow code.
 */
import { ApplicationFailure, CancellationScope, executeChild, isCancellation } from '@temporalio/workflow';
import {
  pick,
  referencesOf,
  resolveInput,
  type ForEachPlanStep,
  type ParallelPlanStep,
  type RunScope,
} from '../definitions/runtime/index.js';
import type { LoopBatchInput } from './loop-batch.js';
import {
  MAX_LISTED_FAILURES,
  emptyOutcome,
  recordElement,
  runElements,
  type ElementResult,
  type ElementsJob,
  type ElementsOutcome,
  type OutputBudget,
} from './loop-elements.js';
import type { StepProgress } from './progress.js';
import { failedOutput } from './step-error.js';
import { GroupFailed, type RunContext, type RunSteps, type SequenceFailure } from './run-context.js';

/** The most elements one loop takes (as the compiler's limit for a literal list). */
export const MAX_LOOP_ITEMS = 10_000;
/** Elements per child workflow; a loop with at most this many runs inline. */
export const LOOP_BATCH_SIZE = 100;
/** Batches a loop runs at the same time (each takes its share of the loop's concurrency). */
const MAX_LANES = 2;

export interface LoopOutput {
  results: ElementResult[];
  completed_count: number;
  failed_count: number;
  /** Elements whose outputs were dropped because the loop's output budget was spent. */
  outputs_dropped_count: number;
}

export async function forEachStep(
  step: ForEachPlanStep,
  scope: RunScope,
  state: StepProgress,
  ctx: RunContext,
  run: RunSteps,
): Promise<LoopOutput> {
  const items = resolveInput(step.items, scope);
  if (!Array.isArray(items))
    throw ApplicationFailure.nonRetryable('The for_each items are not a list.', 'LOOP_ITEMS_NOT_A_LIST');
  if (items.length > MAX_LOOP_ITEMS)
    throw ApplicationFailure.nonRetryable(`A for_each takes at most ${MAX_LOOP_ITEMS} items.`, 'TOO_LARGE');
  const job: ElementsJob = {
    steps: step.steps,
    items,
    offset: 0,
    concurrency: step.concurrency,
    continueOnError: step.continueOnError,
    loopId: step.id,
  };
  // A re-run's first loop runs only the elements the earlier run did not complete.
  const reused = ctx.prefix === '' ? ctx.reuse?.elements?.[step.id] : undefined;
  if (reused) job.reused = reused;
  const budget: OutputBudget = ctx.budget;
  const show = (outcome: ElementsOutcome, running: number) => {
    state.elements = {
      total: items.length,
      completed: outcome.completed,
      failed: outcome.failed,
      running,
      ...(outcome.reused !== undefined && { reused: outcome.reused }),
      failures: outcome.failures.map(({ index, step: id, error }) => ({ index, step: id, error })),
    };
    // The element results so far, recorded for a re-run if the run ends before the loop does.
    ctx.loops?.set(step.id, outcome.results);
    ctx.publish();
  };
  // A loop inside another loop's element always runs in batches, so nested loops never multiply
  // the activities in one workflow's history.
  const inline = items.length <= LOOP_BATCH_SIZE && ctx.prefix === '';
  const outcome = inline
    ? await runElements(job, scope, ctx, run, budget, show)
    : await runBatches(job, scope, ctx, budget, show);
  // A fail step inside ends the run, through continue_on_error too.
  const first = outcome.ended ?? (step.continueOnError ? undefined : outcome.failures[0]);
  if (first) {
    const failure: SequenceFailure = {
      step: step.id,
      origin: first.origin ?? first.step,
      error:
        first.ended !== undefined
          ? first.error
          : { code: first.error.code, message: `An element failed: ${first.error.message}` },
      ...(first.ended !== undefined && { ended: first.ended }),
    };
    throw new GroupFailed(failure);
  }
  return {
    results: outcome.results,
    completed_count: outcome.completed,
    failed_count: outcome.failed,
    outputs_dropped_count: outcome.dropped,
  };
}

/**
 * A large loop: child workflows of at most LOOP_BATCH_SIZE elements (the fewest batches, of
 * equal size: 120 elements are two batches of 60), in lanes sharing the concurrency.
 */
async function runBatches(
  job: ElementsJob,
  scope: RunScope,
  ctx: RunContext,
  budget: OutputBudget,
  changed: (outcome: ElementsOutcome, running: number) => void,
): Promise<ElementsOutcome> {
  const read = referencesOf(job.steps);
  const shared = {
    inputs: pick(scope.inputs, read.inputs),
    steps: pick(scope.steps, read.steps),
    ...(scope.error && { error: scope.error }),
  };
  const batches = Math.ceil(job.items.length / LOOP_BATCH_SIZE);
  const size = Math.ceil(job.items.length / batches);
  const lanes = Math.min(MAX_LANES, job.concurrency, batches);
  const outcome = emptyOutcome(job);
  let next = 0;
  let running = 0;
  let stop = false;
  const lane = async (laneIndex: number) => {
    const concurrency = Math.floor(job.concurrency / lanes) + (laneIndex < job.concurrency % lanes ? 1 : 0);
    while (next < batches && !stop) {
      const offset = next * size;
      next += 1;
      const items = job.items.slice(offset, offset + size);
      const input: LoopBatchInput = {
        facts: ctx.facts,
        job: {
          ...job,
          items,
          offset: job.offset + offset,
          concurrency,
          ...(job.reused && { reused: reusedWithin(job.reused, job.offset + offset, items.length) }),
        },
        scope: shared,
        prefix: ctx.prefix,
        outputBudget: budget.left,
      };
      const inFlight = Math.min(items.length, concurrency);
      running += inFlight;
      changed(outcome, running);
      let batch: ElementsOutcome;
      try {
        batch = await executeChild<(input: LoopBatchInput) => Promise<ElementsOutcome>>('runLoopBatch', {
          workflowId: ctx.childId(),
          args: [input],
        });
      } catch (err) {
        // A batch that could not run (or was cancelled): no lane starts another.
        stop = true;
        throw err;
      } finally {
        running -= inFlight;
      }
      // The batch's failures in the order they happened (its first one may be the loop's error).
      for (const failure of batch.failures)
        if (outcome.failures.length < MAX_LISTED_FAILURES) outcome.failures.push(failure);
      batch.results.forEach((result, i) => {
        if (result.status !== 'skipped') recordElement(outcome, offset + i, result, undefined, budget);
      });
      outcome.dropped += batch.dropped;
      if (batch.reused !== undefined) outcome.reused = (outcome.reused ?? 0) + batch.reused;
      if (batch.ended) outcome.ended ??= batch.ended;
      if ((batch.failed > 0 && !job.continueOnError) || batch.ended) stop = true;
      changed(outcome, running);
    }
  };
  // Every lane ends before the loop does, even when one of them failed.
  const ended = await Promise.allSettled(Array.from({ length: lanes }, (_, i) => lane(i)));
  const rejected = ended.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected) throw rejected.reason;
  return outcome;
}

/** The reused elements of one batch (indexes `from` to `from + count - 1`). */
function reusedWithin(
  reused: Record<string, Record<string, unknown>>,
  from: number,
  count: number,
): Record<string, Record<string, unknown>> {
  const own: Record<string, Record<string, unknown>> = {};
  for (let index = from; index < from + count; index += 1) {
    const outputs = reused[String(index)];
    if (outputs) own[String(index)] = outputs;
  }
  return own;
}

export async function parallelStep(
  step: ParallelPlanStep,
  scope: RunScope,
  ctx: RunContext,
  run: RunSteps,
): Promise<{ completed_count: number; failed_count: number }> {
  let first: SequenceFailure | undefined;
  const counts = { completed: 0, failed: 0 };
  await CancellationScope.cancellable(async () => {
    const group = CancellationScope.current();
    await Promise.all(
      step.steps.map(async (child) => {
        try {
          const failure = await run([child], scope, ctx);
          if (!failure) {
            counts.completed += 1;
            return;
          }
          counts.failed += 1;
          // The uniform failed output, for later steps once the group is tolerated or handled.
          scope.steps[child.id] = failedOutput(child, failure.error);
          // A fail step inside ends the run, through continue_on_error too.
          if ((!step.continueOnError || failure.ended !== undefined) && !first) {
            first = failure;
            group.cancel();
          }
        } catch (err) {
          // The group cancelled its other steps after a failure: theirs is that failure.
          if (!(first && isCancellation(err))) throw err;
        }
      }),
    );
  });
  if (first)
    throw new GroupFailed({
      step: step.id,
      origin: first.origin ?? first.step,
      error:
        first.ended !== undefined
          ? first.error
          : { code: first.error.code, message: `A step of the group failed: ${first.error.message}` },
      ...(first.ended !== undefined && { ended: first.ended }),
    });
  return { completed_count: counts.completed, failed_count: counts.failed };
}
