/**
 * The owner of `api_keys`: the one module that reads and writes the table. Rows hold the
 * SHA-256 of a token, never the token (lib/keys.ts makes tokens and checks them). A revocation
 * on PostgreSQL also sends NOTIFY on {@link KEY_REVOKED_CHANNEL} with the key id only (delivered
 * when it commits), so every API process forgets the key (lib/key-revocations.ts).
 */
import { sql } from 'kysely';
import type { Store } from '../db.js';

/** The channel a revocation is announced on; its payload is the key id, never a token or hash. */
export const KEY_REVOKED_CHANNEL = 'skillflow_key_revoked';

/** One key as stored, with `scopes` parsed (the column holds JSON text). */
export interface ApiKeyRow {
  id: string;
  name: string;
  tokenHash: string;
  scopes: string[];
  /** As stored; lib/keys.ts narrows it to a known tier. */
  tier: string;
  ownerId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

type Stored = {
  id: string;
  name: string;
  token_hash: string;
  scopes: string[] | string;
  tier: string;
  owner_id: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
};

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

function toRow(r: Stored): ApiKeyRow {
  return {
    id: r.id,
    name: r.name,
    tokenHash: r.token_hash,
    scopes: typeof r.scopes === 'string' ? (JSON.parse(r.scopes) as string[]) : r.scopes,
    tier: r.tier,
    ownerId: r.owner_id,
    createdAt: new Date(r.created_at),
    lastUsedAt: date(r.last_used_at),
    revokedAt: date(r.revoked_at),
  };
}

/** Stores a new key and returns it as stored. */
export async function insertApiKey(
  store: Store,
  key: { id: string; name: string; tokenHash: string; scopes: string[]; tier: string; ownerId: string },
): Promise<ApiKeyRow> {
  const row = await store.db
    .insertInto('api_keys')
    .values({
      id: key.id,
      name: key.name,
      token_hash: key.tokenHash,
      scopes: JSON.stringify(key.scopes),
      tier: key.tier,
      owner_id: key.ownerId,
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(row);
}

/** The key with this id, revoked or not. */
export async function apiKeyById(store: Store, id: string): Promise<ApiKeyRow | undefined> {
  const row = await store.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** The owner's keys, oldest first. */
export async function listApiKeys(store: Store, ownerId: string): Promise<ApiKeyRow[]> {
  const rows = await store.db
    .selectFrom('api_keys')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .execute();
  return rows.map(toRow);
}

/** Revokes one of the owner's active keys and announces it; false when there is no such key. */
export async function revokeApiKey(store: Store, ownerId: string, keyId: string): Promise<boolean> {
  return store.db.transaction().execute(async (tx) => {
    const res = await tx
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('id', '=', keyId)
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(res.numUpdatedRows) > 0;
    if (revoked && store.engine === 'postgres')
      await sql`select pg_notify(${KEY_REVOKED_CHANNEL}, ${keyId})`.execute(tx);
    return revoked;
  });
}

/**
 * Sets the key's `last_used_at` to `at`, unless it is already within `precisionMs` of it: a
 * busy key costs one write per precision window, not one per request.
 */
export async function markApiKeyUsed(store: Store, id: string, at: Date, precisionMs: number): Promise<void> {
  await store.db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(at.getTime() - precisionMs))]),
    )
    .execute();
}
