/**
 * An idle PostgreSQL connection that the server drops must not crash the process: the pool's
 * 'error' event has a listener (without one, Node throws it as an uncaught exception).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable, startTestPostgres, type TestPostgres } from '../../test/helpers/postgres.js';
import { openStore, type Store } from './db.js';

// Needs a real PostgreSQL server (PGlite has no pool). CI always has one (.ci/run installs it), so
// this never skips there; only a developer machine without PostgreSQL skips it, exactly like the
// PostgreSQL engine of test/helpers/store-engines.ts.
describe.skipIf(process.env.CI !== 'true' && !postgresAvailable())('store pool errors', () => {
  let server: TestPostgres;
  let store: Store;
  const errors: { code?: string }[] = [];

  beforeAll(async () => {
    server = await startTestPostgres();
    store = await openStore({
      databaseUrl: server.url,
      onPoolError: (err) => errors.push({ code: (err as { code?: string }).code }),
    });
  });
  afterAll(async () => {
    await store?.close();
    server?.stop();
  });

  it('reports a dropped idle connection and keeps serving', async () => {
    // Two connections in the pool, both idle afterwards.
    await Promise.all([
      sql`select pg_sleep(0.2)`.execute(store.db),
      sql`select pg_sleep(0.2)`.execute(store.db),
    ]);
    const killed = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(
      store.db,
    );
    expect(killed.rows[0]!.n).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 50 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(errors[0]).toEqual({ code: '57P01' }); // admin_shutdown
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
