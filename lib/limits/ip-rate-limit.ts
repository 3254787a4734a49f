/**
 * The per-IP request limit of the unauthenticated routes (anonymous calls, their quote, the
 * free-usage status, health): PUBLIC_RATE_LIMIT_PER_MINUTE requests per client address and
 * minute, store-backed so every API replica shares it. The caller passes the address key from
 * lib/net/client-ip.ts (IPv6 per /64); the store holds only a keyed hash of it, never the
 * address. `0` turns the limit off.
 */
import { createHmac } from 'node:crypto';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { errors } from '../errors/errors.js';
import type { Store } from '../store/db.js';
import { isRejection, storeLimiter } from '../store/owners/rate-limits.js';

export const IP_WINDOW_SECONDS = 60;

export class IpRateLimit {
  private readonly limiter: RateLimiterPostgres | undefined;

  /** `hashKey`: the HMAC key the stored counter keys are derived with (32 random bytes). */
  constructor(
    store: Store,
    private readonly perMinute: number,
    private readonly hashKey: Uint8Array,
  ) {
    this.limiter =
      perMinute > 0
        ? storeLimiter(store, { keyPrefix: 'ip', points: perMinute, durationSec: IP_WINDOW_SECONDS })
        : undefined;
  }

  /** Counts one request of `ipKey`; throws RATE_LIMITED (429, Retry-After) once the minute is used up. */
  async consume(ipKey: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(createHmac('sha256', this.hashKey).update(ipKey).digest('base64url'), 1);
    } catch (err) {
      if (!isRejection(err)) throw err;
      throw errors.rateLimited({
        rule: `Unauthenticated routes allow ${this.perMinute} requests per minute from one address`,
        details: { limit: this.perMinute, window_seconds: IP_WINDOW_SECONDS },
        retryAfterMs: err.msBeforeNext,
      });
    }
  }
}
