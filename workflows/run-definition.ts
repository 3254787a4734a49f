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
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  defineQuery,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { ActivityPolicy } from '../activities/policy.js';
import type { ChatDelivery, DeliveredChatMessage } from '../activities/platform/chat-delivery.js';
import type { SkillActivityInput } from '../activities/runtime/skill-activity.js';
import type { DecideStepActivity } from '../activities/decision/decide-step.js';
import {
  callsActivity,
  evaluateCondition,
  renderTemplate,
  resolveInput,
  waitUntil,
  type ActivityPlanStep,
  type FailPlanStep,
  type Plan,
  type RunScope,
  type WaitPlanStep,
} from '../definitions/runtime/index.js';
import {
  PROGRESS_MEMO_KEY,
  pendingStep,
  summarise,
  type RunProgress,
  type StepProgress,
} from './progress.js';
import { activityOptions } from './activity-options.js';
import { stepError } from './step-error.js';

export interface RunDefinitionInput {
  plan: Plan;
  definitionId: string;
  definitionVersion: number;
  ownerId: string;
  trigger: 'manual' | 'schedule';
  /** Run inputs, already validated and defaulted against the plan's declared inputs. */
  inputs: Record<string, unknown>;
  /** Activity options per step id, from the policy module at start time. */
  policies: Record<string, ActivityPolicy>;
}

export interface RunDefinitionResult {
  /** Workflow-visible output of every step that ran, by step id. */
  outputs: Record<string, unknown>;
  steps: StepProgress[];
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
    steps: plan.steps.map((s) => pendingStep(s.id)),
  };
  setHandler(progressQuery, () => progress);
  const perStepMemo = !patched(PROGRESS_BY_QUERY_PATCH);
  /** A step state change: recorded in the memo only by runs from before the patch. */
  const publish = () => {
    if (perStepMemo) upsertMemo({ [PROGRESS_MEMO_KEY]: progress });
  };
  /** The run ends without a result: the memo keeps its final progress for the task view. */
  const publishFinal = () => upsertMemo({ [PROGRESS_MEMO_KEY]: progress });
  const scope: RunScope = { inputs: args.inputs, steps: {} };
  const now = () => new Date().toISOString(); // workflow time: deterministic on replay

  for (const [index, step] of plan.steps.entries()) {
    const state = progress.steps[index]!;
    if (step.if && !evaluateCondition(step.if, scope)) {
      state.status = 'skipped';
      publish();
      continue;
    }
    state.status = 'running';
    state.started_at = now();
    publish();
    try {
      let output: unknown;
      // Wait and fail steps are newer than plan version 1: older plans never reach them, so
      // every older history issues the same commands (the replay test proves it).
      if (step.kind === 'wait') output = await waitStep(step, scope, state);
      else if (step.kind === 'fail') failStep(step, scope);
      else if (!callsActivity(step))
        // Work in progress: the interpreter of for_each and parallel lands with them.
        throw ApplicationFailure.nonRetryable('This step kind is not supported yet.', 'INTERNAL');
      else {
        const policy = args.policies[step.id];
        if (!policy) throw ApplicationFailure.nonRetryable('A step has no activity policy.', 'INTERNAL');
        output = await runStep(step, scope, policy, args);
      }
      scope.steps[step.id] = output;
      state.status = 'completed';
      state.output_summary = summarise(output);
    } catch (err) {
      state.finished_at = now();
      if (isCancellation(err)) {
        state.status = 'cancelled';
        for (const later of progress.steps.slice(index + 1)) later.status = 'cancelled';
        publishFinal();
        throw err instanceof CancelledFailure ? err : new CancelledFailure('cancelled');
      }
      state.status = 'failed';
      state.error = stepError(err);
      if (step.kind === 'fail') {
        publishFinal();
        // The author's message travels in the failure's details and the progress memo (both
        // encoded); the failure's own message stays the platform's, so the task view tells a
        // fail step's error (its details) from a failed step's.
        throw ApplicationFailure.create({
          type: state.error.code,
          message: 'The run ended at a fail step.',
          nonRetryable: true,
          details: [{ step: step.id, fail_message: state.error.message }],
        });
      }
      if (!step.continueOnError) {
        publishFinal();
        throw ApplicationFailure.create({
          type: state.error.code,
          // The step id is the author's label: it travels in details (encoded), not the message.
          message: `A step failed: ${state.error.message}`,
          nonRetryable: true,
          details: [{ step: step.id }],
        });
      }
      // The uniform step output shape, so later steps can still read a count of 0.
      scope.steps[step.id] =
        step.kind === 'skill'
          ? { results: [], result_count: 0, raw: null, error: state.error }
          : { error: state.error };
      publish();
      continue;
    }
    state.finished_at = now();
    publish();
  }
  return { outputs: scope.steps, steps: progress.steps };
}

