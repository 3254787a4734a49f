/**
 * A per-address request limit (requests per minute) shared by every API replica, for public
 * routes too hot for a store round trip per request (the icon SVG route, which `<img src>` tags
 * hit). Each process takes tokens from the address's store counter a lease at a time (`lease`
 * tokens charged in one statement) and spends them locally until the counter's window ends.
 *
 * The rule: a lease is granted only what is left under the limit in the counter's window
 * (`min(lease, limit − already charged)`), so every replica together never admits more than the
 * limit per address and window (the same fixed one-minute window as the other store counters).
 * The price of leasing is on the other side: tokens a replica holds unused are lost to the
 * others, so an address may be refused once `limit − (lease − 1) × (replicas − 1)` of its
 * requests were served. An address refused by a replica stays refused there, without a store
 * round trip, until its window ends. Addresses reach the store only as keyed HMACs. `0` turns
 * the limit off.
 */
import { createHmac } from 'node:crypto';
import { errors } from '../errors/errors.js';
import type { Store } from '../store/db.js';
import { chargeCounters } from '../store/owners/rate-limits.js';

export const LEASED_WINDOW_SECONDS = 60;
/** Addresses kept in memory before expired leases are dropped. */
const PRUNE_ABOVE = 10_000;

/** The default lease: a thirtieth of the limit, between 1 and 10 tokens (10 for the default 300). */
export function defaultLease(perMinute: number): number {
  return Math.min(10, Math.max(1, Math.floor(perMinute / 30)));
}

interface Lease {
  tokens: number;
  /** The counter had less than a lease left: refuse here once the tokens are spent. */
  last: boolean;
  /** End of the counter's window (epoch ms). */
  until: number;
}

export interface LeasedIpLimitOptions {
  /** Names the counters (`<name>:<HMAC>`). */
  name: string;
  /** Names the route in the 429's message (`The icon SVG route`). */
  label: string;
  perMinute: number;
  hashKey: Uint8Array;
  /** Tokens taken per store statement; {@link defaultLease} when absent. */
  lease?: number;
  now?: () => number;
}

export class LeasedIpLimit {
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly now: () => number;
  private lastPrune = 0;
  readonly lease: number;

  constructor(
    private readonly store: Store,
    private readonly options: LeasedIpLimitOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.lease = Math.max(1, Math.min(options.lease ?? defaultLease(options.perMinute), options.perMinute));
  }

  /** Counts one request; throws RATE_LIMITED (429, Retry-After) once the minute is used up. */
  async consume(ipKey: string): Promise<void> {
    if (this.options.perMinute <= 0) return;
    for (;;) {
      // One lease per address at a time in this process: a second request waits for it.
      const taking = this.pending.get(ipKey);
      if (taking) {
        await taking.catch(() => undefined);
        continue;
      }
      const now = this.now();
      const held = this.leases.get(ipKey);
      if (held && held.until > now) {
        if (held.tokens > 0) {
          held.tokens -= 1;
          return;
        }
        if (held.last) throw this.refusal(held.until - now);
      }
      const take = this.take(ipKey, now);
      this.pending.set(ipKey, take);
      try {
        await take;
      } finally {
        this.pending.delete(ipKey);
      }
    }
  }

  /** Charges a lease to the store and keeps what it was granted. */
  private async take(ipKey: string, now: number): Promise<void> {
    const key = `${this.options.name}:${createHmac('sha256', this.options.hashKey).update(ipKey).digest('base64url')}`;
    const states = await chargeCounters(
      this.store,
      [{ key, points: this.lease, durationSec: LEASED_WINDOW_SECONDS }],
      now,
    );
    const state = states.get(key)!;
    const before = state.consumed - this.lease;
    const granted = Math.max(0, Math.min(this.lease, this.options.perMinute - before));
    this.prune(now);
    this.leases.set(ipKey, { tokens: granted, last: granted < this.lease, until: now + state.msBeforeNext });
  }

  private prune(now: number): void {
    if (this.leases.size < PRUNE_ABOVE || now - this.lastPrune < 1000) return;
    this.lastPrune = now;
    for (const [k, l] of this.leases) if (l.until <= now) this.leases.delete(k);
  }

  private refusal(retryAfterMs: number) {
    const { label, perMinute } = this.options;
    return errors.rateLimited({
      rule: `${label} allows ${perMinute} requests per minute from one address`,
      details: { limit: perMinute, window_seconds: LEASED_WINDOW_SECONDS },
      retryAfterMs,
    });
  }
}
