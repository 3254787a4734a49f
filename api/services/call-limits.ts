/**
 * The limits of one authenticated quick skill call, usually without a store round trip.
 * {@link CallLimits.reserve} takes, from this process's leases of the store counters
 * (lib/limits/counter-leases.ts: every replica together never admits more than a counter's
 * limit in its window; the counters needing a new lease get it in ONE statement):
 * - the caller's tier counter (when the route left it to the call: skill routes do, so the
 *   X-RateLimit-* headers come from this same admission);
 * - for each provider use the skill announces (`providerUses`), the caller's share of that
 *   provider and the provider's own counter (per provider, skill and model).
 * When one of them is used up, the provider and share points go back to the leases and the call
 * is queued to the latest reset (the tier point stays counted). Otherwise the call runs with the
 * upstream meter (activities/runtime/upstream-meter.ts) holding the reservation as its
 * prepayment: its first request to each announced provider draws on the points already taken;
 * any further request takes share and provider together; what the skill did not use goes back to
 * the leases after the run ({@link CallLimits.release}). So no more requests are sent than the
 * counters admit; the store counters count leased points, which the leases' rule keeps within
 * each limit.
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
import {
  defaultLease,
  type CounterLeases,
  type LeasedCounter,
  type LeaseOutcome,
} from '../../lib/limits/counter-leases.js';
import type { CounterCharge } from '../../lib/store/owners/rate-limits.js';

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

const over = (c: LimitCounter | undefined, states: Map<string, LeaseOutcome>) => {
  const state = c && states.get(c.charge.key);
  return state && !state.admitted ? state : undefined;
};

/** The error of the first used-up share, else of the used-up provider with the longest wait. */
function usedUp(uses: readonly UseCounters[], states: Map<string, LeaseOutcome>): SkillflowError | undefined {
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

function countersOf(uses: readonly UseCounters[]): LimitCounter[] {
  const out: LimitCounter[] = [];
  for (const u of uses) {
    if (u.share) out.push(u.share);
    if (u.provider) out.push(u.provider);
  }
  return out;
}

/** A counter as the leases take it. */
const leased = (charge: CounterCharge, limit: number): LeasedCounter => ({
  key: charge.key,
  limit,
  durationSec: charge.durationSec,
  lease: defaultLease(limit),
  points: charge.points,
});

export class CallLimits {
  constructor(
    private readonly leases: CounterLeases,
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

  /** Gives the counters' points back to the leases. */
  private giveBack(counters: readonly LimitCounter[]): void {
    for (const c of counters) this.leases.giveBack(c.charge.key, c.charge.points);
  }

  /**
   * Takes the call's limits (the tier counter too when `tierHeaders` is given; it gets the
   * X-RateLimit-* headers). `skill` is `<app>.<skill>`. With `wait`, a request beyond the
   * prepaid ones that finds a limit used up waits for its reset within that deadline instead of
   * failing at once.
   */
  async reserve(
    principal: Principal,
    skill: string,
    uses: readonly ProviderUse[],
    tierHeaders?: RateLimitHeaders,
    wait?: LimitWait,
  ): Promise<Reservation> {
    const counters = uses.map((u) => this.countersOf(principal.ownerId, skill, u));
    const tierCounter = tierHeaders && this.tier?.leasedCounter(principal);
    const taken = countersOf(counters);
    const asked = taken.map((c) => leased(c.charge, c.limit));
    const states = await this.leases.admitAll(tierCounter ? [...asked, tierCounter] : asked);
    const tierState = tierCounter && states.get(tierCounter.key);
    const tierError =
      tierState && tierHeaders
        ? this.tier?.settle(
            principal,
            { consumed: tierState.used, msBeforeNext: tierState.msBeforeNext },
            tierHeaders,
          )
        : undefined;
    const waitMs = Math.max(tierError?.retryAfterMs ?? 0, usedUp(counters, states)?.retryAfterMs ?? 0);
    if (waitMs > 0) {
      this.giveBack(taken.filter((c) => states.get(c.charge.key)?.admitted));
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

  /** Takes one request beyond the prepaid ones: share and provider together. */
  async chargeOne(ownerId: string, skill: string, use: ProviderUse): Promise<void> {
    const counters = [this.countersOf(ownerId, skill, use)];
    const taken = countersOf(counters);
    const states = await this.leases.admitAll(taken.map((c) => leased(c.charge, c.limit)));
    const err = usedUp(counters, states);
    if (!err) return;
    this.giveBack(taken.filter((c) => states.get(c.charge.key)?.admitted));
    throw err;
  }

  /** Gives back the points of prepaid requests the call never sent. */
  async release(ownerId: string, skill: string, unused: readonly ProviderUse[]): Promise<void> {
    this.giveBack(countersOf(unused.map((u) => this.countersOf(ownerId, skill, u))));
  }
}
