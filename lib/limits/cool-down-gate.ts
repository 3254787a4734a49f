/**
 * An upstream's cool-down after its 429: closed until the Retry-After it named has passed.
 * With the platform store the gate is one row (`gate:<provider>` in `rate_limits`, its expiry
 * the end of the wait) that every process reads before sending while its own copy is open, so
 * one process's 429 holds back every process. A store that cannot be read or written leaves the
 * gate to this process's copy (the caller's answer is the upstream's 429 either way), and never
 * fails a request by itself. Without a store the gate is this process's alone.
 */
import type { Store } from '../store/db.js';
import { closeGate, gateOpensAt } from '../store/owners/rate-limits.js';

export class CoolDownGate {
  private until = 0;
  private readonly key: string;
  private readonly now: () => number;

  constructor(
    provider: string,
    private readonly store?: Store | undefined,
    now: () => number = Date.now,
  ) {
    this.key = `gate:${provider}`;
    this.now = now;
  }

  /** How long (ms) until the gate opens; 0 when it is open. */
  async remainingMs(): Promise<number> {
    if (this.store && this.until <= this.now()) {
      const shared = await gateOpensAt(this.store, this.key).catch(() => 0);
      this.until = Math.max(this.until, shared);
    }
    return Math.max(0, this.until - this.now());
  }

  /** Closes the gate until `untilMs` (epoch ms) here and, with the store, for every process. */
  async close(untilMs: number): Promise<void> {
    this.until = Math.max(this.until, untilMs);
    if (this.store) await closeGate(this.store, this.key, untilMs).catch(() => undefined);
  }
}
