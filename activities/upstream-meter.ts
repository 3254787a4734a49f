/**
 * The upstream meter of one skill call: every request a skill is about to send to an upstream
 * provider goes through {@link UpstreamMeter.charge} first. It charges that provider's limit
 * (provider limits are tracked per provider, skill and model) once per request actually
 * made, and counts what was sent, so the platform knows whether a call reached any upstream
 * (an anonymous call that sent nothing is refunded) and can record it in the usage records.
 */
import type { OwnerProviderShare } from '../lib/limits/owner-provider-share.js';
import type { ProviderLimits } from '../lib/limits/provider-limits.js';
import type { LoadedSkill, ProviderUse, SkillImplementation, UpstreamMeter } from './registry/types.js';

/** The calling owner's share of the provider limits (lib/limits/owner-provider-share.ts). */
export interface OwnerShare {
  share: OwnerProviderShare;
  ownerId: string;
}

/** Decision-helper usage of one call: input tokens and their cost. */
export interface DecisionTally {
  add(usage: { input_tokens: number; cost_usd: number }): void;
  total(): { input_tokens: number; cost_usd: number };
}

/** Sums a call's decision usage (cost in nano-dollars, so many small costs add up exactly). */
export function createDecisionTally(): DecisionTally {
  const decision = { input_tokens: 0, cost_usd: 0 };
  return {
    add(u) {
      decision.input_tokens += u.input_tokens;
      decision.cost_usd = Math.round((decision.cost_usd + u.cost_usd) * 1e9) / 1e9;
    },
    total: () => ({ ...decision }),
  };
}

/**
 * A meter for one call of `skill` (`<app>.<skill>`): each request is charged to the calling
 * owner's share of the provider first (fair use between tenants), then to the provider limit.
 * Without `limits` it only counts (tests, benchmarks, deployments without provider limits).
 */
export function createUpstreamMeter(
  skill: string,
  limits?: ProviderLimits,
  owner?: OwnerShare,
): UpstreamMeter {
  const counts: Record<string, number> = {};
  const decision = createDecisionTally();
  return {
    async charge(provider, model) {
      await owner?.share.acquire(owner.ownerId, [provider], 1);
      await limits?.charge(provider, skill, model);
      counts[provider] = (counts[provider] ?? 0) + 1;
    },
    sent: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    addDecisionUsage: (u) => decision.add(u),
    decisionUsage: () => decision.total(),
  };
}

/** The providers a call with this (validated) input will use: the skill's own answer, or all. */
export function providerUsesOf(
  skill: LoadedSkill & { impl: SkillImplementation },
  input: unknown,
): ProviderUse[] {
  return skill.impl.providerUses?.(input) ?? skill.manifest.providers.map((provider) => ({ provider }));
}
