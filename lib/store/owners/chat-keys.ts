/**
 * The owner of `chat_keys`: the X25519 public keys an owner registered so that chat content is
 * sealed to its devices (the CLI, the SDKs, the workspace). Only public keys are stored; the
 * private keys never leave the devices. A key's id is derived from the owner and the key, so
 * registering the same key again finds the same row.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../db.js';

/** A registered chat key. */
export interface ChatKey {
  id: string;
  /** Standard base64 of the 32-byte X25519 public key. */
  publicKey: string;
  label: string | null;
  createdAt: Date;
}

export function chatKeyIdFor(ownerId: string, publicKey: string): string {
  return 'ck_' + createHash('sha256').update(`${ownerId}\0${publicKey}`).digest('hex').slice(0, 24);
}

function view(r: { id: string; public_key: string; label: string | null; created_at: Date }): ChatKey {
  return { id: r.id, publicKey: r.public_key, label: r.label, createdAt: new Date(r.created_at) };
}

/** The owner's chat keys, oldest first. */
export async function listChatKeys(store: Store, ownerId: string): Promise<ChatKey[]> {
  const rows = await store.db
    .selectFrom('chat_keys')
    .select(['id', 'public_key', 'label', 'created_at'])
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(view);
}

/**
 * Registers a key, unless the owner already holds `max` keys. The same key again answers the
 * row it has (`created: false`), whatever the count.
 */
export async function addChatKey(
  store: Store,
  ownerId: string,
  key: { publicKey: string; label: string | null },
  max: number,
): Promise<{ key: ChatKey; created: boolean } | { full: true }> {
  const id = chatKeyIdFor(ownerId, key.publicKey);
  return store.db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom('chat_keys')
      .select(['id', 'public_key', 'label', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (existing) return { key: view(existing), created: false };
    const { n } = await tx
      .selectFrom('chat_keys')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('owner_id', '=', ownerId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return { full: true as const };
    const row = await tx
      .insertInto('chat_keys')
      .values({ id, owner_id: ownerId, public_key: key.publicKey, label: key.label })
      .returning(['id', 'public_key', 'label', 'created_at'])
      .executeTakeFirstOrThrow();
    return { key: view(row), created: true };
  });
}

/** Removes one of the owner's keys; false when the owner has no key of this id. */
export async function removeChatKey(store: Store, ownerId: string, id: string): Promise<boolean> {
  const res = await store.db
    .deleteFrom('chat_keys')
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
