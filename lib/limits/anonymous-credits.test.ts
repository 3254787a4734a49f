/**
 * Anonymous credit reservations on both store engines: the limiter's SQL (rate-limiter-flexible
 * over the Kysely adapter) must hold its all-or-nothing and no-overspend guarantees on PGlite
 * and on a real PostgreSQL, where concurrent transactions really run in parallel.
 */
import { describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../test/helpers/store-engines.js';
import { AnonymousCredits, type Allowances } from './anonymous-credits.js';

const allowances = (identityDaily: number): Allowances => ({
  identity: { daily: identityDaily, weekly: 100, monthly: 100 },
  ip: { daily: 100, weekly: 100, monthly: 100 },
  pool: { daily: 1000, weekly: 1000, monthly: 1000 },
});

describe.each(storeEngines())('anonymous credits on $name', (engine) => {
  const current = useEngineStore(engine);

  it('charges until the daily allowance is used up, then rejects without charging, and refunds', async () => {
    const credits = new AnonymousCredits(current(), allowances(3), Buffer.alloc(32, 1));
    const keys = credits.keysFor('guest-aaaaaaaaaaaaaaaa', '203.0.113.7');
    const reservations = [];
    for (let i = 0; i < 3; i++) reservations.push(await credits.reserve(keys, 1));
    const rejected = await credits.reserve(keys, 1).catch((e: unknown) => e);
    expect(rejected).toMatchObject({
      code: 'ANONYMOUS_LIMIT_EXHAUSTED',
      details: { reason: 'daily_limit_reached' },
    });
    expect(await credits.check(keys, 1)).toMatchObject({ ok: false, reason: 'daily_limit_reached' });
    // The tightest allowance (the guest's daily 3) is used up.
    const status = await credits.status(keys);
    expect(status.daily_remaining_percent).toBe(0);
    await credits.refund(reservations[0]!);
    expect(await credits.check(keys, 1)).toEqual({ ok: true });
  });

  it('never overspends under concurrency: 12 parallel reservations against 5 credits', async () => {
    const credits = new AnonymousCredits(current(), allowances(5), Buffer.alloc(32, 2));
    const keys = credits.keysFor('guest-bbbbbbbbbbbbbbbb', '203.0.113.8');
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => credits.reserve(keys, 1)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures).toHaveLength(7);
    for (const f of failures) expect(f.reason).toMatchObject({ code: 'ANONYMOUS_LIMIT_EXHAUSTED' });
  });

  it('stores only keyed hashes of the guest id and the IP', async () => {
    const rows = await current()
      .db.selectFrom('rate_limits' as never)
      .selectAll()
      .execute();
    const text = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(0);
    for (const raw of ['guest-aaaaaaaaaaaaaaaa', 'guest-bbbbbbbbbbbbbbbb', '203.0.113.7', '203.0.113.8'])
      expect(text).not.toContain(raw);
  });
});
