/**
 * The owner of `definitions` and `definition_versions`: workflow definitions, one row per
 * definition plus one per saved version, whose source and compiled plan are sealed. Only ids,
 * versions, trigger type and timestamps are plaintext; an event trigger's name is kept only as a
 * keyed hash (`event_key`, lib/events/event-index-keys.ts), by which the owner's events find the
 * definitions they start. Every read is scoped to one owner.
 */
import { sql } from 'kysely';
import type { Plan } from '../../../definitions/index.js';
import type { Keyring } from '../../crypto/keyring.js';
import { eventKey } from '../../events/event-index-keys.js';
import { openJson, sealJson } from '../../crypto/sealed-value.js';
import type { Db, Store } from '../db.js';
import { sealedCell } from '../sealed-columns.js';

/** One version of a definition, opened. */
export interface StoredDefinition {
  id: string;
  ownerId: string;
  version: number;
  source: string;
  plan: Plan;
  triggerType: TriggerType;
  createdAt: Date;
  updatedAt: Date;
}

/** A definition's current version without its source. */
export interface DefinitionHead {
  id: string;
  version: number;
  plan: Plan;
  triggerType: TriggerType;
  createdAt: Date;
  updatedAt: Date;
}

/** How a definition's current version starts. */
export type TriggerType = 'manual' | 'schedule' | 'event' | 'webhook';

const trigger = (t: string): TriggerType =>
  t === 'schedule' || t === 'event' || t === 'webhook' ? t : 'manual';

/**
 * The channel a save or delete is announced on (PostgreSQL, when it commits); its payload is the
 * definition id, nothing else. API processes forget their cached copy (lib/definition-changes.ts).
 */
export const DEFINITION_CHANGED_CHANNEL = 'skillflow_definition_changed';

const announce = async (store: Store, tx: Db, id: string): Promise<void> => {
  if (store.engine === 'postgres')
    await sql`select pg_notify(${DEFINITION_CHANGED_CHANNEL}, ${id})`.execute(tx);
};

/** The most definitions one event starts. */
export const MAX_EVENT_DEFINITIONS = 20;

const eventKeyOf = (keyring: Keyring, plan: Plan): string | null =>
  plan.trigger.type === 'event' ? eventKey(keyring, plan.trigger.name) : null;

async function insertVersion(
  tx: Db,
  keyring: Keyring,
  v: { id: string; ownerId: string; version: number; source: string; plan: Plan },
): Promise<void> {
  await tx
    .insertInto('definition_versions')
    .values({
      definition_id: v.id,
      version: v.version,
      source_sealed: sealJson(keyring, v.source, sealedCell.definitionSource(v.id, v.version, v.ownerId)),
      plan_sealed: sealJson(keyring, v.plan, sealedCell.definitionPlan(v.id, v.version, v.ownerId)),
    })
    .execute();
}

/**
 * Stores a new definition with its first version; false (nothing written) when a definition
 * with this id exists already (another process may have saved it at the same moment).
 */
export async function insertDefinition(
  store: Store,
  keyring: Keyring,
  d: { id: string; ownerId: string; source: string; plan: Plan },
): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('definitions')
      .values({
        id: d.id,
        owner_id: d.ownerId,
        current_version: 1,
        trigger_type: d.plan.trigger.type,
        event_key: eventKeyOf(keyring, d.plan),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    await insertVersion(tx, keyring, { ...d, version: 1 });
    return true;
  });
}

/**
 * Stores version `version` and makes it current, if the current version is still
 * `version - 1`; false (nothing written) when another save came first.
 */
export async function insertDefinitionVersion(
  store: Store,
  keyring: Keyring,
  v: { id: string; ownerId: string; version: number; source: string; plan: Plan },
): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('definitions')
      .set({
        current_version: v.version,
        trigger_type: v.plan.trigger.type,
        event_key: eventKeyOf(keyring, v.plan),
        updated_at: new Date(),
      })
      .where('id', '=', v.id)
      .where('owner_id', '=', v.ownerId)
      .where('current_version', '=', v.version - 1)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    await insertVersion(tx, keyring, v);
    await announce(store, tx, v.id);
    return true;
  });
}

