/**
 * Definition saves and deletes heard across processes, on a real PostgreSQL server: two stores
 * (as two API processes); the second caches an opened definition, and a new version or a delete
 * through the first makes it forget that definition within a second. On PGlite nothing listens.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../definitions/index.js';
import { TEST_KEYRING } from '../test/helpers/fixtures.js';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../test/helpers/postgres.js';
import { DefinitionCache } from './definition-cache.js';
import { watchDefinitionChanges } from './definition-changes.js';
import type { Listener } from './store/listen.js';
import { openStore, type Store } from './store/db.js';
import {
  deleteDefinition,
  findDefinition,
  insertDefinition,
  insertDefinitionVersion,
} from './store/owners/definitions.js';

async function until(cond: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(10);
  }
  return Date.now() - start;
}

const logger = { info: () => undefined, warn: () => undefined };
const plan = (title: string) =>
  ({ title, trigger: { type: 'manual' }, inputs: {}, steps: [] }) as unknown as Plan;

describe('definition changes on PGlite', () => {
  it('listens to nothing and leaves the cache caching', async () => {
    const store = await openStore({ pgliteDir: 'memory://' });
    try {
      const cache = new DefinitionCache();
      expect(watchDefinitionChanges(store, cache, logger)).toBeUndefined();
      expect(cache.caching).toBe(true);
    } finally {
      await store.close();
    }
  });
});

// Needs PostgreSQL's server binaries (LISTEN/NOTIFY, two connections): skipped only on a
// machine without them and never in CI, where a missing PostgreSQL fails the run.
describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())('definition changes on PostgreSQL', () => {
  let server: TestPostgres;
  let a: Store;
  let b: Store;
  let listener: Listener | undefined;
  const cache = new DefinitionCache();
  const readB = (id: string) =>
    cache.get('owner_d', id, () => findDefinition(b, TEST_KEYRING, 'owner_d', id));

  beforeAll(async () => {
    server = await startTestPostgres();
    a = await openStore({ databaseUrl: server.url });
    b = await openStore({ databaseUrl: server.url, migrate: false });
    listener = watchDefinitionChanges(b, cache, logger, { minBackoffMs: 50, maxBackoffMs: 200 });
  });
  afterAll(async () => {
    await listener?.close();
    await a?.close();
    await b?.close();
    server?.stop();
  });

  it('forgets a definition saved or deleted through another store within a second', async () => {
    expect(listener).toBeDefined();
    await until(() => cache.caching, 5_000);
    const d = { id: 'wf_changes', ownerId: 'owner_d', source: 'title: One', plan: plan('One') };
    expect(await insertDefinition(a, TEST_KEYRING, d)).toBe(true);
    expect((await readB(d.id))?.version).toBe(1);
    expect(cache.size).toBe(1);

    const v2 = { ...d, version: 2, source: 'title: Two', plan: plan('Two') };
    expect(await insertDefinitionVersion(a, TEST_KEYRING, v2)).toBe(true);
    expect(await until(() => cache.size === 0, 1_000)).toBeLessThan(1_000);
    expect((await readB(d.id))?.plan.title).toBe('Two');
    expect(cache.size).toBe(1);

    expect(await deleteDefinition(a, 'owner_d', d.id)).toBe(true);
    expect(await until(() => cache.size === 0, 1_000)).toBeLessThan(1_000);
    expect(await readB(d.id)).toBeUndefined();
  });
});
