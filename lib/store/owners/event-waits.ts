/**
 * The owner of `event_waits`: one row per `wait_for_event` step that waits, written by the
 * worker when the step starts waiting and removed when the wait ends. An event finds its waits
 * in two indexed reads: the match field sets in use for its name, then the waits whose match
 * hash equals the one its data gives for each set. Rows past their expiry are ignored, and
 * removed in bounded batches.
 */
import type { Store } from '../db.js';

export interface EventWaitRow {
  ownerId: string;
  /** lib/events/event-index-keys.ts `eventKey`. */
  eventKey: string;
  /** Sorted match field names, comma-separated ('' for a wait without match). */
  matchFields: string;
  matchHash: string;
  workflowId: string;
  stepId: string;
  expiresAt: Date;
}

/** The most distinct match field sets one event name is looked up by. */
export const MAX_FIELD_SETS = 50;
/** Rows one sweep removes at most. */
const SWEEP_BATCH = 500;

const idOf = (workflowId: string, stepId: string) => `${workflowId}/${stepId}`;

/** Records a wait (again, if the activity is retried: the row is replaced). */
export async function registerEventWait(store: Store, w: EventWaitRow): Promise<void> {
  const row = {
    id: idOf(w.workflowId, w.stepId),
    owner_id: w.ownerId,
    event_key: w.eventKey,
    match_fields: w.matchFields,
    match_hash: w.matchHash,
    workflow_id: w.workflowId,
    step_id: w.stepId,
    expires_at: w.expiresAt,
  };
  await store.db
    .insertInto('event_waits')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

export async function releaseEventWait(store: Store, workflowId: string, stepId: string): Promise<void> {
  await store.db.deleteFrom('event_waits').where('id', '=', idOf(workflowId, stepId)).execute();
}

/** The distinct match field sets of the owner's unexpired waits for this event key. */
export async function waitFieldSets(
  store: Store,
  ownerId: string,
  eventKey: string,
  now = new Date(),
): Promise<string[]> {
  const rows = await store.db
    .selectFrom('event_waits')
    .select('match_fields')
    .distinct()
    .where('owner_id', '=', ownerId)
    .where('event_key', '=', eventKey)
    .where('expires_at', '>', now)
    .limit(MAX_FIELD_SETS)
    .execute();
  return rows.map((r) => r.match_fields);
}

/** The owner's unexpired waits for this event key with one of these (field set, hash) pairs. */
export async function matchingWaits(
  store: Store,
  ownerId: string,
  eventKey: string,
  hashes: ReadonlyArray<{ fields: string; hash: string }>,
  limit: number,
  now = new Date(),
): Promise<Array<{ workflowId: string; stepId: string }>> {
  if (hashes.length === 0) return [];
  const rows = await store.db
    .selectFrom('event_waits')
    .select(['workflow_id', 'step_id'])
    .where('owner_id', '=', ownerId)
    .where('event_key', '=', eventKey)
    .where((eb) =>
      eb.or(hashes.map((h) => eb.and([eb('match_fields', '=', h.fields), eb('match_hash', '=', h.hash)]))),
    )
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ workflowId: r.workflow_id, stepId: r.step_id }));
}

/** Removes waits that expired more than `graceMs` ago (a run that ended without removing its row). */
export async function sweepEventWaits(store: Store, graceMs: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - graceMs);
  const res = await store.db
    .deleteFrom('event_waits')
    .where('id', 'in', (eb) =>
      eb.selectFrom('event_waits').select('id').where('expires_at', '<', before).limit(SWEEP_BATCH),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
