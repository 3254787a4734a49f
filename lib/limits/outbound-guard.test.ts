import { describe, expect, it } from 'vitest';
import { errors } from '../errors/errors.js';
import { SkillflowError, toEnvelope } from '../errors/skillflow-error.js';
import { OutboundGuard } from './outbound-guard.js';

const signal = new AbortController().signal;
const upstream = { upstream: 'The encyclopedia', provider: 'encyclopedia' };

describe('OutboundGuard', () => {
  it('bounds concurrency: never more than maxConcurrency requests in flight, the rest wait', async () => {
    const guard = new OutboundGuard({ ...upstream, outboundPerMinute: 100, maxConcurrency: 2 });
    let inFlight = 0;
    let peak = 0;
    const task = () =>
      guard.run(
        async () => {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          await new Promise((r) => setTimeout(r, 20));
          inFlight -= 1;
          return inFlight;
        },
        { signal },
      );
    await Promise.all([task(), task(), task(), task(), task()]);
    expect([peak, guard.maxInFlight]).toEqual([2, 2]);
  });

  it('the shared budget ends with BUDGET_EXHAUSTED and Retry-After before anything is sent', async () => {
    const guard = new OutboundGuard({ ...upstream, outboundPerMinute: 2, maxConcurrency: 4 });
    let sent = 0;
    const send = () => guard.run(() => Promise.resolve(++sent), { signal });
    await send();
    await send();
    const err = await send().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkillflowError);
    const e = err as SkillflowError;
    expect(sent).toBe(2);
    expect(toEnvelope(e)).toEqual({
      error: {
        code: 'BUDGET_EXHAUSTED',
        message: `The encyclopedia's outbound budget of 2 requests per minute is used up; retry in ${e.details.retry_after_seconds as number} s.`,
        details: {
          provider: 'encyclopedia',
          limit: 2,
          window_seconds: 60,
          retry_after_seconds: Math.ceil((e.retryAfterMs ?? 0) / 1000),
        },
      },
    });
    expect(e.retryAfterMs).toBeGreaterThan(55_000);
  });
});

describe('OutboundGuard cool-down', () => {
  it("after the upstream's 429 nothing is sent until its Retry-After has passed", async () => {
    let now = 1_000_000;
    const guard = new OutboundGuard({
      ...upstream,
      outboundPerMinute: 100,
      maxConcurrency: 2,
      now: () => now,
    });
    const limited = errors.upstreamSlowDown({ ...upstream, retryAfterMs: 5000 });
    await guard.run(() => Promise.reject(limited), { signal }).catch(() => undefined);
    let sent = 0;
    now += 2000;
    const err = await guard.run(() => Promise.resolve(++sent), { signal }).catch((e: unknown) => e);
    expect([sent, toEnvelope(err as SkillflowError)]).toEqual([
      0,
      {
        error: {
          code: 'UPSTREAM_RATE_LIMITED',
          message: 'The encyclopedia asked us to slow down; retry in 3 s.',
          details: { provider: 'encyclopedia', retry_after_seconds: 3 },
        },
      },
    ]);
    now += 3000;
    expect(await guard.run(() => Promise.resolve(++sent), { signal })).toBe(1);
  });
});
