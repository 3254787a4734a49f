/**
 * Wraps a registered skill as a Temporal activity. The activity validates its input with the
 * skill's zod schema (references are resolved only at run time), passes the cancellation
 * signal and heartbeat, and converts failures once at the boundary.
 */
import { Context } from '@temporalio/activity';
import { parseOrThrow, SkillflowError } from '../lib/errors/skillflow-error.js';
import { toApplicationFailure } from './boundary.js';
import type { OwnerProviderShare } from './owner-provider-share.js';
import { requestItems, type ProviderLimits } from './provider-limits.js';
import type { SkillContext, SkillImplementation, SkillManifest } from './registry/types.js';

export interface SkillActivityInput {
  input: unknown;
  /** `workflow`: the workflow-visible output; `full`: the REST body (output plus previews). */
  view: 'workflow' | 'full';
  /** The owner the call runs for: charged its share of provider budgets first. */
  ownerId?: string;
}

/** What a skill activity charges before it runs (see activities/index.ts). */
export interface ActivityLimits {
  manifest: SkillManifest;
  providerLimits: ProviderLimits;
  ownerShare?: OwnerProviderShare;
}

export interface FullSkillResult {
  output: unknown;
  previews: unknown[];
}

/** Runs a skill outside Temporal (the anonymous route) or inside an activity. */
export async function runSkill(
  impl: SkillImplementation,
  rawInput: unknown,
  ctx: SkillContext,
): Promise<unknown> {
  return impl.run(parseOrThrow(impl.input, rawInput), ctx);
}

function activityContext(): SkillContext {
  const ctx = Context.current();
  return { signal: ctx.cancellationSignal, heartbeat: (d) => ctx.heartbeat(d), anonymous: false };
}

/**
 * The activity for one skill. With provider limits, a valid input first charges the owner's
 * share of each provider (when both are known), then the skill's provider counters; a used-up
 * limit throws UPSTREAM_RATE_LIMITED, which the boundary turns into a retry at the reset time.
 */
export function skillActivity(impl: SkillImplementation, limits?: ActivityLimits) {
  return async (req: SkillActivityInput): Promise<unknown> => {
    try {
      const input = parseOrThrow(impl.input, req.input);
      if (limits) {
        if (limits.ownerShare && req.ownerId)
          await limits.ownerShare.acquire(req.ownerId, limits.manifest.providers, requestItems(input));
        await limits.providerLimits.acquire(limits.manifest, requestItems(input));
      }
      const output = await impl.run(input, activityContext());
      if (req.view === 'workflow') return impl.toWorkflowOutput(output);
      return { output, previews: impl.previews(output) } satisfies FullSkillResult;
    } catch (err) {
      // Cancellation must stay a cancellation (the signal's reason is a CancelledFailure).
      if (Context.current().cancellationSignal.aborted) throw err;
      throw toApplicationFailure(err);
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
