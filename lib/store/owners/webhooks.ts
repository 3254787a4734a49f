/**
 * The owner of `webhooks` and `webhook_signatures`. A definition whose current version has a
 * webhook trigger has one hook: a public id (its URL) and a signing secret, sealed to its row
 * (and, after a rotation that keeps it for a while, the previous secret), plus the child
 * definitions its runs use, pinned and sealed when the definition was saved. A hook goes with
 * its definition (the row cascades) or when the definition's trigger stops being a webhook.
 * `webhook_signatures` holds each accepted signature as a hash until it is too old to be
 * accepted, so the same signed request is refused a second time, by every API replica.
 */
import type { Keyring } from '../../crypto/keyring.js';
import { openJson, sealJson } from '../../crypto/sealed-value.js';
import type { Store } from '../db.js';
import { sealedCell } from '../sealed-columns.js';

/** A hook as the hook route checks a request against it. */
export interface OpenedWebhook {
  hookId: string;
  ownerId: string;
  definitionId: string;
  /** The current secret, then the previous one while it is still accepted. */
  secrets: string[];
  /** The pinned children (opaque here), when the definition has `use_workflow` steps. */
  children: unknown;
}

/** A hook as its definition's owner sees it (never its secret). */
export interface WebhookInfo {
  hookId: string;
  rotatedAt: Date;
  /** When the previous secret stops being accepted, while it still is. */
  previousExpiresAt: Date | null;
}

/** Expired signature rows deleted per accepted request. */
const SWEEP_BATCH = 100;

const seal = (
  keyring: Keyring,
  hookId: string,
  ownerId: string,
  column: 'secret_sealed' | 'previous_secret_sealed' | 'children_sealed',
  value: unknown,
) => sealJson(keyring, value, sealedCell.webhook(hookId, ownerId, column));

/**
 * Makes sure the definition has a hook with these pinned children. A new hook takes `fresh`
 * (its id and secret) and answers `created: true`; an existing one keeps its id and secret.
 * Concurrent saves of one definition make exactly one hook.
 */
export async function ensureWebhook(
  store: Store,
  keyring: Keyring,
  w: { ownerId: string; definitionId: string; children: unknown; fresh: { hookId: string; secret: string } },
): Promise<{ hookId: string; created: boolean }> {
  const existing = await webhookOf(store, w.ownerId, w.definitionId);
  if (existing) {
    await setChildren(store, keyring, w.ownerId, existing.hookId, w.children);
    return { hookId: existing.hookId, created: false };
  }
  const { hookId, secret } = w.fresh;
  const inserted = await store.db
    .insertInto('webhooks')
    .values({
      hook_id: hookId,
      owner_id: w.ownerId,
      definition_id: w.definitionId,
      secret_sealed: seal(keyring, hookId, w.ownerId, 'secret_sealed', secret),
      children_sealed:
        w.children === undefined ? null : seal(keyring, hookId, w.ownerId, 'children_sealed', w.children),
      rotated_at: new Date(),
    })
    .onConflict((oc) => oc.column('definition_id').doNothing())
    .returning('hook_id')
    .executeTakeFirst();
  if (inserted) return { hookId, created: true };
  // Another save made it meanwhile.
  const other = await webhookOf(store, w.ownerId, w.definitionId);
  if (!other) throw new Error('webhook row vanished while saving');
  await setChildren(store, keyring, w.ownerId, other.hookId, w.children);
  return { hookId: other.hookId, created: false };
}

async function setChildren(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  hookId: string,
  children: unknown,
) {
  await store.db
    .updateTable('webhooks')
    .set({
      children_sealed:
        children === undefined ? null : seal(keyring, hookId, ownerId, 'children_sealed', children),
    })
    .where('hook_id', '=', hookId)
    .where('owner_id', '=', ownerId)
    .execute();
}

/** Removes the definition's hook (its trigger is no longer a webhook); its URL stops working. */
export async function removeWebhook(store: Store, ownerId: string, definitionId: string): Promise<void> {
  await store.db
    .deleteFrom('webhooks')
    .where('owner_id', '=', ownerId)
    .where('definition_id', '=', definitionId)
    .execute();
}

