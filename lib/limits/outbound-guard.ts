/**
 * What every outbound request to one upstream passes first, shared by every caller of one
 * process (the encyclopedia's routes, skills and reference resolution use one) and, when the
 * guard is built with the platform store, by every process on that store:
 * - an upstream cool-down: after the upstream's 429, nothing is sent until its Retry-After
 *   has passed; callers get UPSTREAM_RATE_LIMITED with the remaining wait at once. With the
 *   store, the process that receives the 429 closes a gate row (`gate:<provider>` in
 *   `rate_limits`, its expiry the end of the wait) that every process reads before sending;
 * - the outbound budget (`outboundPerMinute` requests per minute across every caller); used
 *   up, the answer is BUDGET_EXHAUSTED with Retry-After, never a fallback. With the store it is
 *   one `rate_limits` counter (`outbound:<provider>:budget`) charged per request;
 * - bounded concurrency (`maxConcurrency` requests in flight; the rest wait): with the store,
 *   expiring leases shared by every process (upstream-slots.ts: lease length and waiting).
 * Without a store (unit code paths) all three are kept in this process's memory.
 * With the store each request costs up to four store statements (gate read, budget charge,
 * lease take and release), small beside the upstream request itself.
 */
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { errors } from '../errors/errors.js';
import { SkillflowError } from '../errors/skillflow-error.js';
import type { Store } from '../store/db.js';
import { isRejection, storeLimiter } from '../store/owners/rate-limits.js';
import { CoolDownGate } from './cool-down-gate.js';
import { MemorySlots, StoreSlots, type Slots, type StoreSlotsOptions } from './upstream-slots.js';

export const BUDGET_WINDOW_SECONDS = 60;

export interface GuardOptions {
  /** The upstream as messages name it (`The encyclopedia`). */
  upstream: string;
  /** Its provider id (`details.provider`); names the guard's rows in the store. */
  provider: string;
  outboundPerMinute: number;
  maxConcurrency: number;
  /** Shares the budget, the concurrency bound and the cool-down with every process on it. */
  store?: Store | undefined;
  /** The lease timings of the shared concurrency bound (tests shorten them). */
  slots?: Pick<StoreSlotsOptions, 'leaseMs' | 'renewMs' | 'pollMs'>;
  now?: () => number;
}

export class OutboundGuard {
  private readonly budget: RateLimiterAbstract | undefined;
  private readonly slots: Slots;
  private readonly now: () => number;
  private readonly gate: CoolDownGate;
  private inFlight = 0;
  /** Most requests of this guard ever in flight at once (for tests and diagnostics). */
  maxInFlight = 0;

  constructor(private readonly options: GuardOptions) {
    const { store, provider, outboundPerMinute, maxConcurrency } = options;
    this.now = options.now ?? Date.now;
    this.gate = new CoolDownGate(provider, store, this.now);
    const window = { points: outboundPerMinute, duration: BUDGET_WINDOW_SECONDS };
    this.budget =
      outboundPerMinute <= 0
        ? undefined
        : store
          ? storeLimiter(store, {
              keyPrefix: `outbound:${provider}`,
              points: outboundPerMinute,
              durationSec: 60,
            })
          : new RateLimiterMemory(window);
    this.slots = store
      ? new StoreSlots(store, { upstream: provider, max: maxConcurrency, ...options.slots })
      : new MemorySlots(maxConcurrency);
  }

  /**
   * Runs one upstream request under the guard; `charge` (the platform's upstream meter) is
   * called right before it is sent. An upstream 429 starts the cool-down.
   */
  async run<T>(
    send: () => Promise<T>,
    ctx: { signal: AbortSignal; charge?: (() => Promise<void>) | undefined },
  ): Promise<T> {
    await this.checkCoolDown();
    await this.charge();
    await ctx.charge?.();
    const release = await this.slots.acquire(ctx.signal);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await send();
    } catch (err) {
      if (err instanceof SkillflowError && err.code === 'UPSTREAM_RATE_LIMITED' && err.retryAfterMs)
        await this.coolDown(this.now() + err.retryAfterMs);
      throw err;
    } finally {
      this.inFlight -= 1;
      await release();
    }
  }

  private async checkCoolDown(): Promise<void> {
    const { upstream, provider } = this.options;
    const wait = await this.gate.remainingMs();
    if (wait <= 0) return;
    throw errors.upstreamSlowDown({ upstream, provider, retryAfterMs: wait });
  }

  /** Closes the gate here and, with the store, for every process. */
  private async coolDown(until: number): Promise<void> {
    await this.gate.close(until);
  }

  private async charge(): Promise<void> {
    if (this.options.outboundPerMinute <= 0) throw budgetError(this.options, BUDGET_WINDOW_SECONDS * 1000);
    try {
      await this.budget?.consume('budget', 1);
    } catch (err) {
      if (!isRejection(err)) throw err;
      throw budgetError(this.options, err.msBeforeNext);
    }
  }
}

function budgetError(opts: GuardOptions, msBeforeNext: number): SkillflowError {
  const perMinute = opts.outboundPerMinute;
  return errors.budgetExhausted({
    rule: `${opts.upstream}'s outbound budget of ${perMinute} requests per minute is used up`,
    provider: opts.provider,
    details: { limit: perMinute, window_seconds: BUDGET_WINDOW_SECONDS },
    retryAfterMs: msBeforeNext,
  });
}
