/**
 * The one interpreter workflow: walks a compiled plan's steps in order. The plan and the
 * activity policies are snapshotted in the input, so a run never sees later edits. Skill steps
 * run their skill's activity; chat steps render their templates here (pure, sandboxed) and an
 * activity delivers the message; decide steps render their question and context here and an
 * activity asks the decision helper (a fallback is an answer, not a failure). Wait steps sleep
 * on a durable timer (no activity, no worker held); fail steps end the run with the author's
 * code. Live progress is answered by the `progress` query; the memo is
 * written by the API at start and, by this workflow, only when a run fails or is cancelled (a
 * completed run's result carries its steps). Runs started before that change (no
 * `PROGRESS_BY_QUERY_PATCH` marker) keep upserting the memo on every step change, so their
 * histories replay unchanged.
 */
import {
  ApplicationFailure,
  CancelledFailure,
  defineQuery,
  isCancellation,
  patched,
  setHandler,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { ActivityPolicy } from '../activities/policy.js';
import { resolveInput, type Plan, type RunScope } from '../definitions/runtime/index.js';
import {
  PROGRESS_MEMO_KEY,
  listedSteps,
  pendingSteps,
  type RunProgress,
  type StepProgress,
} from './progress.js';
import { STEP_FAILED_PREFIX, type RunContext, type SequenceFailure } from './run-context.js';
import { LOOP_OUTPUT_BUDGET } from './loop-elements.js';
import { Approvals } from './approvals.js';
import { EventWaits } from './event-waits.js';
import { runSequence } from './sequence.js';
import { recordFailedStep } from './failed-step.js';
import { stepError } from './step-error.js';
import { RECORDED_MEMO_KEY, recordedOutputs, type RerunReuse } from './rerun.js';
import type { ElementResult } from './loop-elements.js';
import { slotsOf } from './run-flow.js';

export interface RunDefinitionInput {
  plan: Plan;
  definitionId: string;
  definitionVersion: number;
  ownerId: string;
  /** `workflow`: started by a parent run's `use_workflow` step. */
  trigger: 'manual' | 'schedule' | 'workflow' | 'event' | 'webhook';
  /** Run inputs, already validated and defaulted against the plan's declared inputs. */
  inputs: Record<string, unknown>;
  /** Activity options per step id, from the policy module at start time. */
  policies: Record<string, ActivityPolicy>;
  /** The definitions its `use_workflow` steps run, by step id, resolved at start (a snapshot). */
  children?: Record<string, ChildRunSnapshot>;
  /** A re-run: the earlier run's outputs it takes over instead of running those steps (rerun.ts). */
  reuse?: RerunReuse;
  /**
   * The owner's cap on runs with a step running (run-slots.ts), as configured when the run
   * started; absent: the run does not count toward it (a child run, or no cap).
   */
  ownerCap?: number;
  /**
   * The restricted scopes the run was granted (activities/registry/restricted-options.ts): the
   * starting key's, or for a run with no key (a schedule's, a webhook's) those its definition
   * writes literally, which the saving key was checked for.
   */
  grants?: string[];
}

/** One `use_workflow` step's child, as resolved when the run started. */
export interface ChildRunSnapshot {
  definitionId: string;
  definitionVersion: number;
  plan: Plan;
  policies: Record<string, ActivityPolicy>;
  children?: Record<string, ChildRunSnapshot>;
}

export interface RunDefinitionResult {
  /** Workflow-visible output of every step that ran, by step id. */
  outputs: Record<string, unknown>;
  steps: StepProgress[];
  /** The definition's declared `outputs`, resolved at the end (what a parent step receives). */
  declared_outputs?: Record<string, unknown>;
}

export const progressQuery = defineQuery<RunProgress>('progress');

/**
 * Patch id of the query-only progress path: no memo write per step state change (a history
 * event and a visibility update each). Deprecate it with `deprecatePatch` once no run started
 * before it is open, then drop the old branch.
 */
export const PROGRESS_BY_QUERY_PATCH = 'progress-by-query';

export async function runDefinition(args: RunDefinitionInput): Promise<RunDefinitionResult> {
  const { plan } = args;
  const progress: RunProgress = {
    steps: pendingSteps(plan.steps),
  };
  setHandler(progressQuery, () => progress);
  const perStepMemo = !patched(PROGRESS_BY_QUERY_PATCH);
  /** A step state change: recorded in the memo only by runs from before the patch. */
  const publish = () => {
    if (perStepMemo) upsertMemo({ [PROGRESS_MEMO_KEY]: progress });
  };
  const scope: RunScope = { inputs: args.inputs, steps: {} };
  const loops = new Map<string, ElementResult[]>();
  /**
   * The run ends without a result: the memo keeps its final progress for the task view, and the
   * outputs so far for a re-run (both encoded like every payload).
   */
  const publishFinal = () => {
    const recorded = recordedOutputs(scope.steps, loops);
    upsertMemo({ [PROGRESS_MEMO_KEY]: progress, ...(recorded && { [RECORDED_MEMO_KEY]: recorded }) });
  };
  const states = new Map(listedSteps(plan.steps).map(({ step }, i) => [step, progress.steps[i]!] as const));
  const taskId = workflowInfo().workflowId;
  let children = 0;
  const ctx: RunContext = {
    facts: {
      definitionId: args.definitionId,
      definitionVersion: args.definitionVersion,
      ownerId: args.ownerId,
      taskId,
      policies: args.policies,
      ...(args.children && { children: args.children }),
      ...(args.grants && { grants: args.grants }),
    },
    prefix: '',
    stateOf: (step) => states.get(step)!,
    publish,
    now: () => new Date().toISOString(), // workflow time: deterministic on replay
    childId: () => `${taskId}.${(children += 1)}`,
    budget: { left: LOOP_OUTPUT_BUDGET },
    // The Update handler is registered for every run (a handler issues no command); only plans
    // with wait_for_approval steps ever wait for it.
    approvals: new Approvals(() => new Date().toISOString()),
    events: new EventWaits(),
    loops,
    ...(args.reuse && { reuse: args.reuse }),
  };
  // Flow control: only runs of a plan with `concurrency`, or counted toward an owner cap.
  const slots = slotsOf(args, scope, (queued) => {
    progress.queued = queued || undefined;
  });
  if (slots) ctx.slots = slots;
  let failure: SequenceFailure | undefined;
  try {
    await slots?.acquire();
    failure = await runSequence(plan.steps, scope, ctx);
  } catch (err) {
    if (!isCancellation(err)) throw err;
    publishFinal();
    throw err instanceof CancelledFailure ? err : new CancelledFailure('cancelled');
  } finally {
    await slots?.release();
  }
  if (failure) {
    const { step, error, ended } = failure;
    publishFinal();
    recordFailedStep(step);
    if (ended !== undefined)
      // A fail step ended the run (at any depth). The author's message travels in the failure's
      // details and the progress memo (both encoded); the failure's own message stays the
      // platform's, so the task view tells a fail step's error (its details) from a failed step's.
      throw ApplicationFailure.create({
        type: error.code,
        message: 'The run ended at a fail step.',
        nonRetryable: true,
        details: [{ step: ended, fail_message: error.message }],
      });
    throw ApplicationFailure.create({
      type: error.code,
      // The step id is the author's label: it travels in details (encoded), not the message.
      message: `${STEP_FAILED_PREFIX}${error.message}`,
      nonRetryable: true,
      details: [{ step }],
    });
  }
  if (!plan.outputs) return { outputs: scope.steps, steps: progress.steps };
  return { outputs: scope.steps, steps: progress.steps, declared_outputs: declaredOutputs(plan, scope) };
}

/**
 * The definition's declared outputs. One that renders past its budget fails the run (not the
 * workflow task, which would retry forever) with the renderer's code.
 */
function declaredOutputs(plan: Plan, scope: RunScope): Record<string, unknown> {
  const declared: Record<string, unknown> = {};
  try {
    for (const { name, value } of plan.outputs ?? []) declared[name] = resolveInput(value, scope);
  } catch (err) {
    const { code, message } = stepError(err);
    throw ApplicationFailure.nonRetryable(message, code);
  }
  return declared;
}
