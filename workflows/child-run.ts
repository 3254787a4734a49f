/**
 * A `use_workflow` step: runs another definition of the same owner as a child `runDefinition`
 * workflow. Its plan and policies were resolved when the run started (a snapshot, like the run's
 * own), so the child never sees later edits; its inputs are rendered here and checked against
 * the child's declared inputs (`INVALID_WORKFLOW_INPUT`); it runs with the run's owner and the
 * same payload codec, under its own definition's search attributes (its runs list shows it, and
 * the task view opens it by the id the parent's progress links). The step's output is the
 * child's declared `outputs`. Deterministic workflow code.
 */
import { ApplicationFailure, executeChild } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import {
  applyRunInputs,
  resolveInput,
  type RunScope,
  type WorkflowPlanStep,
} from '../definitions/runtime/index.js';
import type { StepProgress } from './progress.js';
import type { RunContext } from './run-context.js';
import type { ChildRunSnapshot, RunDefinitionInput, RunDefinitionResult } from './run-definition.js';

/** The run's search attributes, as the API sets them (lib/temporal/search-attributes.ts). */
function searchAttributes(child: ChildRunSnapshot, ownerId: string): SearchAttributePair[] {
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
  const provided = resolveInput(step.inputs, scope);
  const trigger = child.plan.trigger;
  const specs = trigger.type === 'manual' ? trigger.inputs : {};
  const checked = applyRunInputs(specs, (provided ?? {}) as Record<string, unknown>);
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
  };
  const result = await executeChild<(input: RunDefinitionInput) => Promise<RunDefinitionResult>>(
    'runDefinition',
    { workflowId, args: [input], typedSearchAttributes: searchAttributes(child, ctx.facts.ownerId) },
  );
  return result.declared_outputs ?? {};
}
