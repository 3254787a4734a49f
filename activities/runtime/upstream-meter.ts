/**
 * The one upstream meter of a skill call: every request a skill is about to send to an upstream
 * provider goes through {@link UpstreamMeter.charge} first. It charges the provider's limit
 * (tracked per provider, skill and model) and the calling owner's share of it, once per request
 * actually made, and counts what was sent, so the platform knows whether a call reached any
 * upstream (an anonymous call that sent nothing is refunded) and can record it in the usage
 * records.
 *
 * A call whose announced provider uses were charged before it ran (an authenticated quick call:
 * api/services/call-limits.ts) runs with a {@link Prepayment}: the first request of each
 * announced use draws on the points already charged, any further request is charged by the
 * prepayment (share and provider together), and {@link CallMeter.settle} gives back what the
 * call did not send. Either way the counters end up counting exactly the requests sent.
 *
 * A call given a {@link LimitWait} (a long-running skill's activity) waits for a used-up limit
 * of ours instead of failing: it charges again at the limit's reset, as often as needed, while
 * the wait ends before the call's deadline; only a wait that would pass it fails the charge with
 * UPSTREAM_RATE_LIMITED. A refused charge leaves nothing charged (the owner's share point is
 * given back), and {@link CallMeter.refusal} tells the caller its call was refused by our own
 * limit, not by the upstream.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { OwnerProviderShare } from '../../lib/limits/owner-provider-share.js';
import type { ProviderLimits } from '../../lib/limits/provider-limits.js';
import type { ProviderUse, UpstreamMeter } from '../registry/types.js';

/** The calling owner's share of the provider limits (lib/limits/owner-provider-share.ts). */
export interface OwnerShare {
  share: OwnerProviderShare;
  ownerId: string;
}

/** Provider uses charged before the call ran, and how to charge or give back the rest. */
export interface Prepayment {
  /** The uses already charged: one request each. */
  uses: readonly ProviderUse[];
  /** Charges one request beyond them, or rejects with UPSTREAM_RATE_LIMITED (nothing stays charged). */
  chargeOne(use: ProviderUse): Promise<void>;
  /** Gives back the points of prepaid uses the call never sent. */
  release(unused: readonly ProviderUse[]): Promise<void>;
}

/** How long a charge may wait for a used-up limit of ours to reset. */
export interface LimitWait {
  /** Epoch ms: a wait that would end after this fails the charge instead. */
  deadlineAt: number;
  /**
   * Ends a wait early (the call was cancelled); the charge then rejects with its reason. Without
   * it the deadline alone bounds a wait, which never goes past it.
   */
  signal?: AbortSignal | undefined;
}

export interface MeterOptions {
  /** `<app>.<skill>`: provider counters are kept per skill. */
  skill: string;
  /** Without limits (and without a prepayment) the meter only counts: tests, benchmarks. */
  limits?: ProviderLimits | undefined;
  /** Charged first, before the provider limit (fair use between tenants). */
  share?: OwnerShare | undefined;
  /** Points charged in advance; when given, every charge goes through it. */
  prepaid?: Prepayment | undefined;
  /** Wait for a used-up limit within this deadline instead of failing at once. */
  wait?: LimitWait | undefined;
}

/** The meter a runner holds: the skill's view plus the settlement after the run. */
export interface CallMeter extends UpstreamMeter {
  /** Gives back what was prepaid and not sent; call once, after the run (a no-op otherwise). */
  settle(): Promise<void>;
  /** The UPSTREAM_RATE_LIMITED error of our own limit that refused a request, if one did. */
  refusal(): SkillflowError | undefined;
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
 * A meter for one call of `opts.skill`. Each request is charged to the calling owner's share of
 * the provider first, then to the provider limit; with a prepayment, a request matching an
 * announced use (provider and model) draws on it instead, and the others are charged by it.
 */
export function createUpstreamMeter(opts: MeterOptions): CallMeter {
  const { skill, limits, share, prepaid, wait } = opts;
  const unspent = prepaid ? [...prepaid.uses] : [];
  const counts: Record<string, number> = {};
  const decision = createDecisionTally();
  let refused: SkillflowError | undefined;

  const chargeOnce = async (provider: string, model: string | undefined): Promise<void> => {
    if (prepaid) {
      const i = unspent.findIndex((u) => u.provider === provider && u.model === model);
      if (i >= 0) unspent.splice(i, 1);
      else await prepaid.chargeOne(model ? { provider, model } : { provider });
      return;
    }
    await share?.share.acquire(share.ownerId, [provider], 1);
    try {
      await limits?.charge(provider, skill, model);
    } catch (err) {
      // Nothing is sent: the owner's share point goes back.
      if (share) await share.share.release(share.ownerId, [provider], 1);
      throw err;
    }
  };

  const chargeNow = async (provider: string, model: string | undefined): Promise<void> => {
    for (;;) {
      try {
        return await chargeOnce(provider, model);
      } catch (err) {
        if (!(err instanceof SkillflowError) || err.code !== 'UPSTREAM_RATE_LIMITED') throw err;
        const ms = err.retryAfterMs ?? 1000;
        if (!wait || Date.now() + ms > wait.deadlineAt) {
          refused = err;
          throw err;
        }
        await sleep(ms, undefined, wait.signal ? { signal: wait.signal } : undefined);
      }
    }
  };

  return {
    async charge(provider, model) {
      await chargeNow(provider, model);
      counts[provider] = (counts[provider] ?? 0) + 1;
    },
    sent: () => ({ ...counts }),
    total: () => Object.values(counts).reduce((a, b) => a + b, 0),
    addDecisionUsage: (u) => decision.add(u),
    decisionUsage: () => decision.total(),
    async settle() {
      const unused = unspent.splice(0);
      if (prepaid && unused.length > 0) await prepaid.release(unused);
    },
    refusal: () => refused,
  };
}
