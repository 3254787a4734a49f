/**
 * Our own limits on upstream providers (tracked per provider, skill and model). A
 * counter per (provider, skill, model) is charged one point per request actually sent to that
 * provider (activities/runtime/upstream-meter.ts): a domain search with no relevance criteria charges only the
 * shop, once per lookup or stream page it opens. Providers without their own rule share the `*`
 * rule's numbers, each with its own counters.
 *
 * Before a call is dispatched, {@link ProviderLimits.busy} tells whether the providers it
 * will use have room: the authenticated route then queues the call to the reset time (202), the
 * anonymous route answers 429 at once. A limit used up in the middle of a call is handled by the
 * skill like an upstream 429 (the call's Retry-After gate), except in a long-running skill's
 * activity, whose meter waits for the reset within the attempt's deadline
 * (activities/runtime/upstream-meter.ts).
 *
 * Store-backed (shared by every worker and API replica) when given the platform store,
 * in-memory otherwise.
 */
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimitsConfig } from '../config.js';
import { errors } from '../errors/errors.js';
import type { SkillflowError } from '../errors/skillflow-error.js';
import { isRejection, storeLimiter, type CounterCharge } from '../store/owners/rate-limits.js';
import type { Store } from '../store/db.js';

/** One provider a call will use, with the model for model providers. */
export interface ProviderUse {
  provider: string;
  model?: string | undefined;
}

/** A limit's counter for a one-statement charge, its limit, and the error once it is over. */
export interface LimitCounter {
  charge: CounterCharge;
  limit: number;
  /** The UPSTREAM_RATE_LIMITED error for a counter that resets in `msBeforeNext`. */
  error: (msBeforeNext: number) => SkillflowError;
}

export interface ProviderRule {
  /** A provider id from app definitions, or `*` for every provider without its own rule. */
  provider: string;
  /** Requests per window, per provider, skill and model. */
  points: number;
  durationSec: number;
}

/** Parses PROVIDER_RATE_LIMITS: `shop=600/60,decision=60/60,*=300/60`. */
export function parseProviderRules(spec: string): ProviderRule[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^([a-z0-9_*-]+)=(\d+)\/(\d+)$/.exec(entry);
      if (!m) throw new Error(`bad provider limit entry: ${entry}`);
      return { provider: m[1]!, points: Number(m[2]), durationSec: Math.max(1, Number(m[3])) };
    });
}

/** The counter key of one provider, skill and model; `-` when the provider has no model. */
function counterKey(provider: string, skill: string, model: string | undefined): string {
  return `${provider}:${skill}:${model ?? '-'}`;
}

export class ProviderLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly rules: ProviderRule[],
    private readonly store?: Store,
  ) {}

  private ruleFor(provider: string): ProviderRule | undefined {
    return this.rules.find((r) => r.provider === provider) ?? this.rules.find((r) => r.provider === '*');
  }

  private limiterFor(rule: ProviderRule): RateLimiterAbstract {
    let limiter = this.limiters.get(rule.provider);
    if (!limiter) {
      const spec = {
        keyPrefix: `provider:${rule.provider}`,
        points: rule.points,
        durationSec: rule.durationSec,
      };
      limiter = this.store
        ? storeLimiter(this.store, spec)
        : new RateLimiterMemory({
            keyPrefix: spec.keyPrefix,
            points: spec.points,
            duration: spec.durationSec,
          });
      this.limiters.set(rule.provider, limiter);
    }
    return limiter;
  }

  /**
   * Read-only: the UPSTREAM_RATE_LIMITED error of the used-up provider with the longest wait
   * among `uses`, or undefined when every one has room now.
   */
  async busy(skill: string, uses: readonly ProviderUse[]): Promise<SkillflowError | undefined> {
    let worst: { use: ProviderUse; ms: number } | undefined;
    for (const use of uses) {
      const rule = this.ruleFor(use.provider);
      if (!rule) continue;
      const res = await this.limiterFor(rule).get(counterKey(use.provider, skill, use.model));
      if (res && res.consumedPoints >= rule.points && res.msBeforeNext > (worst?.ms ?? 0)) {
        worst = { use, ms: res.msBeforeNext };
      }
    }
    if (!worst) return undefined;
    return providerLimitError(worst.use.provider, skill, worst.use.model, worst.ms);
  }

  /**
   * The counter one request to `provider` for `skill` charges (undefined without a rule), for
   * charging it together with others in one statement (lib/store/owners/rate-limits.ts).
   */
  counter(provider: string, skill: string, model?: string): LimitCounter | undefined {
    const rule = this.ruleFor(provider);
    if (!rule) return undefined;
    return {
      charge: {
        key: this.limiterFor(rule).getKey(counterKey(provider, skill, model)),
        points: 1,
        durationSec: rule.durationSec,
      },
      limit: rule.points,
      error: (ms) => providerLimitError(provider, skill, model, ms),
    };
  }

  /** Charges one request to `provider` for `skill`, or throws UPSTREAM_RATE_LIMITED. */
  async charge(provider: string, skill: string, model?: string): Promise<void> {
    const rule = this.ruleFor(provider);
    if (!rule) return;
    try {
      await this.limiterFor(rule).consume(counterKey(provider, skill, model), 1);
    } catch (err) {
      if (!isRejection(err)) throw err;
      throw providerLimitError(provider, skill, model, err.msBeforeNext);
    }
  }
}

/** The error of a used-up provider limit; details name the counter, never the input. */
export function providerLimitError(
  provider: string,
  skill: string,
  model: string | undefined,
  retryAfterMs: number,
): SkillflowError {
  return errors.upstreamRateLimited({
    rule: `The ${provider} provider limit for ${skill} is reached`,
    provider,
    details: { skill, model: model ?? null },
    retryAfterMs,
  });
}

/** Provider limits from PROVIDER_RATE_LIMITS, on the store when one is given. */
export function createProviderLimits(config: LimitsConfig, store?: Store): ProviderLimits {
  return new ProviderLimits(parseProviderRules(config.PROVIDER_RATE_LIMITS), store);
}
