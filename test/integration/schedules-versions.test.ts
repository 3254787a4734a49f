/**
 * A scheduled definition's Temporal Schedule follows the definition in version order: a sync of
 * an older version never overwrites a newer one (api/services/schedule-sync.ts), so after any
 * interleaving of saves, through one API process or several on one store, the schedule runs the
 * newest stored version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleIdOf } from '../../api/services/runs.js';
import { createServices } from '../../api/services/index.js';
import { scheduleVersion } from '../../api/services/schedule-sync.js';
import type { WorkflowEngine } from '../../api/services/workflow-engine.js';
import { buildTestApi, type TestApi } from '../helpers/api.js';
import { scheduledShoutDefinition } from '../helpers/definitions.js';
import { startEngine, type EngineHarness } from '../helpers/engine.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../helpers/postgres.js';

/** A definition that runs at `minute` past every hour. */
const atMinute = (minute: number) =>
  scheduledShoutDefinition('Hourly shout', [`cron: "${minute} * * * *"`, 'timezone: UTC']);

/** The definition version and the minute the schedule runs. */
async function scheduleOf(
  h: EngineHarness,
  id: string,
): Promise<{ version: number | undefined; minute: number }> {
  const desc = await h.env.client.schedule.getHandle(scheduleIdOf(id)).describe();
  return { version: scheduleVersion(desc), minute: desc.spec.calendars?.[0]?.minute?.[0]?.start ?? -1 };
}

describe('schedule sync in version order', () => {
  let h: EngineHarness;
  let engine: WorkflowEngine;
  beforeAll(async () => {
    h = await startEngine({ worker: false });
    engine = createServices(h.api.deps).engine;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps the newer version when a stale sync of an older one comes after it', async () => {
    const created = await h.request('POST', '/v1/workflows', atMinute(5), 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const v1 = await engine.definitions.get('owner_a', id);
    expect(v1.version).toBe(1);
    const saved = await h.request('PUT', `/v1/workflows/${id}`, atMinute(37), 'application/yaml');
    expect(saved.json.version).toBe(2);
    expect(await scheduleOf(h, id)).toEqual({ version: 2, minute: 37 });

    // The sync of version 1 arrives late (another API process was slower).
    await engine.runs.syncSchedule(v1);
    expect(await scheduleOf(h, id)).toEqual({ version: 2, minute: 37 });

    // A newer version still moves it forward.
    const v3 = await h.request('PUT', `/v1/workflows/${id}`, atMinute(41), 'application/yaml');
    expect(v3.json.version).toBe(3);
    expect(await scheduleOf(h, id)).toEqual({ version: 3, minute: 41 });
  });

  it('does not remove the schedule of a newer version when a stale sync of a manual version comes late', async () => {
    const manual = atMinute(0).replace(
      /start_when:\n {2}schedule:\n.*\n.*\n/u,
      'start_when:\n  manual: {}\n',
    );
    const created = await h.request('POST', '/v1/workflows', manual, 'application/yaml');
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    const v1 = await engine.definitions.get('owner_a', id);
    expect(v1.plan.trigger.type).toBe('manual');
    expect(
      (await h.request('PUT', `/v1/workflows/${id}`, atMinute(12), 'application/yaml')).json.version,
    ).toBe(2);
    await engine.runs.syncSchedule(v1);
    expect(await scheduleOf(h, id)).toEqual({ version: 2, minute: 12 });
  });
});

/** A tier limit the saves of this test do not reach. */
const ROOMY = {
  RATE_LIMIT_FREE_PER_MINUTE: 100_000,
  RATE_LIMIT_STANDARD_PER_MINUTE: 100_000,
  RATE_LIMIT_PRO_PER_MINUTE: 100_000,
};

// Skipped only outside CI on a machine without Debian PostgreSQL (as the store tests are); CI always runs it.
describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())(
  'schedule sync through two API processes on one store',
  () => {
    let pg: TestPostgres;
    let h: EngineHarness;
    let second: TestApi;
    beforeAll(async () => {
      pg = await startTestPostgres();
      h = await startEngine({ worker: false, databaseUrl: pg.url, config: ROOMY });
      second = await buildTestApi(h.env, { taskQueue: h.taskQueue, databaseUrl: pg.url, config: ROOMY });
    }, 120_000);
    afterAll(async () => {
      await second?.close();
      await h?.close();
      pg?.stop();
    });

    /** Saves `source` through API `n` (0 or 1), again while the store says it changed meanwhile. */
    async function save(n: number, id: string, source: string): Promise<void> {
      for (let attempt = 0; attempt < 20; attempt++) {
        const res =
          n === 0
            ? await h.request('PUT', `/v1/workflows/${id}`, source, 'application/yaml')
            : await second.app.inject({
                method: 'PUT',
                url: `/v1/workflows/${id}`,
                headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/yaml' },
                payload: source,
              });
        const status = 'status' in res ? res.status : res.statusCode;
        if (status === 200) return;
        expect(status).toBe(409);
      }
      throw new Error('save did not land in 20 attempts');
    }

    it('ends each of 22 rounds of 8 concurrent saves on the stored version', async () => {
      const created = await h.request('POST', '/v1/workflows', atMinute(0), 'application/yaml');
      expect(created.status).toBe(201);
      const id = created.json.id as string;
      for (let round = 0; round < 22; round++) {
        const minutes = Array.from({ length: 8 }, (_, i) => (round * 8 + i + 1) % 60);
        await Promise.all(minutes.map((m, i) => save(i % 2, id, atMinute(m))));
        const stored = (await h.request('GET', `/v1/workflows/${id}`)).json;
        const minute = Number(/cron: "(\d+) /u.exec(stored.source as string)?.[1]);
        expect(await scheduleOf(h, id)).toEqual({ version: stored.version, minute });
      }
    }, 180_000);
  },
);
