import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { storeEngines, useEngineStore } from '../../test/helpers/store-engines.js';
import { migrateToLatest } from './db.js';

/** The same SQL must work on both engines: run the suite on PGlite and on a real PostgreSQL. */
const engines = storeEngines();

describe.each(engines)('platform store on $name', (engine) => {
  const current = useEngineStore(engine);

  it('applies every migration, in order, exactly once', async () => {
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      current().db,
    );
    expect(rows.rows.map((r) => r.name)).toEqual([
      '0001-platform-base',
      '0002-embeds-teams',
      '0003-limits-workspace',
      '0004-call-queue-usage',
      '0005-power-cache',
      '0006-decision-cost',
      '0007-chats-per-owner',
      '0008-idempotency-keys',
      '0009-event-index',
      '0010-webhooks',
      '0011-limit-settings',
      '0012-idempotency-task-seed',
      '0013-web-sessions',
      '0014-chat-keys',
    ]);
    expect(await migrateToLatest(current().db)).toEqual([]);
  });

  it('round-trips rows and enforces constraints', async () => {
    await current()
      .db.insertInto('definitions')
      .values({ id: 'def_1', owner_id: 'owner_1', current_version: 1, trigger_type: 'manual' })
      .execute();
    await current()
      .db.insertInto('definition_versions')
      .values({ definition_id: 'def_1', version: 1, source_sealed: 'k1.AAA', plan_sealed: 'k1.BBB' })
      .execute();
    const row = await current()
      .db.selectFrom('definition_versions')
      .select(['definition_id', 'version', 'plan_sealed'])
      .where('definition_id', '=', 'def_1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ definition_id: 'def_1', version: 1, plan_sealed: 'k1.BBB' });
    await expect(
      current()
        .db.insertInto('definition_versions')
        .values({ definition_id: 'def_1', version: 1, source_sealed: 'x', plan_sealed: 'y' })
        .execute(),
    ).rejects.toThrow(/duplicate key/);
    await current().db.deleteFrom('definitions').where('id', '=', 'def_1').execute();
    const left = await current().db.selectFrom('definition_versions').selectAll().execute();
    expect(left).toEqual([]);
  });

  it('answers the health ping', async () => {
    await expect(current().ping()).resolves.toBeUndefined();
  });
});
