/**
 * A per-address request limit (requests per minute) shared by every API replica, for public
 * routes too hot for a store round trip per request (the icon SVG route, which `<img src>` tags
 * hit). Each process spends the address's store counter a lease at a time
 * (lib/limits/counter-leases.ts): every replica together never admits more than the limit per
 * address and window, and an address may be refused once
 * `limit − (lease − 1) × (replicas − 1)` of its requests were served. Addresses reach the store
 * only as keyed HMACs. `0` turns the limit off.
 */
import { createHmac } from 'node:crypto';
import { errors } from '../errors/errors.js';
import type { Store } from '../store/db.js';
import { CounterLeases, defaultLease } from './counter-leases.js';

export { defaultLease };

export const LEASED_WINDOW_SECONDS = 60;

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
  private readonly counters: CounterLeases;
  readonly lease: number;

  constructor(
    store: Store,
    private readonly options: LeasedIpLimitOptions,
  ) {
    this.counters = new CounterLeases(store, options.now);
    this.lease = Math.max(1, Math.min(options.lease ?? defaultLease(options.perMinute), options.perMinute));
  }

  /** Counts one request; throws RATE_LIMITED (429, Retry-After) once the minute is used up. */
  async consume(ipKey: string): Promise<void> {
    if (this.options.perMinute <= 0) return;
    const key = `${this.options.name}:${createHmac('sha256', this.options.hashKey).update(ipKey).digest('base64url')}`;
    const outcome = await this.counters.admit(key, this.options.perMinute, LEASED_WINDOW_SECONDS, this.lease);
    if (!outcome.admitted) throw this.refusal(outcome.msBeforeNext);
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
