/**
 * The owner of `embeds`: the stored result of a long-running skill call, one row per call,
 * `pending` until the call ends, then `ready` (result sealed in `content_sealed`) or `failed`.
 * The one module that reads and writes the table and seals and opens its content.
 */
import type { Keyring } from '../../crypto/keyring.js';
import { openJson, sealJson } from '../../crypto/sealed-value.js';
import type { Store } from '../db.js';
import { sealedCell } from '../sealed-columns.js';

/** An embed; `result` is the opened content of a `ready` one. */
export interface Embed<T> {
  id: string;
  ownerId: string;
  taskId: string;
  /** `<app>.<skill>`. */
  skill: string;
  status: 'pending' | 'ready' | 'failed';
  createdAt: Date;
  result?: T;
}

/** Adds the pending embed of a call that has just been accepted. */
export async function createPendingEmbed(
  store: Store,
  embed: { id: string; ownerId: string; taskId: string; skill: string },
): Promise<void> {
  await store.db
    .insertInto('embeds')
    .values({
      id: embed.id,
      owner_id: embed.ownerId,
      task_id: embed.taskId,
      skill: embed.skill,
      status: 'pending',
      content_sealed: null,
    })
    // A retried start of the same call (its id derives from the request's Idempotency-Key)
    // finds its embed already there.
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Seals the call's result into its embed and marks it ready; an unknown id changes nothing. */
export async function saveEmbedResult(
  store: Store,
  keyring: Keyring,
  embedId: string,
  result: unknown,
): Promise<void> {
  const embed = await store.db
    .selectFrom('embeds')
    .select('owner_id')
    .where('id', '=', embedId)
    .executeTakeFirst();
  if (!embed) return;
  await store.db
    .updateTable('embeds')
    .set({
      status: 'ready',
      content_sealed: sealJson(keyring, result, sealedCell.embed(embedId, embed.owner_id)),
      updated_at: new Date(),
    })
    .where('id', '=', embedId)
    .execute();
}

/** Marks a pending embed failed, so downloads answer EMBED_FAILED instead of "pending" forever. */
export async function markEmbedFailed(store: Store, embedId: string): Promise<void> {
  await store.db
    .updateTable('embeds')
    .set({ status: 'failed', updated_at: new Date() })
    .where('id', '=', embedId)
    .where('status', '=', 'pending')
    .execute();
}

/** The owner's embed (another owner's is undefined, as a missing one), its result opened when ready. */
export async function ownerEmbed<T>(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  embedId: string,
): Promise<Embed<T> | undefined> {
  const row = await store.db
    .selectFrom('embeds')
    .select(['id', 'owner_id', 'task_id', 'skill', 'status', 'content_sealed', 'created_at'])
    .where('id', '=', embedId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) return undefined;
  const status =
    row.status === 'ready' && row.content_sealed ? 'ready' : row.status === 'failed' ? 'failed' : 'pending';
  return {
    id: row.id,
    ownerId: row.owner_id,
    taskId: row.task_id,
    skill: row.skill,
    status,
    createdAt: new Date(row.created_at),
    ...(status === 'ready'
      ? { result: openJson<T>(keyring, row.content_sealed!, sealedCell.embed(row.id, row.owner_id)) }
      : {}),
  };
}

/** Who owns an embed and the task that made it (nothing of its content), if it exists. */
export async function embedOrigin(
  store: Store,
  embedId: string,
): Promise<{ ownerId: string; taskId: string } | undefined> {
  const row = await store.db
    .selectFrom('embeds')
    .select(['owner_id', 'task_id'])
    .where('id', '=', embedId)
    .executeTakeFirst();
  return row && { ownerId: row.owner_id, taskId: row.task_id };
}
