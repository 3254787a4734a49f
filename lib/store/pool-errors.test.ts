/**
 * A PostgreSQL connection that the server drops must not crash the process, whether idle in the
 * pool or checked out between two statements of a transaction (without an 'error' listener, Node
 * throws it as an uncaught exception).
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

  it('reports a connection dropped inside a transaction, fails that transaction, and keeps serving', async () => {
    errors.length = 0;
    const outcome = store.db
      .transaction()
      .execute(async (trx) => {
        const me = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Another connection terminates this one while it waits between statements.
        await sql`select pg_terminate_backend(${me.rows[0]!.pid})`.execute(store.db);
        await new Promise((r) => setTimeout(r, 300));
        await sql`select 1`.execute(trx);
      })
      .then(
        () => 'committed',
        (err: { code?: string; message?: string }) => err.code ?? err.message,
      );
    expect(await outcome).not.toBe('committed');
    expect(errors).toEqual([{ code: '57P01' }]);
    await expect(store.ping()).resolves.toBeUndefined();
  });
});