/**
 * Sleeps on a durable timer until the step's instant (workflow time, so replay agrees) and
 * answers `{ until, waited_ms }`. A rendered `until` that is not an instant, or lies more than
 * 366 days ahead, fails the step (INVALID_WAIT_UNTIL, WAIT_TOO_LONG); one that has passed
 * continues at once, without a timer.
 */
async function waitStep(
  step: WaitPlanStep,
  scope: RunScope,
  state: StepProgress,
): Promise<{ until: string; waited_ms: number }> {
  const nowMs = Date.now();
  let ms = step.durationMs ?? 0;
  if (step.until) {
    const planned = waitUntil(renderTemplate(step.until, scope), nowMs);
    if ('code' in planned) throw ApplicationFailure.nonRetryable(planned.message, planned.code);
    ms = planned.ms;
  }
  const until = new Date(nowMs + ms).toISOString();
  state.wake_at = until;
  if (ms > 0) await sleep(ms);
  return { until, waited_ms: ms };
}

/** The longest message of a fail step, in characters; a longer rendering is cut and marked. */
const MAX_FAIL_MESSAGE_CHARS = 2_000;

/** Ends the step with the author's code and rendered message (caught and reported by the loop). */
function failStep(step: FailPlanStep, scope: RunScope): never {
  const text = renderTemplate(step.message, scope);
  const message =
    text.length <= MAX_FAIL_MESSAGE_CHARS ? text : `${text.slice(0, MAX_FAIL_MESSAGE_CHARS - 1)}…`;
  throw ApplicationFailure.create({ type: step.code, message, nonRetryable: true });
}

async function runStep(
  step: ActivityPlanStep,
  scope: RunScope,
  policy: ActivityPolicy,
  args: RunDefinitionInput,
): Promise<unknown> {
  if (step.kind === 'skill') {
    const acts = proxyActivities<Record<string, (req: SkillActivityInput) => Promise<unknown>>>(
      activityOptions(policy),
    );
    const activity = acts[step.activity]!;
    return activity({ input: resolveInput(step.input, scope), view: 'workflow', ownerId: args.ownerId });
  }
  if (step.kind === 'decide') {
    // A step kind added after plan version 1: only plans compiled since then hold it, so the
    // code path of every older history is unchanged (no patch needed; the replay test proves it).
    const { decideStep } = proxyActivities<DecideStepActivity>(activityOptions(policy));
    return decideStep({
      ownerId: args.ownerId,
      taskId: workflowInfo().workflowId,
      decision: step.decision,
      question: renderTemplate(step.question, scope),
      ...(step.context && { context: renderTemplate(step.context, scope) }),
    });
  }
  const { deliverChatMessage } = proxyActivities<ChatDelivery>(activityOptions(policy));
  const message: DeliveredChatMessage = await deliverChatMessage({
    ownerId: args.ownerId,
    // The default chat id matches lib/chat-id.ts, so POST /v1/chats/messages can read it.
    chatId: step.chatId ? renderTemplate(step.chatId, scope) : `workflow:${args.definitionId}`,
    title: renderTemplate(step.title, scope),
    message: renderTemplate(step.message, scope),
    taskId: workflowInfo().workflowId,
    stepId: step.id,
  });
  return message;
}
