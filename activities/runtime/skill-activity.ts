/**
 * A registered skill as a Temporal activity: an adapter of the activity Context onto
 * {@link runSkill}. The activity validates its input with the skill's zod schema (references
 * are resolved only at run time), checks the provider limits of the providers the call will use,
 * then runs the skill with Temporal's cancellation signal, heartbeat and an upstream meter, and
 * converts failures once at the boundary.
 *
 * Retries: a used-up provider limit before anything was sent is retried by Temporal at the reset
 * time (the call is queued, not failed). Everything the skill itself answers, upstream failures
 * included, is final: re-running the skill would repeat its upstream requests.
 *
 * A long-running (async) skill sends several requests over minutes: when our own limit is used
 * up mid-call, its meter waits for the reset within the attempt's deadline (the runner keeps
 * heartbeating meanwhile) and refuses only a wait that would pass it. A skill-call task our own
 * limit refused for good is not billed (activities/task-usage-refund.ts).
 */
import { Context, type Info } from '@temporalio/activity';
import { parseOrThrow, SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { UsageRecords } from '../../lib/store/owners/usage-records.js';
import type { OwnerProviderShare } from '../../lib/limits/owner-provider-share.js';
import type { ProviderLimits } from '../../lib/limits/provider-limits.js';
import { recordTaskDecisionUsage, type TaskUsageTarget } from '../task-decision-usage.js';
import { refundRefusedTask } from '../task-usage-refund.js';
import { refuseUngranted } from '../registry/restricted-options.js';
import { toApplicationFailure } from './boundary.js';
import { providerWait } from './provider-uses.js';
import { runSkill, type OutputView, type RunnableSkill } from './run-skill.js';
import { createUpstreamMeter, type OwnerShare } from './upstream-meter.js';

export interface SkillActivityInput {
  input: unknown;
  /** `workflow`: the workflow-visible output; `full`: the REST body (output plus previews). */
  view: OutputView;
  /** The owner the call runs for: its share of each provider limit is charged too. */
  ownerId?: string;
  /** The plan step that scheduled it (a workflow run's skill step): a label on its trace span only. */
  stepId?: string;
  /**
   * The restricted scopes the call or run was granted (activities/registry/restricted-options.ts):
   * an input that sends a restricted value without its scope is refused before anything is sent.
   */
  grants?: string[];
}

/** What a skill activity charges per upstream request (see activities/index.ts). */
export interface ActivityLimits {
  providerLimits: ProviderLimits;
  ownerShare?: OwnerProviderShare | undefined;
}

/**
 * The activity for one skill, metered against the provider limits (and the calling owner's
 * share of them) when given. With `usage`, a skill-call task's decision usage is written on its
 * usage record once the skill has run (activities/task-decision-usage.ts).
 */
export function skillActivity(skill: RunnableSkill, limits?: ActivityLimits, usage?: UsageRecords) {
  const providerLimits = limits?.providerLimits;
  const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
  // A long-running skill sends several requests over minutes: it waits for our own limits.
  const waits = skill.manifest.capabilities.mode === 'async';
  return async (req: SkillActivityInput): Promise<unknown> => {
    const ctx = Context.current();
    const startedAt = Date.now();
    const share = ownerShareOf(limits, req.ownerId);
    const target: TaskUsageTarget | undefined = usage && {
      usage,
      warn: (message, fields) => {
        ctx.log.warn(message, fields);
      },
    };
    const task = {
      workflowType: ctx.info.workflowType ?? '',
      taskId: ctx.info.workflowExecution?.workflowId ?? '',
    };
    let input: unknown;
    try {
      input = parseOrThrow(skill.impl.input, req.input);
      refuseUngranted(skill.manifest, input, req.grants ?? []);
      const wait = providerLimits ? await providerWait(skill, input, providerLimits, share) : undefined;
      // Nothing was sent: Temporal retries at the reset time (nextRetryDelay); after the last
      // attempt the refusal is final and the call is not billed.
      if (wait) {
        if (isLastAttempt(ctx.info)) await refundRefusedTask(target, task);
        throw wait;
      }
    } catch (err) {
      throw toApplicationFailure(err);
    }
    const meter = createUpstreamMeter({
      skill: ref,
      limits: providerLimits,
      share,
      ...(waits && {
        wait: { deadlineAt: attemptDeadline(ctx.info, startedAt), signal: ctx.cancellationSignal },
      }),
    });
    try {
      return await runSkill(skill, input, {
        view: req.view,
        meter,
        anonymous: false,
        signal: ctx.cancellationSignal,
        heartbeat: (d) => ctx.heartbeat(d),
        validated: true,
      });
    } catch (err) {
      // Cancellation must stay a cancellation (the signal's reason is a CancelledFailure).
      if (ctx.cancellationSignal.aborted) throw err;
      if (err === meter.refusal()) await refundRefusedTask(target, task);
      throw toApplicationFailure(err, { final: true });
    } finally {
      await recordTaskDecisionUsage(target, task, meter.decisionUsage());
    }
  };
}

/**
 * When this attempt must end: its start-to-close limit, or the activity's schedule-to-close
 * limit when that comes first.
 */
function attemptDeadline(info: Info, startedAt: number): number {
  const own = startedAt + info.startToCloseTimeoutMs;
  const all =
    info.scheduleToCloseTimeoutMs > 0 ? info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs : own;
  return Math.min(own, all);
}

/** Whether Temporal runs no attempt after this one. */
function isLastAttempt(info: Info): boolean {
  const max = info.retryPolicy?.maximumAttempts ?? 0;
  return max > 0 && info.attempt >= max;
}

function ownerShareOf(
  limits: ActivityLimits | undefined,
  ownerId: string | undefined,
): OwnerShare | undefined {
  return limits?.ownerShare && ownerId ? { share: limits.ownerShare, ownerId } : undefined;
}

/** The activity used when a plan names a skill this worker could not load. */
export function unavailableSkillActivity(ref: string) {
  return (): Promise<never> =>
    Promise.reject(
      toApplicationFailure(new SkillflowError('SKILL_NOT_FOUND', `The skill ${ref} is not available.`)),
    );
}
