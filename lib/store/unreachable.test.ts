/**
 * A store that cannot be reached is told apart from a wrong statement: with the real driver
 * against a real PostgreSQL that is shut down under an open pool, and by error shape.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, startTestPostgres } from '../../test/helpers/postgres.js';
import { isStoreUnreachable } from './unreachable.js';

describe('isStoreUnreachable', () => {
  it('knows connection failures and shutdowns, not statement errors', () => {
    const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(
      [
        withCode('57P01'),
        withCode('08006'),
        withCode('ECONNREFUSED'),
        new Error('Connection terminated unexpectedly'),
        withCode('42601'),
        withCode('23505'),
        new Error('relation "x" does not exist'),
        'not an error',
      ].map(isStoreUnreachable),
    ).toEqual([true, true, true, true, false, false, false, false]);
  });

  it.runIf(process.env.CI === 'true' || postgresAvailable())(
    'says so for the real driver when PostgreSQL stops and is gone, and not for a bad statement',
    async () => {
      const server = await startTestPostgres();
      const pool = new pg.Pool({ connectionString: server.url, max: 1 });
      pool.on('error', () => undefined);
      try {
        const bad = await pool.query('select * from no_such_table').catch((e: unknown) => e);
        expect(isStoreUnreachable(bad)).toBe(false);
        await pool.query('select 1');
        server.stop();
        const down = await pool.query('select 1').catch((e: unknown) => e);
        const refused = await pool.query('select 1').catch((e: unknown) => e);
        expect([isStoreUnreachable(down), isStoreUnreachable(refused)]).toEqual([true, true]);
      } finally {
        await pool.end().catch(() => undefined);
      }
    },
  );
});
