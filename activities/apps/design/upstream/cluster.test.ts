/**
 * The icon upstream's Retry-After gate is shared by every process on the platform store: after
 * one process's client receives a 429, a client built as another process builds it (same
 * store) sends nothing until the wait has passed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startIconSimulator, type IconSimulator } from '../../../../simulators/icons/server.js';
import { envelope } from '../../../../test/helpers/envelope.js';
import { storeEngines, useEngineStore } from '../../../../test/helpers/store-engines.js';
import { createIconClient } from './client.js';

const ctx = () => ({ signal: new AbortController().signal });

describe.each(storeEngines())('the icon Retry-After gate across processes on $name', (engine) => {
  const current = useEngineStore(engine);
  let sim: IconSimulator;
  beforeAll(async () => {
    sim = await startIconSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(async () => {
    sim.reset();
    await current().db.deleteFrom('rate_limits').execute();
  });

  it("one process's 429 makes the other wait out its Retry-After without sending", async () => {
    let now = Date.now();
    const clock = () => now;
    const a = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000, store: current(), now: clock });
    const b = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000, store: current(), now: clock });
    sim.setFaults([{ type: 'status', status: 429, retryAfter: '7' }]);
    expect(await envelope(a.svg('mdi', 'home', { height: 24 }, ctx()))).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'The icon upstream asked us to slow down; retry in 7 s.',
        details: { provider: 'icons', retry_after_seconds: 7 },
      },
    });
    sim.reset();
    now += 3_000;
    expect(await envelope(b.svg('mdi', 'home', { height: 24 }, ctx()))).toEqual({
      error: {
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'The icon upstream asked us to slow down; retry in 4 s.',
        details: { provider: 'icons', retry_after_seconds: 4 },
      },
    });
    expect(sim.requests()).toEqual([]);
    now += 4_000;
    expect(await b.svg('mdi', 'home', { height: 24 }, ctx())).toMatch(/^<svg /u);
    expect(sim.requests()).toHaveLength(1);
  });

  it('a store that cannot be read leaves the gate to the process: requests still go out', async () => {
    const closed = { ...current(), db: undefined } as unknown as Parameters<
      typeof createIconClient
    >[0]['store'];
    const client = createIconClient({ baseUrl: sim.url, timeoutMs: 5_000, store: closed });
    expect(await client.svg('mdi', 'home', { height: 24 }, ctx())).toMatch(/^<svg /u);
  });
});
