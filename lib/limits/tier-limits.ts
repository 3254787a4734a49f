/**
 * Per-tier request limits for authenticated routes (per-user limits depend on the
 * subscription tier; on the authenticated route tasks are queued instead of rejected, so a
 * skill call over the limit is queued to the reset time and other routes answer 429). One
 * store-backed counter per owner and tier, one-minute windows, shared by every API replica.
 * Every authenticated response carries X-RateLimit-Limit, X-RateLimit-Remaining and
 * X-RateLimit-Reset (seconds until the window resets).
 *
 * A request that only needs the tier counter spends it a lease at a time
 * (lib/limits/counter-leases.ts, {@link defaultLease}: a thirtieth of the limit, at least
 * 1 token), so most requests make no store round trip: all replicas together never admit more
 * than the limit per owner and minute, and with P replicas an owner may be refused once
 * `limit − (lease − 1) × (P − 1)` requests were admitted. X-RateLimit-Remaining is what this
 * replica knows: the others' unused lease tokens count as used. A skill call charges the tier
 * counter in its own statement together with its provider counters (api/services/call-limits.ts).
 */
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { LimitsConfig } from '../config.js';
import { errors } from '../errors/errors.js';
import type { SkillflowError } from '../errors/skillflow-error.js';
import { TIERS, type Principal, type Tier } from '../keys.js';
import type { Store } from '../store/db.js';
import { defaultLease, type CounterLeases, type LeasedCounter } from './counter-leases.js';
import { storeLimiter, type CounterState } from '../store/owners/rate-limits.js';

export const TIER_WINDOW_SECONDS = 60;

/** Requests per minute for each tier, from RATE_LIMIT_<TIER>_PER_MINUTE. */
export function tierLimitsFromConfig(c: LimitsConfig): Record<Tier, number> {
  return {
    free: c.RATE_LIMIT_FREE_PER_MINUTE,
    standard: c.RATE_LIMIT_STANDARD_PER_MINUTE,
    pro: c.RATE_LIMIT_PRO_PER_MINUTE,
  };
}

/** Where the X-RateLimit-* headers go (an HTTP reply; this module knows no HTTP framework). */
export interface RateLimitHeaders {
  header(name: string, value: number): unknown;
}

export class TierRateLimits {
  private readonly limiters: Record<Tier, RateLimiterPostgres>;

  /** `leases`: the process's leases of store counters (one per process, shared with skill calls). */
  constructor(
    store: Store,
    private readonly perMinute: Record<Tier, number>,
    private readonly leases: CounterLeases,
  ) {
    this.limiters = Object.fromEntries(
      TIERS.map((t) => [
        t,
        storeLimiter(store, {
          keyPrefix: `tier:${t}`,
          points: perMinute[t],
          durationSec: TIER_WINDOW_SECONDS,
        }),
      ]),
    ) as Record<Tier, RateLimiterPostgres>;
  }

  /**
   * Counts one request and sets the headers. Returns undefined while the window has room, and
   * the RATE_LIMITED error (429, Retry-After = the reset) once it is used up: routes that queue
   * (skill calls) queue to the reset, every other route throws it.
   */
  async apply(principal: Principal, reply: RateLimitHeaders): Promise<SkillflowError | undefined> {
    const c = this.leasedCounter(principal);
    const outcome = await this.leases.admit(c.key, c.limit, c.durationSec, c.lease);
    return this.settle(principal, { consumed: outcome.used, msBeforeNext: outcome.msBeforeNext }, reply);
  }

  /**
   * The principal's tier counter as the leases take it, for callers that take it together with
   * other counters ({@link CounterLeases.admitAll}); then {@link settle}.
   */
  leasedCounter(principal: Principal): LeasedCounter {
    const limit = this.perMinute[principal.tier];
    return {
      key: this.limiters[principal.tier].getKey(principal.ownerId),
      limit,
      durationSec: TIER_WINDOW_SECONDS,
      lease: defaultLease(limit),
      points: 1,
    };
  }

  /**
   * Sets the headers for the tier counter's state after a charge and returns what
   * {@link apply} returns: undefined with room left, else the RATE_LIMITED error.
   */
  settle(principal: Principal, state: CounterState, reply: RateLimitHeaders): SkillflowError | undefined {
    const limit = this.perMinute[principal.tier];
    const over = state.consumed > limit;
    reply.header('x-ratelimit-limit', limit);
    reply.header('x-ratelimit-remaining', Math.max(limit - state.consumed, 0));
    reply.header('x-ratelimit-reset', Math.ceil(Math.max(state.msBeforeNext, 0) / 1000));
    if (!over) return undefined;
    return errors.rateLimited({
      rule: `The ${principal.tier} tier allows ${limit} requests per minute`,
      details: { tier: principal.tier, limit, window_seconds: TIER_WINDOW_SECONDS },
      retryAfterMs: state.msBeforeNext,
    });
  }
}
