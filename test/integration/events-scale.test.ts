/**
 * An event among 1,000 waiting runs: every run records its wait in the event index, and each
 * event resumes exactly the run whose match it fits, found through the index (two indexed reads
 * by owner, event name and match hash), not by listing runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { orderWaiter, startOrderRuns } from '../helpers/event-waiters.js';

const RUNS = 1_000;

describe('events among 1,000 waiting runs', () => {
  let h: EngineHarness;
  beforeAll(async () => {
    h = await startEngine({
      config: { OWNER_MAX_RUNNING_RUNS: 2_000, RATE_LIMIT_STANDARD_PER_MINUTE: 1_000_000 },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('resumes exactly the run each event fits', async () => {
    const def = await h.request(
      'POST',
      '/v1/workflows',
      orderWaiter('Wait for payment', 'order.paid'),
      'application/yaml',
    );
    expect(def.status, def.body).toBe(201);
    const runs = await startOrderRuns(h, def.json.id, { n: RUNS, prefix: 'o', concurrency: 20 });
    const recorded = async () =>
      Number(
        (
          await h.api.deps.store.db
            .selectFrom('event_waits')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const deadline = Date.now() + 240_000;
    while ((await recorded()) < RUNS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    expect(await recorded()).toBe(RUNS);

    for (const i of [0, 417, 999]) {
      const res = await h.request('POST', '/v1/events', { name: 'order.paid', data: { order_id: `o-${i}` } });
      expect([res.status, res.json]).toEqual([200, { resumed: 1, started: 0 }]);
      const done = await h.waitForTask(runs[i]!, (t) => t.status === 'completed');
      expect(done.result.outputs.paid).toEqual({ received: true, data: { order_id: `o-${i}` } });
    }
    const none = await h.request('POST', '/v1/events', { name: 'order.paid', data: { order_id: 'o-1000' } });
    expect(none.json).toEqual({ resumed: 0, started: 0 });
    expect(await recorded()).toBe(RUNS - 3);
    expect((await h.request('GET', `/v1/tasks/${runs[1]}`)).json.status).toBe('running');
  }, 420_000);
});
