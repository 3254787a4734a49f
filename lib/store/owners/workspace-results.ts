/**
 * The owner of `workspace_results`: browser-encrypted results of a chatless root and its
 * children, one row per (owner, root), sealed again at rest in `payload_sealed`.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Keyring } from '../../crypto/keyring.js';
import { sealJson } from '../../crypto/sealed-value.js';
import type { Store } from '../db.js';
import { sealedCell } from '../sealed-columns.js';

/**
 * Stores the owner's upload for a root, replacing an earlier one for the same root. Returns the
 * row id and whether this was the first upload for that root.
 */
export async function saveWorkspaceResult(
  store: Store,
  keyring: Keyring,
  upload: { ownerId: string; rootId: string; childCount: number; payload: unknown; now: Date },
): Promise<{ id: string; inserted: boolean }> {
  const sealed = sealJson(keyring, upload.payload, sealedCell.workspaceResult(upload.rootId, upload.ownerId));
  // xmax = 0 only on a freshly inserted row: tells a first upload from a replacement.
  const row = await store.db
    .insertInto('workspace_results')
    .values({
      id: `wsr_${randomBytes(12).toString('hex')}`,
      owner_id: upload.ownerId,
      root_id: upload.rootId,
      child_count: upload.childCount,
      payload_sealed: sealed,
    })
    .onConflict((oc) =>
      oc
        .columns(['owner_id', 'root_id'])
        .doUpdateSet({ child_count: upload.childCount, payload_sealed: sealed, updated_at: upload.now }),
    )
    .returning(['id', sql<boolean>`(xmax = 0)`.as('inserted')])
    .executeTakeFirstOrThrow();
  return { id: row.id, inserted: row.inserted };
}
