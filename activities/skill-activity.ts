/**
 * Wraps a registered skill as a Temporal activity. The activity validates its input with the
 * skill's zod schema (references are resolved only at run time), checks the provider limits of
 * the providers the call will use, passes the cancellation signal, heartbeat and upstream meter,
 * heartbeats on the interval of the skill's policy (when the profile has a heartbeat timeout),
 * and converts failures once at the boundary.
 *
 * Retries: a used-up provider limit before anything was sent is retried by Temporal at the reset
 * time (the call is queued, not failed). Everything the skill itself answers, upstream failures
 * included, is final: re-running the skill would repeat its upstream requests.
 */
import { Context } from '@temporalio/activity';
import { parseOrThrow, SkillflowError } from '../lib/errors/skillflow-error.js';
import { toApplicationFailure } from './boundary.js';
import type { OwnerProviderShare } from '../lib/limits/owner-provider-share.js';
import type { ProviderLimits } from '../lib/limits/provider-limits.js';
import type { LoadedSkill, SkillContext, SkillImplementation } from './registry/types.js';
import { createUpstreamMeter, providerUsesOf, type OwnerShare } from './upstream-meter.js';
import { recordTaskDecisionUsage } from './task-decision-usage.js';
import type { UsageRecords } from '../lib/store/owners/usage-records.js';

export interface SkillActivityInput {
  input: unknown;
  /** `workflow`: the workflow-visible output; `full`: the REST body (output plus previews). */
  view: 'workflow' | 'full';
  /** The owner the call runs for: its share of each provider limit is charged too. */
  ownerId?: string;
}

/** What a skill activity charges per upstream request (see activities/index.ts). */
export interface ActivityLimits {
  providerLimits: ProviderLimits;
  ownerShare?: OwnerProviderShare | undefined;
}

export interface FullSkillResult {
  output: unknown;
  previews: unknown[];
}

/** Runs a skill outside Temporal (the API's in-process routes) or inside an activity. */
export async function runSkill(
  impl: SkillImplementation,
  rawInput: unknown,
  ctx: SkillContext,
): Promise<unknown> {
  return impl.run(parseOrThrow(impl.input, rawInput), ctx);
}

/**
 * The UPSTREAM_RATE_LIMITED error (with Retry-After) of a provider this call will use whose
 * limit, or whose share for the calling owner, is used up now; undefined when all have room.
 * Reads only; charges nothing.
 */
export async function providerWait(
  skill: LoadedSkill & { impl: SkillImplementation },
  input: unknown,
  limits: ProviderLimits,
  share?: OwnerShare,
): Promise<SkillflowError | undefined> {
  const uses = providerUsesOf(skill, input);
  // Both reads at once (one store round trip less on the request path); the share's error wins.
  const [own, provider] = await Promise.all([
    share?.share.busy(
      share.ownerId,
      uses.map((u) => u.provider),
    ),
    limits.busy(`${skill.manifest.appId}.${skill.manifest.id}`, uses),
  ]);
  return own ?? provider;
}

/**
 * The activity for one skill, metered against the provider limits (and the calling owner's
 * share of them) when given. With `usage`, a skill-call task's decision usage is written on its
 * usage record once the skill has run (activities/task-decision-usage.ts).
 */
export function skillActivity(
  skill: LoadedSkill & { impl: SkillImplementation },
  limits?: ActivityLimits,
  usage?: UsageRecords,
) {
  const { impl } = skill;
  const providerLimits = limits?.providerLimits;
  const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
  return async (req: SkillActivityInput): Promise<unknown> => {
    const ctx = Context.current();
    let input: unknown;
    try {
      input = parseOrThrow(impl.input, req.input);
      const share = ownerShareOf(limits, req.ownerId);
      const wait = providerLimits ? await providerWait(skill, input, providerLimits, share) : undefined;
      // Nothing was sent: Temporal retries at the reset time (nextRetryDelay).
      if (wait) throw wait;
    } catch (err) {
      throw toApplicationFailure(err);
    }
    const every = skill.policy.deadlines.heartbeatIntervalMs;
    // The interval beat repeats the skill's last details (its stage), so they are not cleared.
    let details: unknown;
    const beat = every === undefined ? undefined : setInterval(() => ctx.heartbeat(details), every);
    beat?.unref();
    const meter = createUpstreamMeter(ref, providerLimits, ownerShareOf(limits, req.ownerId));
    try {
      const output = await impl.run(input, {
        signal: ctx.cancellationSignal,
        heartbeat: (d) => {
          details = d;
          ctx.heartbeat(d);
        },
        anonymous: false,
        meter,
      });
      if (req.view === 'workflow') return impl.toWorkflowOutput(output);
      return { output, previews: impl.previews(output) } satisfies FullSkillResult;
    } catch (err) {
      // Cancellation must stay a cancellation (the signal's reason is a CancelledFailure).
      if (ctx.cancellationSignal.aborted) throw err;
      throw toApplicationFailure(err, { final: true });
    } finally {
      clearInterval(beat);
      await recordTaskDecisionUsage(
        usage && {
          usage,
          warn: (message, fields) => {
            ctx.log.warn(message, fields);
          },
        },
        { workflowType: ctx.info.workflowType ?? '', taskId: ctx.info.workflowExecution?.workflowId ?? '' },
        meter.decisionUsage(),
      );
    }
  };
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
