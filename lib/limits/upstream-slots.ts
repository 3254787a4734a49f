/**
 * The concurrency bound of an outbound guard: at most `max` requests to one upstream in flight,
 * the rest wait. {@link MemorySlots} bounds one process; {@link StoreSlots} bounds every process
 * sharing the platform store.
 *
 * StoreSlots: each request in flight holds one of `max` lease rows in `rate_limits`
 * (`lease:<upstream>:<i>`), taken in one statement. A lease lasts {@link SLOT_LEASE_MS} and is
 * renewed every {@link SLOT_RENEW_MS} while its request runs, and deleted when it ends; a
 * process killed mid-request (SIGKILL, power loss) therefore holds its slots at most
 * SLOT_LEASE_MS longer. A request that finds every slot held waits: it tries again as soon as a
 * request of its own process ends, and otherwise every {@link SLOT_POLL_MS}, until a slot is
 * free or its signal aborts. Waiters of different processes are not served in arrival order.
 */
import { randomInt } from 'node:crypto';
import type { Store } from '../store/db.js';
import { releaseLease, renewLease, takeLease } from '../store/owners/rate-limits.js';

/** How long a slot's lease lasts without renewal: the longest a killed process holds a slot. */
export const SLOT_LEASE_MS = 15_000;
/** How often a running request renews its lease. */
export const SLOT_RENEW_MS = 5_000;
/** How often a waiting request looks for a free slot (besides when its own process frees one). */
export const SLOT_POLL_MS = 100;

/** Gives a slot back. */
export type Release = () => Promise<void>;

export interface Slots {
  /** Waits for a slot (or the signal's abort, which rejects with its reason). */
  acquire(signal: AbortSignal): Promise<Release>;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** This process's slots; a freed slot passes straight to the next waiter, in arrival order. */
export class MemorySlots implements Slots {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async acquire(signal: AbortSignal): Promise<Release> {
    if (this.inFlight < this.max) this.inFlight += 1;
    else
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(grant);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortReason(signal));
        };
        const grant = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(grant);
      });
    return () => {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; otherwise it is freed.
      if (next) next();
      else this.inFlight -= 1;
      return Promise.resolve();
    };
  }
}

export interface StoreSlotsOptions {
  /** Names the lease rows (`lease:<upstream>:<i>`). */
  upstream: string;
  max: number;
  leaseMs?: number;
  renewMs?: number;
  pollMs?: number;
}

/** Slots shared by every process on the store, as expiring leases (see the module comment). */
export class StoreSlots implements Slots {
  private readonly wakers = new Set<() => void>();
  private readonly leaseMs: number;
  private readonly renewMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly store: Store,
    private readonly options: StoreSlotsOptions,
  ) {
    this.leaseMs = options.leaseMs ?? SLOT_LEASE_MS;
    this.renewMs = options.renewMs ?? SLOT_RENEW_MS;
    this.pollMs = options.pollMs ?? SLOT_POLL_MS;
  }

  async acquire(signal: AbortSignal): Promise<Release> {
    const token = randomInt(1, 2 ** 31 - 1);
    const req = {
      prefix: `lease:${this.options.upstream}`,
      slots: this.options.max,
      token,
      leaseMs: this.leaseMs,
    };
    for (;;) {
      if (signal.aborted) throw abortReason(signal);
      const key = await takeLease(this.store, req);
      if (key) return this.held({ key, token });
      await this.pause(signal);
    }
  }

  /** The release of a lease taken now, renewed until it is given back. */
  private held(lease: { key: string; token: number }): Release {
    const renew = setInterval(() => {
      renewLease(this.store, { ...lease, leaseMs: this.leaseMs }).catch(() => undefined);
    }, this.renewMs);
    renew.unref();
    return async () => {
      clearInterval(renew);
      // A lease the store could not delete expires on its own; the request's answer stands.
      await releaseLease(this.store, lease).catch(() => undefined);
      for (const wake of this.wakers) wake();
    };
  }

  /** Waits one poll interval, or less when a request of this process ends; rejects on abort. */
  private pause(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        signal.removeEventListener('abort', onAbort);
      };
      const done = () => {
        cleanup();
        resolve();
      };
      const onAbort = () => {
        cleanup();
        reject(abortReason(signal));
      };
      const timer = setTimeout(done, this.pollMs);
      this.wakers.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
