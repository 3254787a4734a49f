/**
 * The owner of `limit_settings`: the value of each limit variable the processes sharing this
 * store enforce (lib/limits/settings.ts decides which variables and compares them). Limit
 * numbers and provider rules only; never a secret.
 */
import type { Kysely } from 'kysely';
import type { Store } from '../db.js';
import type { Database } from '../schema.js';

/** One recorded setting. */
export interface RecordedSetting {
  name: string;
  value: string;
}

/** What `db` holds for `names`, by name. */
async function read(
  db: Kysely<Database>,
  names: readonly string[],
  lock: boolean,
): Promise<Map<string, string>> {
  const query = db.selectFrom('limit_settings').select(['name', 'value']).where('name', 'in', names);
  const rows = await (lock ? query.forUpdate() : query).execute();
  return new Map(rows.map((r) => [r.name, r.value]));
}

/**
 * Records each setting the store does not hold yet (the first process wins; a concurrent boot
 * records nothing twice) and answers what the store holds for every name of `settings`.
 */
export async function recordMissingSettings(
  store: Store,
  settings: readonly RecordedSetting[],
): Promise<Map<string, string>> {
  if (settings.length === 0) return new Map();
  await store.db
    .insertInto('limit_settings')
    .values(settings.map((s) => ({ name: s.name, value: s.value })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return read(
    store.db,
    settings.map((s) => s.name),
    false,
  );
}

/** Records `settings` as they are, replacing what the store held; answers the values replaced. */
export async function replaceSettings(
  store: Store,
  settings: readonly RecordedSetting[],
): Promise<Map<string, string>> {
  if (settings.length === 0) return new Map();
  return store.db.transaction().execute(async (tx) => {
    const before = await read(
      tx,
      settings.map((s) => s.name),
      true,
    );
    await tx
      .insertInto('limit_settings')
      .values(settings.map((s) => ({ name: s.name, value: s.value })))
      .onConflict((oc) =>
        oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value'), recorded_at: new Date() })),
      )
      .execute();
    return before;
  });
}
