/**
 * The encyclopedia's outbound budget, concurrency bound and upstream cool-down are shared by
 * every process on the platform store: two services built as two processes build them (each its
 * own registry, one store) spend one budget, hold at most ENCYCLOPEDIA_MAX_CONCURRENCY requests
 * in flight together, and both wait out an upstream 429 that only one of them received.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../../lib/config.js';
import { takeLease } from '../../../../lib/store/owners/rate-limits.js';
import {
  startEncyclopediaSimulator,
  type EncyclopediaSimulator,
} from '../../../../simulators/encyclopedia/server.js';
import { envelope } from '../../../../test/helpers/envelope.js';
import { storeEngines, useEngineStore } from '../../../../test/helpers/store-engines.js';
import { encyclopediaConfig } from '../config.js';
import { createEncyclopediaService, type EncyclopediaService } from './service.js';

const signal = new AbortController().signal;
const en = 'en' as const;

describe.each(storeEngines())('the encyclopedia guard across processes on $name', (engine) => {
  const current = useEngineStore(engine);
  let sim: EncyclopediaSimulator;
  beforeAll(async () => {
    sim = await startEncyclopediaSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    sim.reset();
    await current().db.deleteFrom('rate_limits').execute();
  });

  /** Two services as two processes build them: each from its own environment, one store. */
  function twoProcesses(vars: Record<string, string>): [EncyclopediaService, EncyclopediaService] {
    const build = () =>
      createEncyclopediaService(
        encyclopediaConfig(
          loadConfig({
            ENCYCLOPEDIA_URL: sim.urlTemplate,
            ENCYCLOPEDIA_IMAGE_HOSTS: sim.imageHost,
            ENCYCLOPEDIA_USER_AGENT: 'test (ops@test)',
            ...vars,
          }),
        ),
        { store: current() },
      );
    return [build(), build()];
  }

  it('one outbound budget: the second process is refused once the first spent its share', async () => {
    const [a, b] = twoProcesses({ ENCYCLOPEDIA_OUTBOUND_PER_MINUTE: '3' });
    await a.summary({ title: 'Paris', language: en }, { signal });
    await b.summary({ title: 'Berlin', language: en }, { signal });
    await a.summary({ title: 'Moon', language: en }, { signal });
    const refused = (await envelope(b.summary({ title: 'Jupiter', language: en }, { signal }))) as {
      error: { details: { retry_after_seconds: number } };
    };
    expect(refused).toEqual({
      error: {
        code: 'BUDGET_EXHAUSTED',
        message: `The encyclopedia's outbound budget of 3 requests per minute is used up; retry in ${refused.error.details.retry_after_seconds} s.`,
        details: {
          provider: 'encyclopedia',
          limit: 3,
          window_seconds: 60,
          retry_after_seconds: refused.error.details.retry_after_seconds,
        },
      },
    });
    expect(refused.error.details.retry_after_seconds).toBeGreaterThan(50);
    expect(sim.requests()).toHaveLength(3);
  });

  it('one concurrency bound: never more than ENCYCLOPEDIA_MAX_CONCURRENCY in flight across both', async () => {
    const [a, b] = twoProcesses({ ENCYCLOPEDIA_MAX_CONCURRENCY: '2' });
    let inFlight = 0;
    let peak = 0;
    const task = (s: EncyclopediaService) =>
      s.guard.run(
        async () => {
          inFlight += 1;
          peak = Math.max(peak, inFlight);
          await new Promise((r) => setTimeout(r, 150));
          inFlight -= 1;
        },
        { signal },
      );
    await Promise.all([task(a), task(b), task(a), task(b), task(a), task(b)]);
    expect([peak, a.guard.maxInFlight + b.guard.maxInFlight >= 2]).toEqual([2, true]);
    // Every lease was given back.
    const leases = await current()
      .db.selectFrom('rate_limits')
      .select('key')
      .where('key', 'like', 'lease:%')
      .execute();
    expect(leases).toEqual([]);
  });

  it("a killed process's slots come back when their leases expire", async () => {
    const [a] = twoProcesses({ ENCYCLOPEDIA_MAX_CONCURRENCY: '2' });
    // What a process SIGKILLed mid-request leaves behind: both slots leased, never given back.
    const dead = { prefix: 'lease:encyclopedia', slots: 2, token: 7, leaseMs: 600 };
    const started = Date.now();
    expect(await takeLease(current(), dead, started)).toMatch(/^lease:encyclopedia:[01]$/);
    expect(await takeLease(current(), dead, started)).toMatch(/^lease:encyclopedia:[01]$/);
    expect(await takeLease(current(), dead, started)).toBeUndefined();
    const sent = await a.guard.run(() => Promise.resolve(Date.now()), { signal });
    expect(sent - started).toBeGreaterThanOrEqual(600);
    expect(sent - started).toBeLessThan(5_000);
  });

  it('a waiting request gives up when its signal aborts', async () => {
    const [a] = twoProcesses({ ENCYCLOPEDIA_MAX_CONCURRENCY: '1' });
    await takeLease(current(), { prefix: 'lease:encyclopedia', slots: 1, token: 7, leaseMs: 60_000 });
    const aborted = AbortSignal.timeout(300);
    let sent = 0;
    const err = await a.guard
      .run(() => Promise.resolve(++sent), { signal: aborted })
      .catch((e: unknown) => e);
    expect([sent, (err as Error).name]).toEqual([0, 'TimeoutError']);
  });

  it("one upstream's 429 makes every process wait out its Retry-After", async () => {
    const [a, b] = twoProcesses({});
    sim.setFault({ type: 'rate_limited', retryAfterSeconds: 30, times: 1 });
    expect(await envelope(a.summary({ title: 'Paris', language: en }, { signal }))).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'The encyclopedia asked us to slow down; retry in 30 s.',
        details: { provider: 'encyclopedia', retry_after_seconds: 30 },
      },
    });
    expect(sim.requests()).toHaveLength(1);
    const refused = (await envelope(b.summary({ title: 'Berlin', language: en }, { signal }))) as {
      error: { details: { retry_after_seconds: number } };
    };
    expect(refused).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: `The encyclopedia asked us to slow down; retry in ${refused.error.details.retry_after_seconds} s.`,
        details: { provider: 'encyclopedia', retry_after_seconds: refused.error.details.retry_after_seconds },
      },
    });
    expect(refused.error.details.retry_after_seconds).toBeGreaterThanOrEqual(29);
    // The second process sent nothing.
    expect(sim.requests()).toHaveLength(1);
  });
});
