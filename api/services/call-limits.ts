/**
 * The limits of one authenticated quick skill call, in one store round trip when every limit
 * has room. {@link CallLimits.reserve} charges, in ONE statement
 * (lib/store/owners/rate-limits.ts `chargeCounters`):
 * - the caller's tier counter (when the route left it to the call: skill routes do, so the
 *   X-RateLimit-* headers come from this same statement);
 * - for each provider use the skill announces (`providerUses`), the caller's share of that
 *   provider and the provider's own counter (per provider, skill and model).
 * When one of them is over its limit, a second statement gives the provider and share points
 * back and the call is queued to the latest reset (the tier point stays counted, as the
 * limiter's own `consume` does). Otherwise the call runs with the upstream meter
 * (activities/runtime/upstream-meter.ts) holding the reservation as its prepayment: its
 * first request to each announced provider draws on the points already charged; any further
 * request charges share and provider together in one statement; what the skill did not use
 * is given back after the run ({@link CallLimits.release}). So the counters end up counting
 * exactly the requests sent, as the upstream meter of the workflow path does.
 */
import type { OwnerProviderShare } from '../../lib/limits/owner-provider-share.js';
import type { LimitCounter, ProviderLimits } from '../../lib/limits/provider-limits.js';
import type { ProviderUse } from '../../activities/registry/types.js';
import {
  createUpstreamMeter,
  type CallMeter,
  type LimitWait,
} from '../../activities/runtime/upstream-meter.js';
import type { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Principal } from '../../lib/keys.js';
import type { RateLimitHeaders, TierRateLimits } from '../../lib/limits/tier-limits.js';
import type { Store } from '../../lib/store/db.js';
import { chargeCounters, refundCounters, type CounterState } from '../../lib/store/owners/rate-limits.js';

/** The outcome of {@link CallLimits.reserve}. */
export type Reservation =
  /** A limit is used up: queue the call this long. Nothing stays charged to providers. */
  | { waitMs: number; meter?: undefined }
  /** Room everywhere: run now with this meter; settle it after the run. */
  | { waitMs: 0; meter: CallMeter };

/** Counters of one request to a provider: the owner's share first, then the provider's own. */
interface UseCounters {
  share?: LimitCounter | undefined;
  provider?: LimitCounter | undefined;
}

const over = (c: LimitCounter | undefined, states: Map<string, CounterState>) => {
  const state = c && states.get(c.charge.key);
  return state && state.consumed > c.limit ? state : undefined;
};

/** The error of the first used-up share, else of the used-up provider with the longest wait. */
function usedUp(uses: readonly UseCounters[], states: Map<string, CounterState>): SkillflowError | undefined {
  for (const u of uses) {
    const s = over(u.share, states);
    if (s) return u.share!.error(s.msBeforeNext);
  }
  let worst: { c: LimitCounter; ms: number } | undefined;
  for (const u of uses) {
    const s = over(u.provider, states);
    if (s && (!worst || s.msBeforeNext > worst.ms)) worst = { c: u.provider!, ms: s.msBeforeNext };
  }
  return worst?.c.error(worst.ms);
}

const chargesOf = (uses: readonly UseCounters[]) =>
  uses.flatMap((u) => [u.share, u.provider].flatMap((c) => (c ? [c.charge] : [])));

export class CallLimits {
  constructor(
    private readonly store: Store,
    private readonly providers: ProviderLimits,
    private readonly share: OwnerProviderShare,
    private readonly tier?: TierRateLimits,
  ) {}

  private countersOf(ownerId: string, skill: string, use: ProviderUse): UseCounters {
    return {
      share: this.share.counter(ownerId, use.provider),
      provider: this.providers.counter(use.provider, skill, use.model),
    };
  }

  /**
   * Charges the call's limits in one statement (the tier counter too when `tierHeaders` is
   * given; it gets the X-RateLimit-* headers). `skill` is `<app>.<skill>`. With `wait`, a
   * request beyond the prepaid ones that finds a limit used up waits for its reset within that
   * deadline instead of failing at once.
   */
  async reserve(
    principal: Principal,
    skill: string,
    uses: readonly ProviderUse[],
    tierHeaders?: RateLimitHeaders,
    wait?: LimitWait,
  ): Promise<Reservation> {
    const counters = uses.map((u) => this.countersOf(principal.ownerId, skill, u));
    const tierCounter = tierHeaders && this.tier?.counter(principal);
    const charges = chargesOf(counters);
    const states = await chargeCounters(this.store, tierCounter ? [...charges, tierCounter] : charges);
    const tierState = tierCounter && states.get(tierCounter.key);
    const tierError =
      tierState && tierHeaders ? this.tier?.settle(principal, tierState, tierHeaders) : undefined;
    const waitMs = Math.max(tierError?.retryAfterMs ?? 0, usedUp(counters, states)?.retryAfterMs ?? 0);
    if (waitMs > 0) {
      await refundCounters(this.store, charges);
      return { waitMs };
    }
    const ownerId = principal.ownerId;
    const meter = createUpstreamMeter({
      skill,
      prepaid: {
        uses,
        chargeOne: (use) => this.chargeOne(ownerId, skill, use),
        release: (unused) => this.release(ownerId, skill, unused),
      },
      wait,
    });
    return { waitMs: 0, meter };
  }

  /** Charges one request beyond the prepaid ones: share and provider in one statement. */
  async chargeOne(ownerId: string, skill: string, use: ProviderUse): Promise<void> {
    const counters = [this.countersOf(ownerId, skill, use)];
    const charges = chargesOf(counters);
    const err = usedUp(counters, await chargeCounters(this.store, charges));
    if (!err) return;
    await refundCounters(this.store, charges);
    throw err;
  }

  /** Gives back the points of prepaid requests the call never sent. */
  async release(ownerId: string, skill: string, unused: readonly ProviderUse[]): Promise<void> {
    await refundCounters(this.store, chargesOf(unused.map((u) => this.countersOf(ownerId, skill, u))));
  }
}
