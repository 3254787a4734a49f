/**
 * A `use_workflow` step: runs another definition of the same owner as a child `runDefinition`
 * workflow. Its plan and policies were resolved when the run started (a snapshot, like the run's
 * own), so the child never sees later edits; its inputs are rendered here, bounded like a run's
 * inputs (`RUN_INPUTS_TOO_LARGE`) and checked against the child's declared inputs
 * (`INVALID_WORKFLOW_INPUT`); it runs with the run's owner and the same payload codec, under its
 * own definition's search attributes (its runs list shows it, and the task view opens it by the
 * id the parent's progress links). The step's output is the child's declared `outputs`. A failed
 * child fails the step with the child's own code (a child that ended at a fail step gives its
 * message too); a child cancelled on its own (not by this run's cancellation) fails the step
 * with `CHILD_RUN_CANCELLED`, so handlers and `continue_on_error` apply. Deterministic workflow
 * code.
 */
import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
} from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import {
  applyRunInputs,
  MAX_RUN_INPUT_CHARS,
  oversizedRunInput,
  resolveInput,
  triggerInputs,
  type RunScope,
  type WorkflowPlanStep,
} from '../definitions/runtime/index.js';
import type { StepProgress } from './progress.js';
import { STEP_FAILED_PREFIX, type RunContext } from './run-context.js';
import type { ChildRunSnapshot, RunDefinitionInput, RunDefinitionResult } from './run-definition.js';

/**
 * The run's search attributes, as the API sets them for a run it starts (the keys of
 * lib/temporal/search-attributes.ts, which workflow code may not import; a test keeps them equal).
 */
export function childSearchAttributes(child: ChildRunSnapshot, ownerId: string): SearchAttributePair[] {
  return [
    { key: { name: 'DefinitionId', type: 'KEYWORD' }, value: child.definitionId },
    { key: { name: 'DefinitionVersion', type: 'INT' }, value: child.definitionVersion },
    { key: { name: 'TriggerType', type: 'KEYWORD' }, value: 'workflow' },
    { key: { name: 'TaskKind', type: 'KEYWORD' }, value: 'workflow_run' },
    { key: { name: 'OwnerId', type: 'KEYWORD' }, value: ownerId },
  ] as SearchAttributePair[];
}

export async function childRunStep(
  step: WorkflowPlanStep,
  scope: RunScope,
  state: StepProgress,
  ctx: RunContext,
): Promise<Record<string, unknown>> {
  const child = ctx.facts.children?.[step.id];
  if (!child) throw ApplicationFailure.nonRetryable('The child workflow was not resolved.', 'INTERNAL');
  const provided = (resolveInput(step.inputs, scope) ?? {}) as Record<string, unknown>;
  if (oversizedRunInput(provided, MAX_RUN_INPUT_CHARS))
    throw ApplicationFailure.nonRetryable(
      `The child workflow's inputs are larger than ${MAX_RUN_INPUT_CHARS} characters of JSON.`,
      'RUN_INPUTS_TOO_LARGE',
    );
  const trigger = child.plan.trigger;
  const specs = triggerInputs(trigger);
  const checked = applyRunInputs(specs, provided);
  if (!checked.ok)
    throw ApplicationFailure.nonRetryable(
      "The inputs do not match the child workflow's declared inputs.",
      'INVALID_WORKFLOW_INPUT',
    );
  const workflowId = ctx.childId();
  state.child_task_id = workflowId;
  ctx.publish();
  const input: RunDefinitionInput = {
    plan: child.plan,
    definitionId: child.definitionId,
    definitionVersion: child.definitionVersion,
    ownerId: ctx.facts.ownerId,
    trigger: 'workflow',
    inputs: checked.inputs,
    policies: child.policies,
    ...(child.children && { children: child.children }),
    ...(ctx.facts.grants && { grants: ctx.facts.grants }),
  };
  try {
    const result = await executeChild<(input: RunDefinitionInput) => Promise<RunDefinitionResult>>(
      'runDefinition',
      { workflowId, args: [input], typedSearchAttributes: childSearchAttributes(child, ctx.facts.ownerId) },
    );
    return result.declared_outputs ?? {};
  } catch (err) {
    throw childFailure(err);
  }
}

/** The step's own failure for a child run that did not complete. */
function childFailure(err: unknown): unknown {
  if (!(err instanceof ChildWorkflowFailure)) return err;
  if (isCancellation(err))
    return CancellationScope.current().consideredCancelled
      ? err
      : ApplicationFailure.nonRetryable('The child run was cancelled.', 'CHILD_RUN_CANCELLED');
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || !cause.type) return err;
  const detail = (cause.details?.[0] ?? {}) as { fail_message?: unknown };
  const message =
    typeof detail.fail_message === 'string'
      ? detail.fail_message
      : cause.message.startsWith(STEP_FAILED_PREFIX)
        ? cause.message.slice(STEP_FAILED_PREFIX.length)
        : cause.message;
  return ApplicationFailure.nonRetryable(message, cause.type);
}
