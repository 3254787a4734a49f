/**
 * Several counters charged in one statement, on both store engines: the same rule as
 * rate-limiter-flexible's own upsert (so the library's limiters read and reward the same rows),
 * repeated keys summed, an ended window restarted, and refunds that leave a new window alone.
 */
import { describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../../test/helpers/store-engines.js';
import { chargeCounters, refundCounters, storeLimiter } from './rate-limits.js';

describe.each(storeEngines())('rate_limits counters on $name', (engine) => {
  const current = useEngineStore(engine);

  it('charges several counters in one statement, as the library counts them', async () => {
    const store = current();
    const lib = storeLimiter(store, { keyPrefix: 'tier:pro', points: 3, durationSec: 60 });
    await lib.consume('owner_x', 1);
    const now = Date.now();
    const states = await chargeCounters(
      store,
      [
        { key: 'tier:pro:owner_x', points: 1, durationSec: 60 },
        { key: 'provider:shop:shop:a.b:-', points: 1, durationSec: 30 },
        { key: 'provider:shop:shop:a.b:-', points: 1, durationSec: 30 },
      ],
      now,
    );
    expect(states.get('tier:pro:owner_x')?.consumed).toBe(2);
    expect(states.get('provider:shop:shop:a.b:-')).toEqual({ consumed: 2, msBeforeNext: 30_000 });
    const res = await lib.get('owner_x');
    expect(res?.consumedPoints).toBe(2);
    // Over the limit is still charged (the caller refunds), as the library's consume does.
    await chargeCounters(store, [{ key: 'tier:pro:owner_x', points: 2, durationSec: 60 }]);
    expect((await lib.get('owner_x'))?.consumedPoints).toBe(4);
  });

  it('restarts a counter whose window ended, and refunds only within the current window', async () => {
    const store = current();
    const t0 = Date.now();
    await chargeCounters(store, [{ key: 'k:w', points: 5, durationSec: 10 }], t0);
    const later = t0 + 10_001;
    const states = await chargeCounters(store, [{ key: 'k:w', points: 1, durationSec: 10 }], later);
    expect(states.get('k:w')).toEqual({ consumed: 1, msBeforeNext: 10_000 });
    await refundCounters(store, [{ key: 'k:w', points: 1, durationSec: 10 }], later);
    const after = await chargeCounters(store, [{ key: 'k:w', points: 0, durationSec: 10 }], later);
    expect(after.get('k:w')?.consumed).toBe(0);
    // A refund after the window ended leaves the row as it is.
    await refundCounters(store, [{ key: 'k:w', points: 1, durationSec: 10 }], later + 20_000);
    const rows = await store.db.selectFrom('rate_limits').select('points').where('key', '=', 'k:w').execute();
    expect(rows).toEqual([{ points: 0 }]);
  });
});
