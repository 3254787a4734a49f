/**
 * Revocations heard across processes, on a real PostgreSQL server: two stores (as two API
 * processes) each with their own key cache; a key revoked through one is forgotten by the other
 * within a second. When the listening connection is cut the cache empties and caches nothing,
 * and caches again once the listener is back. On PGlite nothing listens.
 */
import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../test/helpers/postgres.js';
import { PrincipalCache } from './key-cache.js';
import { KEY_REVOCATIONS_APPLICATION, watchKeyRevocations } from './key-revocations.js';
import { createKey } from './keys.js';
import type { Listener } from './store/listen.js';
import { openStore, type Store } from './store/db.js';
import { revokeApiKey } from './store/owners/api-keys.js';

async function until(cond: () => boolean, ms: number): Promise<number> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await sleep(10);
  }
  return Date.now() - start;
}

const logged: { level: string; obj: unknown; msg?: string }[] = [];
const logger = {
  info: (obj: unknown, msg?: string) => void logged.push({ level: 'info', obj, msg }),
  warn: (obj: unknown, msg?: string) => void logged.push({ level: 'warn', obj, msg }),
} as unknown as Parameters<typeof watchKeyRevocations>[2];

describe('key revocations on PGlite', () => {
  it('listens to nothing and leaves the cache caching', async () => {
    const store = await openStore({ pgliteDir: 'memory://' });
    try {
      const cache = new PrincipalCache(store, { ttlMs: 10_000 });
      expect(watchKeyRevocations(store, cache, logger)).toBeUndefined();
      expect(cache.caching).toBe(true);
      const k = await createKey(store, { name: 'p', scopes: ['*'], ownerId: 'owner_p' });
      expect((await cache.verify(k.token))?.keyId).toBe(k.id);
      expect(cache.size).toBe(1);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())('key revocations on PostgreSQL', () => {
  let server: TestPostgres;
  let a: Store;
  let b: Store;
  let listener: Listener | undefined;
  const cache = () => cacheB;
  let cacheB: PrincipalCache;

  beforeAll(async () => {
    server = await startTestPostgres();
    a = await openStore({ databaseUrl: server.url });
    b = await openStore({ databaseUrl: server.url, migrate: false });
    cacheB = new PrincipalCache(b, { ttlMs: 60_000 });
    listener = watchKeyRevocations(b, cacheB, logger, { minBackoffMs: 50, maxBackoffMs: 200 });
  });
  afterAll(async () => {
    await listener?.close();
    await a?.close();
    await b?.close();
    server?.stop();
  });

  it('forgets a key revoked through another store within a second', async () => {
    expect(listener).toBeDefined();
    await until(() => cache().caching, 5_000);
    const k = await createKey(a, { name: 'r', scopes: ['*'], ownerId: 'owner_r' });
    const principal = { keyId: k.id, ownerId: 'owner_r', scopes: ['*'], tier: 'standard' };
    expect(await cache().verify(k.token)).toEqual(principal);
    expect(cache().size).toBe(1);
    expect(await revokeApiKey(a, 'owner_r', k.id)).toBe(true);
    expect(await until(() => cache().size === 0, 1_000)).toBeLessThan(1_000);
    expect(await cache().verify(k.token)).toBeUndefined();
  });

  it('stops caching while the listening connection is down, and caches again once it is back', async () => {
    await until(() => cache().caching, 5_000);
    const k = await createKey(a, { name: 'd', scopes: ['*'], ownerId: 'owner_d' });
    await cache().verify(k.token);
    expect(cache().size).toBe(1);
    logged.length = 0;
    const killed = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where application_name = ${KEY_REVOCATIONS_APPLICATION}`.execute(a.db);
    expect(killed.rows[0]!.n).toBe(1);
    await until(() => !cache().caching, 2_000);
    expect(cache().size).toBe(0);
    // While down, a verified key is not kept (a revocation now could go unheard).
    expect((await cache().verify(k.token))?.keyId).toBe(k.id);
    expect(cache().size).toBe(0);
    expect(logged[0]).toEqual({
      level: 'warn',
      obj: { errCode: '57P01' },
      msg: 'key revocation channel lost; every key is read from the store until it is back',
    });
    await until(() => cache().caching, 5_000);
    expect(logged.at(-1)).toEqual({
      level: 'info',
      obj: 'listening for key revocations; verified keys are cached',
      msg: undefined,
    });
    await cache().verify(k.token);
    expect(cache().size).toBe(1);
    // The new connection hears revocations too.
    await revokeApiKey(a, 'owner_d', k.id);
    await until(() => cache().size === 0, 1_000);
    expect(await cache().verify(k.token)).toBeUndefined();
  });
});
