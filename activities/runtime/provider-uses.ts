/**
 * Which providers one call will use, and whether they have room before anything is sent. Every
 * runner asks this before dispatch: the activity (a used-up limit is retried by Temporal at the
 * reset), the authenticated route (the call is queued to the reset) and the anonymous route (a
 * 429 at once).
 */
import type { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { ProviderLimits } from '../../lib/limits/provider-limits.js';
import type { ProviderUse } from '../registry/types.js';
import type { RunnableSkill } from './run-skill.js';
import type { OwnerShare } from './upstream-meter.js';

/** The providers a call with this (validated) input will use: the skill's own answer, or all. */
export function providerUsesOf(skill: RunnableSkill, input: unknown): ProviderUse[] {
  return skill.impl.providerUses?.(input) ?? skill.manifest.providers.map((provider) => ({ provider }));
}

/**
 * The UPSTREAM_RATE_LIMITED error (with Retry-After) of a provider this call will use whose
 * limit, or whose share for the calling owner, is used up now; undefined when all have room.
 * Reads only; charges nothing.
 */
export async function providerWait(
  skill: RunnableSkill,
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
