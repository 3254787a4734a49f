/**
 * Wraps a registered skill as a Temporal activity. The activity validates its input with the
 * skill's zod schema (references are resolved only at run time), checks the provider limits of
 * the providers the call will use, passes the cancellation signal, heartbeat and upstream meter,
 * and converts failures once at the boundary.
 *
 * Retries: a used-up provider limit before anything was sent is retried by Temporal at the reset
 * time (the call is queued, not failed). Everything the skill itself answers, upstream failures
 * included, is final: re-running the skill would repeat its upstream requests (spec 4.3 rule 9).
 */
import { Context } from '@temporalio/activity';
import { parseOrThrow, SkillflowError } from '../lib/errors/skillflow-error.js';
import { toApplicationFailure } from './boundary.js';
import type { ProviderLimits } from './provider-limits.js';
import type { LoadedSkill, SkillContext, SkillImplementation } from './registry/types.js';
import { createUpstreamMeter, providerUsesOf } from './upstream-meter.js';

export interface SkillActivityInput {
  input: unknown;
  /** `workflow`: the workflow-visible output; `full`: the REST body (output plus previews). */
  view: 'workflow' | 'full';
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

/** Seconds until the providers this call will use have room, as a queueing error, or nothing. */
export async function providerWait(
  skill: LoadedSkill & { impl: SkillImplementation },
  input: unknown,
  limits: ProviderLimits,
): Promise<SkillflowError | undefined> {
  const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
  const uses = providerUsesOf(skill, input);
  const seconds = await limits.waitSeconds(ref, uses);
  if (seconds === 0) return undefined;
  return new SkillflowError(
    'UPSTREAM_RATE_LIMITED',
    `A provider limit of ${ref} is reached; retry in ${seconds} s.`,
    { skill: ref, retry_after_seconds: seconds },
    seconds * 1000,
  );
}

/** The activity for one skill, metered against `providerLimits` when given. */
export function skillActivity(
  skill: LoadedSkill & { impl: SkillImplementation },
  providerLimits?: ProviderLimits,
) {
  const { impl } = skill;
  const ref = `${skill.manifest.appId}.${skill.manifest.id}`;
  return async (req: SkillActivityInput): Promise<unknown> => {
    const ctx = Context.current();
    let input: unknown;
    try {
      input = parseOrThrow(impl.input, req.input);
      const wait = providerLimits ? await providerWait(skill, input, providerLimits) : undefined;
      // Nothing was sent: Temporal retries at the reset time (nextRetryDelay).
      if (wait) throw wait;
    } catch (err) {
      throw toApplicationFailure(err);
    }
    try {
      const output = await impl.run(input, {
        signal: ctx.cancellationSignal,
        heartbeat: (d) => ctx.heartbeat(d),
        anonymous: false,
        meter: createUpstreamMeter(ref, providerLimits),
      });
      if (req.view === 'workflow') return impl.toWorkflowOutput(output);
      return { output, previews: impl.previews(output) } satisfies FullSkillResult;
    } catch (err) {
      // Cancellation must stay a cancellation (the signal's reason is a CancelledFailure).
      if (ctx.cancellationSignal.aborted) throw err;
      throw toApplicationFailure(err, { final: true });
    }
  };
}

/** The activity used when a plan names a skill this worker could not load. */
export function unavailableSkillActivity(ref: string) {
  return (): Promise<never> =>
    Promise.reject(
      toApplicationFailure(new SkillflowError('SKILL_NOT_FOUND', `The skill ${ref} is not available.`)),
    );
}
