/**
 * A per-subject request limit (requests per minute), store-backed so every API replica shares
 * it. Subjects are hashed with a keyed HMAC before they reach the store: an API key id or a
 * client address never appears in `rate_limits`. `0` turns the limit off. Used by the
 * encyclopedia routes for their per-key and per-IP limits.
 */
import { createHmac } from 'node:crypto';
import type { RateLimiterPostgres } from 'rate-limiter-flexible';
import { errors } from '../errors/errors.js';
import type { Store } from '../store/db.js';
import { isRejection, storeLimiter } from '../store/owners/rate-limits.js';

export const KEYED_WINDOW_SECONDS = 60;

export class KeyedRateLimit {
  private readonly limiter: RateLimiterPostgres | undefined;

  /** `name` prefixes the counters and names the limit in errors (e.g. `encyclopedia per owner`). */
  constructor(
    store: Store,
    private readonly name: string,
    private readonly perMinute: number,
    private readonly hashKey: Uint8Array,
  ) {
    this.limiter =
      perMinute > 0
        ? storeLimiter(store, { keyPrefix: name, points: perMinute, durationSec: KEYED_WINDOW_SECONDS })
        : undefined;
  }

  /** Counts one request of `subject`; throws RATE_LIMITED (429, Retry-After) once the minute is used up. */
  async consume(subject: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(createHmac('sha256', this.hashKey).update(subject).digest('base64url'), 1);
    } catch (err) {
      if (!isRejection(err)) throw err;
      throw errors.rateLimited({
        rule: `The ${this.name} limit allows ${this.perMinute} requests per minute`,
        details: { limit: this.perMinute, scope: this.name, window_seconds: KEYED_WINDOW_SECONDS },
        retryAfterMs: err.msBeforeNext,
      });
    }
  }
}