/** The owner's definition at `version` (its current version without one), opened. */
export async function findDefinition(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  id: string,
  version?: number,
): Promise<StoredDefinition | undefined> {
  const row = await store.db
    .selectFrom('definitions')
    .innerJoin('definition_versions', 'definition_versions.definition_id', 'definitions.id')
    .select([
      'definitions.id',
      'definitions.owner_id',
      'definitions.created_at',
      'definitions.updated_at',
      'definition_versions.version',
      'definition_versions.source_sealed',
      'definition_versions.plan_sealed',
    ])
    .where('definitions.id', '=', id)
    .where('definitions.owner_id', '=', ownerId)
    .$if(version === undefined, (q) =>
      q.whereRef('definition_versions.version', '=', 'definitions.current_version'),
    )
    .$if(version !== undefined, (q) => q.where('definition_versions.version', '=', version!))
    .executeTakeFirst();
  if (!row) return undefined;
  const plan = openJson<Plan>(
    keyring,
    row.plan_sealed,
    sealedCell.definitionPlan(row.id, row.version, row.owner_id),
  );
  return {
    id: row.id,
    ownerId: row.owner_id,
    version: row.version,
    source: openJson<string>(
      keyring,
      row.source_sealed,
      sealedCell.definitionSource(row.id, row.version, row.owner_id),
    ),
    plan,
    // The version's own trigger (a pinned older version may differ from the current one).
    triggerType: trigger(plan.trigger.type),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** The owner's definitions at their current version, oldest first. */
export async function listDefinitions(
  store: Store,
  keyring: Keyring,
  ownerId: string,
): Promise<DefinitionHead[]> {
  const rows = await store.db
    .selectFrom('definitions')
    .innerJoin('definition_versions', (j) =>
      j
        .onRef('definition_versions.definition_id', '=', 'definitions.id')
        .onRef('definition_versions.version', '=', 'definitions.current_version'),
    )
    .select([
      'definitions.id',
      'definitions.current_version',
      'definitions.owner_id',
      'definitions.trigger_type',
      'definitions.created_at',
      'definitions.updated_at',
      'definition_versions.plan_sealed',
    ])
    .where('definitions.owner_id', '=', ownerId)
    .orderBy('definitions.created_at')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    version: r.current_version,
    plan: openJson<Plan>(
      keyring,
      r.plan_sealed,
      sealedCell.definitionPlan(r.id, r.current_version, r.owner_id),
    ),
    triggerType: trigger(r.trigger_type),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }));
}

/** How many definitions the owner has (only those with a schedule trigger, if asked). */
export async function countDefinitions(
  store: Store,
  ownerId: string,
  triggerType?: 'schedule',
): Promise<number> {
  let q = store.db
    .selectFrom('definitions')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('owner_id', '=', ownerId);
  if (triggerType) q = q.where('trigger_type', '=', triggerType);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the owner's definition and its versions; false when there is no such definition. */
export async function deleteDefinition(store: Store, ownerId: string, id: string): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const res = await tx
      .deleteFrom('definitions')
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    const deleted = Number(res.numDeletedRows) === 1;
    if (deleted) await announce(store, tx, id);
    return deleted;
  });
}

/**
 * The ids of the owner's definitions whose current version starts on events named `name`
 * (at most `MAX_EVENT_DEFINITIONS`, oldest first).
 */
export async function eventDefinitionIds(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  name: string,
): Promise<string[]> {
  const rows = await store.db
    .selectFrom('definitions')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('event_key', '=', eventKey(keyring, name))
    .orderBy('created_at')
    .limit(MAX_EVENT_DEFINITIONS)
    .execute();
  return rows.map((r) => r.id);
}
