/**
 * A per-IP request limit kept in this process's memory, for public routes too hot for a store
 * round trip per request (the icon SVG route, which `<img src>` tags hit). Each API replica
 * counts on its own. Keys are the address keys of lib/net/client-ip.ts. `0` turns it off.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { errors } from '../errors/errors.js';

export class MemoryIpLimit {
  private readonly limiter: RateLimiterMemory | undefined;

  constructor(
    private readonly perMinute: number,
    private readonly label: string,
  ) {
    this.limiter = perMinute > 0 ? new RateLimiterMemory({ points: perMinute, duration: 60 }) : undefined;
  }

  /** Counts one request; throws RATE_LIMITED (429, Retry-After) once the minute is used up. */
  async consume(ipKey: string): Promise<void> {
    if (!this.limiter) return;
    try {
      await this.limiter.consume(ipKey, 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      throw errors.rateLimited({
        rule: `${this.label} allows ${this.perMinute} requests per minute from one address`,
        details: { limit: this.perMinute, window_seconds: 60 },
        retryAfterMs: err.msBeforeNext,
      });
    }
  }
}
