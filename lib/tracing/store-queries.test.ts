import {
  Kysely,
  sql,
  DummyDriver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { statementName } from './store-queries.js';

interface Db {
  api_keys: { id: string; name: string };
}

const db = new Kysely<Db>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('statementName', () => {
  it('names the operation and table, never a value', () => {
    const names = [
      db.selectFrom('api_keys').selectAll().where('name', '=', 'secret'),
      db.insertInto('api_keys').values({ id: '1', name: 'secret' }),
      db.updateTable('api_keys').set({ name: 'secret' }),
      db.deleteFrom('api_keys').where('id', '=', 'secret'),
    ].map((q) => statementName(q.compile().query));
    expect(names).toEqual([
      { operation: 'SELECT', table: 'api_keys' },
      { operation: 'INSERT', table: 'api_keys' },
      { operation: 'UPDATE', table: 'api_keys' },
      { operation: 'DELETE', table: 'api_keys' },
    ]);
    expect(statementName(sql`select ${'secret'}`.compile(db).query)).toEqual({
      operation: 'RAW',
      table: undefined,
    });
  });
});
