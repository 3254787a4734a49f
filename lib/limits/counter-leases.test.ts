/**
 * Leases of store counters: several counters needing a lease get it in one statement; a refused
 * counter leaves the others to be given back; what a lease was not granted goes back to the
 * store at once, so the store holds exactly the points leased.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../test/helpers/store-engines.js';
import { CounterLeases, type LeasedCounter } from './counter-leases.js';

const counter = (key: string, limit: number, lease: number, points = 1): LeasedCounter => ({
  key,
  limit,
  durationSec: 60,
  lease,
  points,
});

describe.each(storeEngines())('counter leases on $name', (engine) => {
  const current = useEngineStore(engine);
  beforeEach(async () => {
    await current().db.deleteFrom('rate_limits').execute();
  });
  const stored = async () =>
    Object.fromEntries(
      (await current().db.selectFrom('rate_limits').select(['key', 'points']).orderBy('key').execute()).map(
        (r) => [r.key, r.points],
      ),
    );

  it('leases every counter that needs it at once, then spends locally', async () => {
    const leases = new CounterLeases(current());
    const first = await leases.admitAll([counter('t:a', 100, 5), counter('t:b', 3, 5, 2)]);
    expect([...first].map(([k, o]) => [k, o.admitted, o.used])).toEqual([
      ['t:a', true, 1],
      ['t:b', true, 2],
    ]);
    // t:b's limit is 3: its lease was cut to 3 (max(points, min(lease, limit))).
    expect(await stored()).toEqual({ 't:a': 5, 't:b': 3 });
    const second = await leases.admitAll([counter('t:a', 100, 5), counter('t:b', 3, 5, 2)]);
    // t:b has one token left and is the last of its window: refused; t:a admitted locally.
    expect([...second].map(([k, o]) => [k, o.admitted, o.used])).toEqual([
      ['t:a', true, 2],
      ['t:b', false, 4],
    ]);
    expect(await stored()).toEqual({ 't:a': 5, 't:b': 3 });
    // Giving t:a back makes its token spendable again, still without the store.
    leases.giveBack('t:a', 1);
    const third = await leases.admit('t:a', 100, 60, 5);
    expect([third.admitted, third.used]).toEqual([true, 2]);
    expect(await stored()).toEqual({ 't:a': 5, 't:b': 3 });
  });

  it('gives back to the store what another process left no room for', async () => {
    const [a, b] = [new CounterLeases(current()), new CounterLeases(current())];
    expect((await a.admit('t:c', 12, 60, 10)).admitted).toBe(true);
    // b asks for 10 where 2 are left: granted 2, the other 8 go back to the store at once.
    expect((await b.admit('t:c', 12, 60, 10)).admitted).toBe(true);
    expect(await stored()).toEqual({ 't:c': 12 });
    expect((await b.admit('t:c', 12, 60, 10)).admitted).toBe(true);
    const refused = await b.admit('t:c', 12, 60, 10);
    expect([refused.admitted, refused.used]).toEqual([false, 13]);
    expect(refused.msBeforeNext).toBeGreaterThan(0);
    expect(await stored()).toEqual({ 't:c': 12 });
  });
});
