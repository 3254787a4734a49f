/**
 * The steps that hold steps. `for_each` runs its inner steps once per element of its list, at
 * most `concurrency` elements at a time (in order when 1), each element in its own scope (the
 * outer steps' outputs, then its own; `item` and `index`); a failed element stops new elements
 * from starting unless the loop has `continue_on_error`, and the loop then fails with the first
 * failure's code. `parallel` runs its inner steps at the same time in the outer scope (their
 * outputs are the group's level's); the first failure cancels the others unless the group has
 * `continue_on_error`. Deterministic workflow code.
 */
import { ApplicationFailure, CancellationScope, isCancellation } from '@temporalio/workflow';
import {
  resolveInput,
  type ForEachPlanStep,
  type ParallelPlanStep,
  type PlanStep,
  type RunScope,
} from '../definitions/runtime/index.js';
import { pendingStep, type StepError, type StepProgress } from './progress.js';
import type { RunContext, RunSteps } from './run-context.js';

/** The most elements one loop takes (as the compiler's limit for a literal list). */
export const MAX_LOOP_ITEMS = 10_000;
/** Failed elements a loop's progress names (the rest are counted). */
const MAX_LISTED_FAILURES = 5;

type ElementStatus = 'completed' | 'failed' | 'skipped';

interface ElementResult {
  index: number;
  status: ElementStatus;
  outputs: Record<string, unknown>;
}

/** The ids whose outputs belong to one element: its steps and their parallel groups' steps. */
function elementIds(steps: readonly PlanStep[]): string[] {
  return steps.flatMap((s) => [s.id, ...(s.kind === 'parallel' ? elementIds(s.steps) : [])]);
}

export async function forEachStep(
  step: ForEachPlanStep,
  scope: RunScope,
  state: StepProgress,
  ctx: RunContext,
  run: RunSteps,
): Promise<{ results: ElementResult[]; completed_count: number; failed_count: number }> {
  const items = resolveInput(step.items, scope);
  if (!Array.isArray(items))
    throw ApplicationFailure.nonRetryable('The for_each items are not a list.', 'LOOP_ITEMS_NOT_A_LIST');
  if (items.length > MAX_LOOP_ITEMS)
    throw ApplicationFailure.nonRetryable(
      `A for_each takes at most ${MAX_LOOP_ITEMS} items.`,
      'LOOP_TOO_LARGE',
    );
  const ids = elementIds(step.steps);
  const results: ElementResult[] = items.map((_, index) => ({ index, status: 'skipped', outputs: {} }));
  const counts = { total: items.length, completed: 0, failed: 0, running: 0 };
  const failures: Array<{ index: number; step: string; error: StepError }> = [];
  state.elements = { ...counts, failures };
  let next = 0;
  let first: { step: PlanStep; error: StepError } | undefined;
  const runElement = async (index: number) => {
    const own: RunScope = {
      inputs: scope.inputs,
      steps: { ...scope.steps },
      loop: { item: items[index], index },
    };
    const states = new Map<PlanStep, StepProgress>();
    const local: RunContext = {
      ...ctx,
      stateOf: (s) => {
        let entry = states.get(s);
        if (!entry) states.set(s, (entry = pendingStep(s.id)));
        return entry;
      },
      publish: () => undefined,
    };
    counts.running += 1;
    const failure = await run(step.steps, own, local);
    counts.running -= 1;
    const outputs: Record<string, unknown> = {};
    for (const id of ids) if (Object.hasOwn(own.steps, id)) outputs[id] = own.steps[id];
    results[index] = { index, status: failure ? 'failed' : 'completed', outputs };
    if (failure) {
      counts.failed += 1;
      if (failures.length < MAX_LISTED_FAILURES)
        failures.push({ index, step: failure.step.id, error: failure.error });
      first ??= failure;
    } else counts.completed += 1;
    state.elements = { ...counts, failures };
    ctx.publish();
  };
  const worker = async () => {
    while (next < items.length && (step.continueOnError || !first)) {
      const index = next;
      next += 1;
      await runElement(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(step.concurrency, items.length) }, worker));
  if (first && !step.continueOnError)
    throw ApplicationFailure.create({
      type: first.error.code,
      message: `An element failed: ${first.error.message}`,
      nonRetryable: true,
      details: [{ step: first.step.id }],
    });
  return { results, completed_count: counts.completed, failed_count: counts.failed };
}

export async function parallelStep(
  step: ParallelPlanStep,
  scope: RunScope,
  ctx: RunContext,
  run: RunSteps,
): Promise<{ completed_count: number; failed_count: number }> {
  let first: { step: PlanStep; error: StepError } | undefined;
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
          if (!step.continueOnError && !first) {
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
    throw ApplicationFailure.create({
      type: first.error.code,
      message: `A step of the group failed: ${first.error.message}`,
      nonRetryable: true,
      details: [{ step: first.step.id }],
    });
  return { completed_count: counts.completed, failed_count: counts.failed };
}
