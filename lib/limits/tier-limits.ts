/**
 * Per-tier request limits for authenticated routes (per-user limits depend on the
 * subscription tier; on the authenticated route tasks are queued instead of rejected, so a
 * skill call over the limit is queued to the reset time and other routes answer 429). One store-backed counter per owner and tier, one-minute windows, shared
 * by every API replica. Every authenticated response carries X-RateLimit-Limit,
 * X-RateLimit-Remaining and X-RateLimit-Reset (seconds until the window resets).
 */
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { LimitsConfig } from '../config.js';
import { errors } from '../errors/errors.js';
import type { SkillflowError } from '../errors/skillflow-error.js';
import { TIERS, type Principal, type Tier } from '../keys.js';
import type { Store } from '../store/db.js';
import {
  isRejection,
  storeLimiter,
  type CounterCharge,
  type CounterState,
} from '../store/owners/rate-limits.js';

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

  constructor(
    store: Store,
    private readonly perMinute: Record<Tier, number>,
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
    try {
      const res = await this.limiters[principal.tier].consume(principal.ownerId, 1);
      return this.settle(principal, { consumed: res.consumedPoints, msBeforeNext: res.msBeforeNext }, reply);
    } catch (err) {
      if (!isRejection(err)) throw err;
      return this.settle(principal, { consumed: err.consumedPoints, msBeforeNext: err.msBeforeNext }, reply);
    }
  }

  /**
   * The principal's tier counter, for callers that charge it together with other counters in
   * one statement (lib/store/owners/rate-limits.ts `chargeCounters`); then {@link settle}.
   */
  counter(principal: Principal): CounterCharge {
    return {
      key: this.limiters[principal.tier].getKey(principal.ownerId),
      points: 1,
      durationSec: TIER_WINDOW_SECONDS,
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
