/**
 * The in-activity semaphore for upstream shop operations (2 in-flight provider
 * operations, shared by all groups of one call). A lookup holds a slot for its request; a
 * suggestion stream holds one from opening until it ends. Waiting for Retry-After or a backoff
 * never holds a slot. Slots are granted in FIFO order, so no group starves its siblings.
 */

/** In-flight provider operations per call. */
export const MAX_IN_FLIGHT_OPERATIONS = 2;

/** What the limiter observed; the benchmark prints ratios from it. */
export interface LimiterStats {
  capacity: number;
  /** Slots granted so far (one per upstream request or stream). */
  operations: number;
  /** Highest number of operations ever in flight at once. */
  maxInFlight: number;
  /** Operations in flight right now. */
  inFlight: number;
  /** Sum over slots of the time they were held, in ms (busy share = busyMs / (capacity × wall)). */
  busyMs: number;
  /** Total time operations spent waiting for a slot, in ms. */
  waitMs: number;
}

interface Waiter {
  grant: () => void;
  abort: () => void;
  signal: AbortSignal | undefined;
}

/** A FIFO counting semaphore with instrumentation and abortable waits. */
export class OperationLimiter {
  private inFlight = 0;
  private operations = 0;
  private maxInFlight = 0;
  private busyMs = 0;
  private waitMs = 0;
  private lastChange: number;
  private readonly queue: Waiter[] = [];

  /**
   * @param capacity slots shared by every caller of this instance.
   * @param now monotonic clock in ms (injectable for tests).
   */
  constructor(
    readonly capacity: number = MAX_IN_FLIGHT_OPERATIONS,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer');
    this.lastChange = now();
  }

  /**
   * Runs `fn` while holding one slot. Rejects with the signal's reason when it aborts while
   * waiting (the operation then never started); the slot is released however `fn` ends.
   */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  /** A snapshot of the instrumentation. */
  stats(): LimiterStats {
    this.account();
    return {
      capacity: this.capacity,
      operations: this.operations,
      maxInFlight: this.maxInFlight,
      inFlight: this.inFlight,
      busyMs: this.busyMs,
      waitMs: this.waitMs,
    };
  }

  private acquire(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.inFlight < this.capacity && this.queue.length === 0) {
      this.take();
      return Promise.resolve();
    }
    const queuedAt = this.now();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        signal,
        grant: () => {
          signal?.removeEventListener('abort', waiter.abort);
          this.waitMs += this.now() - queuedAt;
          this.take();
          resolve();
        },
        abort: () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) this.queue.splice(at, 1);
          this.waitMs += this.now() - queuedAt;
          reject(signal?.reason as Error);
        },
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', waiter.abort, { once: true });
    });
  }

  private take(): void {
    this.account();
    this.inFlight += 1;
    this.operations += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
  }

  private release(): void {
    this.account();
    this.inFlight -= 1;
    const next = this.queue.shift();
    next?.grant();
  }

  /** Adds the slot-time since the last change (in-flight count × elapsed) to busyMs. */
  private account(): void {
    const t = this.now();
    this.busyMs += this.inFlight * (t - this.lastChange);
    this.lastChange = t;
  }
}
