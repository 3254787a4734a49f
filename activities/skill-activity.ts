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

/**
 * The UPSTREAM_RATE_LIMITED error (with Retry-After) of a provider this call will use whose
 * limit is used up now, or undefined when all have room. Reads only; charges nothing.
 */
export function providerWait(
  skill: LoadedSkill & { impl: SkillImplementation },
  input: unknown,
  limits: ProviderLimits,
): Promise<SkillflowError | undefined> {
  return limits.busy(`${skill.manifest.appId}.${skill.manifest.id}`, providerUsesOf(skill, input));
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
