/**
 * What every outbound request to one upstream passes first, shared by every caller of one
 * process (the encyclopedia's routes, skills and reference resolution use one):
 * - an upstream cool-down: after the upstream's 429, nothing is sent until its Retry-After
 *   has passed; callers get UPSTREAM_RATE_LIMITED with the remaining wait at once;
 * - the shared outbound budget (`outboundPerMinute` requests per minute across every caller);
 *   used up, the answer is BUDGET_EXHAUSTED with Retry-After, never a fallback;
 * - bounded concurrency (`maxConcurrency` requests in flight; the rest wait).
 * All three are kept in this process's memory: each replica and worker has its own.
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { errors } from '../errors/errors.js';
import { SkillflowError } from '../errors/skillflow-error.js';
import { isRejection } from '../store/owners/rate-limits.js';

export const BUDGET_WINDOW_SECONDS = 60;

export interface GuardOptions {
  /** The upstream as messages name it (`The encyclopedia`). */
  upstream: string;
  /** Its provider id (`details.provider`). */
  provider: string;
  outboundPerMinute: number;
  maxConcurrency: number;
  now?: () => number;
}

export class OutboundGuard {
  private readonly budget: RateLimiterMemory | undefined;
  private readonly now: () => number;
  private coolDownUntil = 0;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  /** Most requests ever in flight at once (for tests and diagnostics). */
  maxInFlight = 0;

  constructor(private readonly options: GuardOptions) {
    this.now = options.now ?? Date.now;
    this.budget =
      options.outboundPerMinute > 0
        ? new RateLimiterMemory({ points: options.outboundPerMinute, duration: BUDGET_WINDOW_SECONDS })
        : undefined;
  }

  /**
   * Runs one upstream request under the guard; `charge` (the platform's upstream meter) is
   * called right before it is sent. An upstream 429 starts the cool-down.
   */
  async run<T>(
    send: () => Promise<T>,
    ctx: { signal: AbortSignal; charge?: (() => Promise<void>) | undefined },
  ): Promise<T> {
    this.checkCoolDown();
    await this.charge();
    await ctx.charge?.();
    await this.acquire(ctx.signal);
    try {
      return await send();
    } catch (err) {
      if (err instanceof SkillflowError && err.code === 'UPSTREAM_RATE_LIMITED' && err.retryAfterMs)
        this.coolDownUntil = Math.max(this.coolDownUntil, this.now() + err.retryAfterMs);
      throw err;
    } finally {
      this.release();
    }
  }

  private checkCoolDown(): void {
    const wait = this.coolDownUntil - this.now();
    if (wait <= 0) return;
    const { upstream, provider } = this.options;
    throw errors.upstreamSlowDown({ upstream, provider, retryAfterMs: wait });
  }

  private async charge(): Promise<void> {
    if (this.options.outboundPerMinute <= 0) throw budgetError(this.options, BUDGET_WINDOW_SECONDS * 1000);
    try {
      await this.budget?.consume('outbound', 1);
    } catch (err) {
      if (!isRejection(err)) throw err;
      throw budgetError(this.options, err.msBeforeNext);
    }
  }

  private async acquire(signal: AbortSignal): Promise<void> {
    if (this.inFlight < this.options.maxConcurrency) {
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next waiter; otherwise it is freed.
    if (next) next();
    else this.inFlight -= 1;
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
