/**
 * The steps that hold no other steps: a skill, chat or decide step calls its activity; a wait
 * step sleeps on a durable timer; a fail step ends with the author's code. Deterministic.
 */
import { ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { ActivityPolicy } from '../activities/policy.js';
import type { ChatDelivery, DeliveredChatMessage } from '../activities/platform/chat-delivery.js';
import type { SkillActivityInput } from '../activities/runtime/skill-activity.js';
import type { DecideStepActivity } from '../activities/decision/decide-step.js';
import {
  cutText,
  renderTemplate,
  resolveInput,
  waitUntil,
  type ActivityPlanStep,
  type FailPlanStep,
  type RunScope,
  type WaitPlanStep,
} from '../definitions/runtime/index.js';
import { activityOptions } from './activity-options.js';
import type { StepProgress } from './progress.js';
import type { RunContext } from './run-context.js';

/**
 * Sleeps on a durable timer until the step's instant (workflow time, so replay agrees) and
 * answers `{ until, waited_ms }`. A rendered `until` that is not an instant, or lies more than
 * 366 days ahead, fails the step (INVALID_WAIT_UNTIL, WAIT_TOO_LONG); one that has passed
 * continues at once, without a timer.
 */
export async function waitStep(
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
export function failStep(step: FailPlanStep, scope: RunScope): never {
  const message = cutText(renderTemplate(step.message, scope), MAX_FAIL_MESSAGE_CHARS);
  throw ApplicationFailure.create({ type: step.code, message, nonRetryable: true });
}

export async function activityStep(
  step: ActivityPlanStep,
  scope: RunScope,
  policy: ActivityPolicy,
  ctx: Pick<RunContext, 'facts' | 'prefix'>,
): Promise<unknown> {
  const args = ctx.facts;
  if (step.kind === 'skill') {
    const acts = proxyActivities<Record<string, (req: SkillActivityInput) => Promise<unknown>>>(
      activityOptions(policy),
    );
    const activity = acts[step.activity]!;
    return activity({
      input: resolveInput(step.input, scope),
      view: 'workflow',
      ownerId: args.ownerId,
      stepId: ctx.prefix + step.id,
      ...(args.grants && { grants: args.grants }),
    });
  }
  if (step.kind === 'decide') {
    // A step kind added after plan version 1: only plans compiled since then hold it, so the
    // code path of every older history is unchanged (no patch needed; the replay test proves it).
    const { decideStep } = proxyActivities<DecideStepActivity>(activityOptions(policy));
    return decideStep({
      ownerId: args.ownerId,
      taskId: args.taskId,
      stepId: ctx.prefix + step.id,
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
    taskId: args.taskId,
    stepId: ctx.prefix + step.id,
  });
  return message;
}
