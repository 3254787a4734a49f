/**
 * The upstream meter of one skill call: every request a skill is about to send to an upstream
 * provider goes through {@link UpstreamMeter.charge} first. It charges that provider's limit
 * (spec 8: provider limits are tracked per provider, skill and model) once per request actually
 * made, and counts what was sent, so the platform knows whether a call reached any upstream
 * (an anonymous call that sent nothing is refunded) and can record it in the usage records.
 */
import type { ProviderLimits } from './provider-limits.js';
import type { LoadedSkill, ProviderUse, SkillImplementation, UpstreamMeter } from './registry/types.js';

/**
 * A meter for one call of `skill` (`<app>.<skill>`). Without `limits` it only counts (tests,
 * benchmarks and deployments without provider limits).
 */
export function createUpstreamMeter(skill: string, limits?: ProviderLimits): UpstreamMeter {
  const counts: Record<string, number> = {};
  return {
    async charge(provider, model) {
      await limits?.charge(provider, skill, model);
      counts[provider] = (counts[provider] ?? 0) + 1;
    },
    sent: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
  };
}

/** The providers a call with this (validated) input will use: the skill's own answer, or all. */
export function providerUsesOf(
  skill: LoadedSkill & { impl: SkillImplementation },
  input: unknown,
): ProviderUse[] {
  return skill.impl.providerUses?.(input) ?? skill.manifest.providers.map((provider) => ({ provider }));
}
