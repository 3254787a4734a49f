/**
 * Fair use of provider budgets between owners: each owner may use at most
 * OWNER_PROVIDER_SHARE_PERCENT of each provider's limit (PROVIDER_RATE_LIMITS) in its window,
 * so one owner cannot drain a provider for everyone else. Kept apart from provider-limits.ts
 * (the shared budget itself) behind one call, `acquire(ownerId, providers, points)`, which the
 * caller makes before it charges the shared budget. Guests count as one owner, `anonymous`.
 *
 * A used-up share throws UPSTREAM_RATE_LIMITED with the time to the reset: on the workflow
 * route Temporal retries the activity then (the owner's own work waits, nobody else's), on the
 * anonymous route it is a 429 at once. Store-backed when given the platform store.
 */
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitsConfig } from '../config.js';
import { errors } from '../errors/errors.js';
import type { SkillflowError } from '../errors/skillflow-error.js';
import { isRejection, storeLimiter } from '../store/owners/rate-limits.js';
import type { Store } from '../store/db.js';
import { parseProviderRules, type LimitCounter, type ProviderRule } from './provider-limits.js';

/** The owner id guests are counted under. */
export const ANONYMOUS_OWNER = 'anonymous';

export class OwnerProviderShare {
  private readonly limiters = new Map<string, { limiter: RateLimiterAbstract; points: number }>();

  constructor(
    private readonly rules: ProviderRule[],
    readonly percent: number,
    private readonly store?: Store,
  ) {}

  /** Points an owner may use of this provider per window: its share of the provider's limit, at least 1. */
  sharePoints(provider: string): number | undefined {
    return this.limiterFor(provider)?.points;
  }

  private limiterFor(provider: string) {
    const rule =
      this.rules.find((r) => r.provider === provider) ?? this.rules.find((r) => r.provider === '*');
    if (!rule || this.percent >= 100) return undefined;
    let entry = this.limiters.get(rule.provider);
    if (!entry) {
      const points = Math.max(1, Math.floor((rule.points * this.percent) / 100));
      const spec = { keyPrefix: `owner-share:${rule.provider}`, points, durationSec: rule.durationSec };
      const limiter = this.store
        ? storeLimiter(this.store, spec)
        : new RateLimiterMemory({ keyPrefix: spec.keyPrefix, points, duration: spec.durationSec });
      entry = { limiter, points };
      this.limiters.set(rule.provider, entry);
    }
    return entry;
  }

  /**
   * The owner's share counter of `provider` for one request (undefined when shares are off or
   * the provider has no rule), for charging it together with others in one statement.
   */
  counter(ownerId: string, provider: string): LimitCounter | undefined {
    const entry = this.limiterFor(provider);
    const rule =
      this.rules.find((r) => r.provider === provider) ?? this.rules.find((r) => r.provider === '*');
    if (!entry || !rule) return undefined;
    return {
      charge: { key: entry.limiter.getKey(ownerId), points: 1, durationSec: rule.durationSec },
      limit: entry.points,
      error: (ms) => this.usedUp(provider, ms),
    };
  }

  /** Read-only: the error of the first used-up share among `providers`, or undefined. */
  async busy(ownerId: string, providers: readonly string[]): Promise<SkillflowError | undefined> {
    for (const provider of new Set(providers)) {
      const entry = this.limiterFor(provider);
      if (!entry) continue;
      const res = await entry.limiter.get(ownerId);
      if (res && res.consumedPoints >= entry.points) return this.usedUp(provider, res.msBeforeNext);
    }
    return undefined;
  }

  private usedUp(provider: string, msBeforeNext: number): SkillflowError {
    return errors.upstreamRateLimited({
      rule: `This account's share of the ${provider} provider limit is used up`,
      provider,
      details: { owner_share_percent: this.percent },
      retryAfterMs: msBeforeNext,
    });
  }

  /**
   * Charges `points` to the owner's share of each provider, all or nothing (what was charged
   * is given back when a later provider refuses); throws UPSTREAM_RATE_LIMITED when a share is used up.
   */
  async acquire(ownerId: string, providers: readonly string[], points: number): Promise<void> {
    const charged: RateLimiterAbstract[] = [];
    for (const provider of new Set(providers)) {
      const entry = this.limiterFor(provider);
      if (!entry) continue;
      try {
        await entry.limiter.consume(ownerId, points);
        charged.push(entry.limiter);
      } catch (err) {
        if (!isRejection(err)) throw err;
        await Promise.all(charged.map((l) => l.reward(ownerId, points)));
        throw this.usedUp(provider, err.msBeforeNext);
      }
    }
  }

  /** Gives back `points` acquired for requests that were not sent (another limit refused them). */
  async release(ownerId: string, providers: readonly string[], points: number): Promise<void> {
    for (const provider of new Set(providers))
      await this.limiterFor(provider)?.limiter.reward(ownerId, points);
  }
}

/** The owner shares from PROVIDER_RATE_LIMITS and OWNER_PROVIDER_SHARE_PERCENT. */
export function createOwnerProviderShare(config: LimitsConfig, store?: Store): OwnerProviderShare {
  return new OwnerProviderShare(
    parseProviderRules(config.PROVIDER_RATE_LIMITS),
    config.OWNER_PROVIDER_SHARE_PERCENT,
    store,
  );
}
