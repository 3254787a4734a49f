/**
 * The tier limit spent a lease at a time is still one limit per owner for every API replica:
 * two limit objects built as two processes build them, on one store, admit exactly the limit
 * together in a window, never more (no overshoot), and refuse no earlier than
 * `limit − (lease − 1) × (replicas − 1)` admitted requests. Within one process the
 * X-RateLimit-Remaining header counts down exactly.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../test/helpers/store-engines.js';
import type { Principal } from '../keys.js';
import { CounterLeases, defaultLease } from './counter-leases.js';
import { TierRateLimits } from './tier-limits.js';

const principal: Principal = { keyId: 'key_1', ownerId: 'owner_t', scopes: ['*'], tier: 'standard' };

/** Collects the X-RateLimit-* headers of one response. */
function reply() {
  const headers: Record<string, number> = {};
  return { headers, header: (name: string, value: number) => void (headers[name] = value) };
}

describe.each(storeEngines())('the tier limit across replicas on $name', (engine) => {
  const current = useEngineStore(engine);
  beforeEach(async () => {
    await current().db.deleteFrom('rate_limits').execute();
  });

  const limits = (perMinute: number, now?: () => number) =>
    new TierRateLimits(
      current(),
      { free: 1, standard: perMinute, pro: 1_000 },
      new CounterLeases(current(), now),
    );

  it('one replica: remaining counts down exactly, then the whole refusal with the reset', async () => {
    expect(defaultLease(90)).toBe(3);
    const t = limits(90);
    const seen: number[] = [];
    for (let i = 0; i < 90; i++) {
      const r = reply();
      expect(await t.apply(principal, r)).toBeUndefined();
      seen.push(r.headers['x-ratelimit-remaining']!);
    }
    expect(seen).toEqual(Array.from({ length: 90 }, (_, i) => 89 - i));
    const r = reply();
    const refused = await t.apply(principal, r);
    expect(refused?.code).toBe('RATE_LIMITED');
    expect(refused?.status).toBe(429);
    expect(refused?.details).toEqual({
      tier: 'standard',
      limit: 90,
      window_seconds: 60,
      retry_after_seconds: r.headers['x-ratelimit-reset'],
    });
    expect(r.headers['x-ratelimit-limit']).toBe(90);
    expect(r.headers['x-ratelimit-remaining']).toBe(0);
    expect(r.headers['x-ratelimit-reset']).toBeGreaterThan(0);
    expect(r.headers['x-ratelimit-reset']).toBeLessThanOrEqual(60);
  });

  it.each([
    { limit: 300, lease: 10 },
    { limit: 3000, lease: 100 },
  ])(
    'two replicas, requests interleaved and concurrent: never more than the limit $limit together (leases of $lease)',
    async ({ limit, lease }) => {
      expect(defaultLease(limit)).toBe(lease);
      const [a, b] = [limits(limit), limits(limit)];
      const admitted = { a: 0, b: 0 };
      let firstRefusalAfter: number | undefined;
      // Rounds of 40 concurrent requests, half to each replica: 8/3 of the limit in requests (800
      // for 300 tokens). Outcomes are counted in the order they arrive.
      for (let round = 0; round < (limit * 8) / 3 / 40; round++) {
        await Promise.all(
          Array.from({ length: 40 }, async (_, i) => {
            const side = i % 2 === 0 ? 'a' : 'b';
            const err = await (side === 'a' ? a : b).apply(principal, reply());
            if (err) {
              expect(err.code).toBe('RATE_LIMITED');
              firstRefusalAfter ??= admitted.a + admitted.b;
            } else admitted[side]++;
          }),
        );
      }
      // No overshoot: exactly the limit is admitted (every token leased got spent by the end).
      expect(admitted.a + admitted.b).toBe(limit);
      // The price of leasing: the first refusal came no earlier than limit − (lease − 1).
      expect(firstRefusalAfter).toBeGreaterThanOrEqual(limit - (lease - 1));
      // Both replicas served a share.
      expect(admitted.a).toBeGreaterThan(0);
      expect(admitted.b).toBeGreaterThan(0);
    },
  );

  it('a new window starts afresh; a lease never outlives the window it was taken in', async () => {
    let now = Date.now();
    const t = limits(30, () => now);
    for (let i = 0; i < 30; i++) expect(await t.apply(principal, reply())).toBeUndefined();
    expect((await t.apply(principal, reply()))?.code).toBe('RATE_LIMITED');
    now += 60_001;
    const r = reply();
    expect(await t.apply(principal, r)).toBeUndefined();
    expect(r.headers['x-ratelimit-remaining']).toBe(29);
  });
});
