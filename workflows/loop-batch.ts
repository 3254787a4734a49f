/**
 * `runLoopBatch`: one batch of a large `for_each`'s elements, run as a child workflow of the run
 * so that the run's own history grows by a few events per batch, not per element. Its input is
 * the batch's slice of the items, the loop's inner steps, the run inputs and step outputs those
 * steps read, and the run's facts (owner, policies, task id); it answers the batch's outcome
 * (its elements' outputs within the budget it was given). Cancelling the run cancels it, and
 * with it its elements' activities. Deterministic workflow code.
 */
import { workflowInfo } from '@temporalio/workflow';
import type { PlanStep, RunScope } from '../definitions/runtime/index.js';
import { runElements, type ElementsJob, type ElementsOutcome } from './loop-elements.js';
import { pendingStep } from './progress.js';
import type { RunContext, RunFacts } from './run-context.js';
import { runSequence } from './sequence.js';

export interface LoopBatchInput {
  facts: RunFacts;
  job: ElementsJob;
  /** The run inputs and earlier step outputs the inner steps read (and a handler's failure). */
  scope: Pick<RunScope, 'inputs' | 'steps' | 'error'>;
  /** Where the loop runs (`''` at the top level of the run). */
  prefix: string;
  /** Result characters this batch's elements may keep (what the run has left). */
  outputBudget: number;
}

export async function runLoopBatch(input: LoopBatchInput): Promise<ElementsOutcome> {
  let children = 0;
  const budget = { left: input.outputBudget };
  const ctx: RunContext = {
    budget,
    facts: input.facts,
    prefix: input.prefix,
    stateOf: (step: PlanStep) => pendingStep(step.id),
    publish: () => undefined,
    now: () => new Date().toISOString(),
    childId: () => `${workflowInfo().workflowId}.${(children += 1)}`,
  };
  const { inputs, steps, error } = input.scope;
  return runElements(
    input.job,
    { inputs, steps, ...(error && { error }) },
    ctx,
    runSequence,
    budget,
    () => undefined,
  );
}
