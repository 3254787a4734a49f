/**
 * Store counters spent a lease at a time: a process takes `lease` tokens of a counter in one
 * statement (lib/store/owners/rate-limits.ts `chargeCounters`) and spends them locally until the
 * counter's window ends, so most requests make no store round trip. Shared by every limit that
 * is too hot for a statement per request (the tier limit of authenticated routes, the icon SVG
 * route's per-address limit).
 *
 * The rule: a lease is granted only what is left under the limit in the counter's window
 * (`min(lease, limit − already charged)`), and it ends no later than that window (its end is
 * reckoned from the moment before the statement was sent), so all processes together never
 * admit more than the limit per counter and window: no overshoot. What a lease was not granted
 * is given back to the store at once, so a counter holds the points processes hold or spent
 * (never more than the limit from leases). The price is on the other
 * side: tokens a process holds unused are lost to the others, so with P processes a counter may
 * refuse once `limit − (lease − 1) × (P − 1)` requests were admitted. A counter that ran out in a
 * process stays refused there, without a store round trip, until its window ends.
 */
import type { Store } from '../store/db.js';
import { chargeCounters, merged, refundCounters, type CounterCharge } from '../store/owners/rate-limits.js';

/** Counters kept in memory before expired leases are dropped. */
const PRUNE_ABOVE = 10_000;

/**
 * The default lease: a thirtieth of the limit, at least 1 token (10 for 300 a minute). So a
 * counter costs a process at most about 30 store statements per window however high its limit,
 * and tokens one process holds unused are at most a thirtieth of the limit.
 */
export function defaultLease(limit: number): number {
  return Math.max(1, Math.floor(limit / 30));
}

/** No two counters share a key (the usual case: nothing to merge). */
function distinctKeys(counters: readonly LeasedCounter[]): boolean {
  for (let i = 1; i < counters.length; i++)
    for (let j = 0; j < i; j++) if (counters[i]!.key === counters[j]!.key) return false;
  return true;
}

interface Lease {
  tokens: number;
  /** The counter had less than a lease left: refuse here once the tokens are spent. */
  last: boolean;
  /** End of the counter's window (epoch ms). */
  until: number;
  /** Points charged in the window as of the lease, at most the limit (this lease included). */
  charged: number;
}

/** One counter of an admission: its full store key, its limit and window, and the points asked. */
export interface LeasedCounter {
  key: string;
  limit: number;
  durationSec: number;
  /** Tokens taken per store statement (at least `points`). */
  lease: number;
  points: number;
}

/** One counter's outcome: admitted or not, the window's points used as known here, its reset. */
export interface LeaseOutcome {
  admitted: boolean;
  /** Points used in the window as this process knows them (with these); the limit + 1 when refused. */
  used: number;
  msBeforeNext: number;
}

export class CounterLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly now: () => number;
  private lastPrune = 0;

  constructor(
    private readonly store: Store,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  /** Admits one request on one counter (see {@link admitAll}). */
  async admit(key: string, limit: number, durationSec: number, lease: number): Promise<LeaseOutcome> {
    const all = await this.admitAll([{ key, limit, durationSec, lease, points: 1 }]);
    return all.get(key)!;
  }

  /**
   * Takes each counter's points from this process's leases; the counters whose lease is spent
   * or over get a new lease, all in ONE store statement. Returns each counter's outcome by key.
   * Counters are charged independently: when one is refused, the caller gives the others
   * back ({@link giveBack}).
   */
  async admitAll(counters: readonly LeasedCounter[]): Promise<Map<string, LeaseOutcome>> {
    const asked = distinctKeys(counters) ? counters : merged(counters);
    for (;;) {
      // One lease per counter at a time in this process: a request needing one being taken waits.
      const taking = asked.map((c) => this.pending.get(c.key)).find((p) => p !== undefined);
      if (taking) {
        await taking.catch(() => undefined);
        continue;
      }
      const now = this.now();
      const refill = asked.filter((c) => {
        const held = this.leases.get(c.key);
        return !held || held.until <= now || (held.tokens < c.points && !held.last);
      });
      if (refill.length === 0) return this.spend(asked, now);
      const take = this.take(refill, now);
      for (const c of refill) this.pending.set(c.key, take);
      try {
        await take;
      } finally {
        for (const c of refill) this.pending.delete(c.key);
      }
    }
  }

  /** Gives points back to this process's lease of `key`, if it is still the lease of the window. */
  giveBack(key: string, points: number): void {
    const held = this.leases.get(key);
    if (held && held.until > this.now() && points > 0) held.tokens += points;
  }

  /** Spends from leases that are all current; a counter short of tokens is refused. */
  private spend(asked: readonly LeasedCounter[], now: number): Map<string, LeaseOutcome> {
    const out = new Map<string, LeaseOutcome>();
    for (const c of asked) {
      const held = this.leases.get(c.key)!;
      const msBeforeNext = held.until - now;
      if (held.tokens >= c.points) {
        held.tokens -= c.points;
        out.set(c.key, { admitted: true, used: held.charged - held.tokens, msBeforeNext });
      } else out.set(c.key, { admitted: false, used: c.limit + 1, msBeforeNext });
    }
    return out;
  }

  /** Charges a lease for each counter in one statement and keeps what each was granted. */
  private async take(counters: readonly LeasedCounter[], now: number): Promise<void> {
    const sizes = counters.map((c) => Math.max(c.points, Math.min(c.lease, c.limit)));
    const states = await chargeCounters(
      this.store,
      counters.map((c, i) => ({ key: c.key, points: sizes[i]!, durationSec: c.durationSec })),
      now,
    );
    this.prune(now);
    const ungranted: CounterCharge[] = [];
    counters.forEach((c, i) => {
      const size = sizes[i]!;
      const state = states.get(c.key)!;
      const before = state.consumed - size;
      const granted = Math.max(0, Math.min(size, c.limit - before));
      if (granted < size) ungranted.push({ key: c.key, points: size - granted, durationSec: c.durationSec });
      // Tokens of an earlier lease in the same window stay this process's.
      const held = this.leases.get(c.key);
      const kept = held && held.until > now ? held.tokens : 0;
      this.leases.set(c.key, {
        tokens: kept + granted,
        last: granted < size,
        until: now + state.msBeforeNext,
        charged: Math.min(state.consumed, c.limit),
      });
    });
    // What was not granted goes back at once, so the store counts only points some process holds.
    if (ungranted.length > 0) await refundCounters(this.store, ungranted, now);
  }

  private prune(now: number): void {
    if (this.leases.size < PRUNE_ABOVE || now - this.lastPrune < 1000) return;
    this.lastPrune = now;
    for (const [k, l] of this.leases) if (l.until <= now) this.leases.delete(k);
  }
}
