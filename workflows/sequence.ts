/**
 * Runs a list of steps in order against a scope: evaluates `if`, runs each step's body, records
 * its progress and output, and tolerates a failure when the step has `continue_on_error`. A
 * failure that is not tolerated ends the list and is answered (the caller decides: the run
 * fails, a loop element fails, a parallel group cancels its other steps); a cancellation marks
 * the step and the later ones cancelled and is rethrown. Deterministic workflow code.
 */
import { ApplicationFailure, isCancellation } from '@temporalio/workflow';
import {
  callsActivity,
  evaluateCondition,
  type PlanStep,
  type RunScope,
} from '../definitions/runtime/index.js';
import { childRunStep } from './child-run.js';
import { forEachStep, parallelStep } from './groups.js';
import { activityStep, failStep, waitStep } from './leaf-steps.js';
import { summarise, type StepProgress } from './progress.js';
import { GroupFailed, type RunContext, type SequenceFailure } from './run-context.js';
import { failedOutput, stepError } from './step-error.js';
import { reuseStep } from './rerun.js';

export async function runSequence(
  steps: readonly PlanStep[],
  scope: RunScope,
  ctx: RunContext,
): Promise<SequenceFailure | undefined> {
  for (const [index, step] of steps.entries()) {
    if (reuseStep(step, scope, ctx)) {
      ctx.publish();
      continue;
    }
    const state = ctx.stateOf(step);
    if (step.if && !evaluateCondition(step.if, scope)) {
      state.status = 'skipped';
      ctx.publish();
      continue;
    }
    state.status = 'running';
    state.started_at = ctx.now();
    ctx.publish();
    try {
      const body = () => runBody(step, scope, state, ctx);
      const output = await (ctx.slots ? ctx.slots.around(step, body) : body());
      scope.steps[step.id] = output;
      state.status = 'completed';
      state.output_summary = summarise(output);
    } catch (err) {
      state.finished_at = ctx.now();
      if (isCancellation(err)) {
        state.status = 'cancelled';
        for (const later of steps.slice(index + 1)) markCancelled(later, ctx);
        throw err;
      }
      state.status = 'failed';
      const inner = err instanceof GroupFailed ? err.failure : undefined;
      state.error = inner ? inner.error : stepError(err);
      const ended = step.kind === 'fail' ? step.id : inner?.ended;
      // A fail step (at any depth) ends the run: no handler or tolerance applies to it.
      if (step.onError && ended === undefined) {
        ctx.publish();
        const origin = inner ? (inner.origin ?? inner.step) : step.id;
        let failed: SequenceFailure | undefined;
        try {
          failed = await runHandler(step.onError, scope, { code: state.error.code, step: origin }, ctx);
        } catch (cancelled) {
          for (const later of steps.slice(index + 1)) markCancelled(later, ctx);
          throw cancelled;
        }
        if (failed) return failed;
        state.handled = true;
      } else if (ended !== undefined || !step.continueOnError)
        return {
          step: step.id,
          error: state.error,
          ...(inner && { origin: inner.origin ?? inner.step }),
          ...(ended !== undefined && { ended }),
        };
      scope.steps[step.id] = failedOutput(step, state.error);
      ctx.publish();
      continue;
    }
    state.finished_at = ctx.now();
    ctx.publish();
  }
  return undefined;
}

/**
 * Runs a step's `on_error` handler in its own scope (the outer outputs, the loop element, and
 * `error`: the failure's code and failing step); its steps' outputs stay inside it. Answers the
 * handler's own failure, if it failed.
 */
async function runHandler(
  handler: readonly PlanStep[],
  scope: RunScope,
  error: { code: string; step: string },
  ctx: RunContext,
): Promise<SequenceFailure | undefined> {
  const own: RunScope = { ...scope, steps: { ...scope.steps }, error };
  return runSequence(handler, own, ctx);
}

function markCancelled(step: PlanStep, ctx: RunContext): void {
  ctx.stateOf(step).status = 'cancelled';
  if (step.kind === 'parallel') for (const child of step.steps) markCancelled(child, ctx);
  for (const child of step.onError ?? []) ctx.stateOf(child).status = 'cancelled';
}

/**
 * One step's body. Wait, fail, for_each and parallel steps are newer than plan version 1: older
 * plans never reach them, so every older history issues the same commands (the replay test
 * proves it).
 */
function runBody(step: PlanStep, scope: RunScope, state: StepProgress, ctx: RunContext): Promise<unknown> {
  switch (step.kind) {
    case 'wait':
      return waitStep(step, scope, state);
    case 'fail':
      return Promise.resolve(failStep(step, scope));
    case 'for_each':
      return forEachStep(step, scope, state, ctx, runSequence);
    case 'parallel':
      return parallelStep(step, scope, ctx, runSequence);
    case 'workflow':
      return childRunStep(step, scope, state, ctx);
    case 'approval':
      if (!ctx.approvals) throw ApplicationFailure.nonRetryable('Approvals do not run here.', 'INTERNAL');
      return ctx.approvals.wait(step, scope, state);
    case 'event_wait':
      if (!ctx.events) throw ApplicationFailure.nonRetryable('Event waits do not run here.', 'INTERNAL');
      return ctx.events.wait(step, scope, state, ctx);
    default: {
      if (!callsActivity(step)) throw ApplicationFailure.nonRetryable('Unknown step kind.', 'INTERNAL');
      const policy = ctx.facts.policies[step.id];
      if (!policy) throw ApplicationFailure.nonRetryable('A step has no activity policy.', 'INTERNAL');
      return activityStep(step, scope, policy, ctx);
    }
  }
}
