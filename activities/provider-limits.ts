/**
 * Our own limits on upstream providers (spec 8: tracked per provider, skill and model). Each
 * (provider, skill, model) triple of a skill's manifest has a counter; a call charges one point
 * per request item to each, all or nothing. When one is used up the caller gets
 * UPSTREAM_RATE_LIMITED with the time to the reset: on the workflow route the activity throws it
 * and Temporal retries at that time (`nextRetryDelay`), on the anonymous route it is a 429 at once.
 *
 * Store-backed (shared by every worker and API replica) when given the platform store,
 * in-memory otherwise.
 */
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../lib/config.js';
import { SkillflowError } from '../lib/errors/skillflow-error.js';
import { inLimiterTransaction, isRejection, storeLimiter } from '../lib/limits/store-limiter.js';
import type { Store } from '../lib/store/db.js';
import type { SkillManifest } from './registry/types.js';

export interface ProviderRule {
  /** A provider id from app definitions, or `*` for every provider without its own rule. */
  provider: string;
  points: number;
  durationSec: number;
}

/** Parses PROVIDER_RATE_LIMITS: `shop=120/60,decision=30/60,*=300/60`. */
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

export class ProviderLimits {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly rules: ProviderRule[],
    private readonly store?: Store,
  ) {}

  private limiterFor(provider: string): RateLimiterAbstract | undefined {
    const rule =
      this.rules.find((r) => r.provider === provider) ?? this.rules.find((r) => r.provider === '*');
    if (!rule) return undefined;
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

  /** The counters a call of this skill charges: one per provider and model. */
  private countersOf(
    manifest: SkillManifest,
  ): { provider: string; model: string; key: string; limiter: RateLimiterAbstract }[] {
    const skill = `${manifest.appId}.${manifest.id}`;
    const models = manifest.models.length > 0 ? manifest.models : ['-'];
    return manifest.providers.flatMap((provider) => {
      const limiter = this.limiterFor(provider);
      return limiter ? models.map((model) => ({ provider, model, key: `${skill}:${model}`, limiter })) : [];
    });
  }

  /** Read-only: seconds until every counter of the skill has room for `items`, or 0 when it has now. */
  async waitSeconds(manifest: SkillManifest, items: number): Promise<number> {
    let ms = 0;
    for (const c of this.countersOf(manifest)) {
      const res = await c.limiter.get(c.key);
      const rule =
        this.rules.find((r) => r.provider === c.provider) ?? this.rules.find((r) => r.provider === '*');
      if (res && rule && res.consumedPoints + items > rule.points) ms = Math.max(ms, res.msBeforeNext);
    }
    return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0;
  }

  /** Charges `items` points to every counter of the skill, or throws UPSTREAM_RATE_LIMITED. */
  async acquire(manifest: SkillManifest, items: number): Promise<void> {
    const counters = this.countersOf(manifest);
    if (counters.length === 0) return;
    const charged: typeof counters = [];
    const chargeAll = async () => {
      for (const c of counters) {
        charged.push(c);
        await c.limiter.consume(c.key, items);
      }
    };
    try {
      if (this.store) await inLimiterTransaction(this.store, chargeAll);
      else await chargeAll();
    } catch (err) {
      if (!isRejection(err)) throw err;
      // In memory there is no transaction to roll back: give back what this call charged.
      if (!this.store) await Promise.all(charged.map((c) => c.limiter.reward(c.key, items)));
      const failed = charged[charged.length - 1]!;
      const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      throw new SkillflowError(
        'UPSTREAM_RATE_LIMITED',
        `The ${failed.provider} provider limit for ${manifest.appId}.${manifest.id} is reached; retry in ${seconds} s.`,
        {
          provider: failed.provider,
          skill: `${manifest.appId}.${manifest.id}`,
          model: failed.model === '-' ? null : failed.model,
          retry_after_seconds: seconds,
        },
        seconds * 1000,
      );
    }
  }
}

/** Provider limits from PROVIDER_RATE_LIMITS, on the store when one is given. */
export function createProviderLimits(config: Config, store?: Store): ProviderLimits {
  return new ProviderLimits(parseProviderRules(config.PROVIDER_RATE_LIMITS), store);
}

/** Request items in a skill input (`requests.length`), at least one. */
export function requestItems(input: unknown): number {
  const requests = (input as { requests?: unknown } | null)?.requests;
  return Array.isArray(requests) && requests.length > 0 ? requests.length : 1;
}