/** The owner's definition's hook, without secrets. */
export async function webhookOf(
  store: Store,
  ownerId: string,
  definitionId: string,
): Promise<WebhookInfo | undefined> {
  const row = await store.db
    .selectFrom('webhooks')
    .select(['hook_id', 'rotated_at', 'previous_expires_at'])
    .where('owner_id', '=', ownerId)
    .where('definition_id', '=', definitionId)
    .executeTakeFirst();
  return (
    row && {
      hookId: row.hook_id,
      rotatedAt: new Date(row.rotated_at),
      previousExpiresAt: row.previous_expires_at === null ? null : new Date(row.previous_expires_at),
    }
  );
}

/** A hook by its public id, with the secrets it accepts at `now`. */
export async function openWebhook(
  store: Store,
  keyring: Keyring,
  hookId: string,
  now: Date,
): Promise<OpenedWebhook | undefined> {
  const row = await store.db
    .selectFrom('webhooks')
    .selectAll()
    .where('hook_id', '=', hookId)
    .executeTakeFirst();
  if (!row) return undefined;
  const open = (sealed: string, column: 'secret_sealed' | 'previous_secret_sealed' | 'children_sealed') =>
    openJson(keyring, sealed, sealedCell.webhook(row.hook_id, row.owner_id, column));
  const secrets = [open(row.secret_sealed, 'secret_sealed') as string];
  const previousLive = row.previous_expires_at !== null && new Date(row.previous_expires_at) > now;
  if (row.previous_secret_sealed && previousLive)
    secrets.push(open(row.previous_secret_sealed, 'previous_secret_sealed') as string);
  return {
    hookId: row.hook_id,
    ownerId: row.owner_id,
    definitionId: row.definition_id,
    secrets,
    children: row.children_sealed === null ? undefined : open(row.children_sealed, 'children_sealed'),
  };
}

/**
 * Gives the definition's hook a new secret. With `previousUntil`, the current secret is still
 * accepted until then; without, it stops at once (and so does any earlier previous one).
 * Undefined when the definition has no hook.
 */
export async function rotateWebhookSecret(
  store: Store,
  keyring: Keyring,
  r: { ownerId: string; definitionId: string; secret: string; previousUntil?: Date; now: Date },
): Promise<WebhookInfo | undefined> {
  return store.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('webhooks')
      .select(['hook_id', 'secret_sealed'])
      .where('owner_id', '=', r.ownerId)
      .where('definition_id', '=', r.definitionId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
    const current = openJson(
      keyring,
      row.secret_sealed,
      sealedCell.webhook(row.hook_id, r.ownerId, 'secret_sealed'),
    );
    const keep = r.previousUntil !== undefined && r.previousUntil > r.now;
    await tx
      .updateTable('webhooks')
      .set({
        secret_sealed: seal(keyring, row.hook_id, r.ownerId, 'secret_sealed', r.secret),
        previous_secret_sealed: keep
          ? seal(keyring, row.hook_id, r.ownerId, 'previous_secret_sealed', current)
          : null,
        previous_expires_at: keep ? r.previousUntil! : null,
        rotated_at: r.now,
      })
      .where('hook_id', '=', row.hook_id)
      .execute();
    return { hookId: row.hook_id, rotatedAt: r.now, previousExpiresAt: keep ? r.previousUntil! : null };
  });
}

/**
 * Records an accepted signature until `expiresAt`; false when it was recorded before (a replay).
 * Sweeps a few expired rows on the way.
 */
export async function recordSignature(
  store: Store,
  s: { hookId: string; signatureHash: string; expiresAt: Date; now: Date },
): Promise<boolean> {
  await store.db
    .deleteFrom('webhook_signatures')
    .where('signature_hash', 'in', (db) =>
      db
        .selectFrom('webhook_signatures')
        .select('signature_hash')
        .where('expires_at', '<=', s.now)
        .limit(SWEEP_BATCH),
    )
    .where('expires_at', '<=', s.now)
    .execute();
  const inserted = await store.db
    .insertInto('webhook_signatures')
    .values({ hook_id: s.hookId, signature_hash: s.signatureHash, expires_at: s.expiresAt })
    .onConflict((oc) => oc.columns(['hook_id', 'signature_hash']).doNothing())
    .returning('signature_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}
