/**
 * The call-wide Retry-After gate. After the shop answers 429 (or
 * our own shop provider limit is used up), no operation of the same call starts a new shop
 * request before the Retry-After time: not the operation that got the 429, not the group's other
 * exact lookups, not the sibling groups. Requests already in flight may finish.
 *
 * An operation that meets a closed gate waits for it when the wait fits its group's deadline;
 * otherwise it is not sent and reports UPSTREAM_RATE_LIMITED with the remaining wait. On the
 * anonymous route nothing may wait: `onClose` then ends the whole call at once.
 */
import { ShopError } from '../../upstream/index.js';
import { sleep } from './deadline.js';
import { RETRY_MARGIN_MS } from './fallback.js';

/** The wait assumed for a 429 without a usable Retry-After header. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

export class RateGate {
  private openAt = 0;

  /**
   * @param onClose called with the wait each time the gate closes, and whether the shop itself
   *   answered 429 (otherwise our own shop provider limit is used up); the anonymous route aborts.
   * @param now monotonic clock in ms (injectable for tests).
   */
  constructor(
    private readonly onClose: (waitMs: number, fromShop: boolean) => void = () => undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Closes the gate for `waitMs` from now (never shortens an earlier, longer wait). */
  close(waitMs: number, fromShop = true): void {
    this.openAt = Math.max(this.openAt, this.now() + waitMs);
    this.onClose(waitMs, fromShop);
  }

  /** Milliseconds until the gate opens; 0 when open. */
  waitMs(): number {
    return Math.max(0, Math.ceil(this.openAt - this.now()));
  }

  /**
   * Resolves when the gate is open, waiting for it when the wait fits `remainingMs` (the group's
   * time left, minus a margin for the request itself). Otherwise rejects with a `rate_limited`
   * ShopError carrying the remaining wait: the request is never sent.
   */
  async pass(operation: 'lookup' | 'suggest', remainingMs: number, signal: AbortSignal): Promise<void> {
    const wait = this.waitMs();
    if (wait === 0) return;
    if (wait + RETRY_MARGIN_MS >= remainingMs) {
      throw new ShopError({
        kind: 'rate_limited',
        via: 'direct',
        operation,
        message: 'Not sent: the shop asked this call to wait past the group deadline.',
        retryAfterMs: wait,
      });
    }
    await sleep(wait, signal);
  }

  /**
   * Closes the gate for a 429 (or a used-up provider limit) and returns the error to report,
   * with the assumed wait filled in when the shop sent no usable Retry-After.
   */
  rateLimited(err: ShopError): ShopError {
    const waitMs = err.retryAfterMs ?? DEFAULT_RATE_LIMIT_WAIT_MS;
    // A rate_limited error without an HTTP status was never sent: our own provider limit.
    this.close(waitMs, err.httpStatus !== undefined);
    if (err.retryAfterMs !== undefined) return err;
    return new ShopError({
      kind: 'rate_limited',
      via: err.via,
      operation: err.operation,
      message: err.message,
      ...(err.httpStatus === undefined ? {} : { status: err.httpStatus }),
      retryAfterMs: waitMs,
    });
  }
}
