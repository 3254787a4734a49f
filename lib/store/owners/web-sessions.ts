/**
 * The owner of `web_sessions`: first-party workspace sessions. A row holds hashes only (the
 * session token, its predecessor during the rotation grace, a one-time sign-in code), never a
 * token or a code; lib/web-sessions.ts makes and checks them.
 */
import type { Store } from '../db.js';

/** One session as stored. */
export interface WebSessionRow {
  id: string;
  ownerId: string;
  keyId: string;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  rotatedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** True when the row was found by its predecessor token (inside the rotation grace). */
  byPreviousToken: boolean;
}

type Stored = {
  id: string;
  owner_id: string;
  key_id: string;
  user_agent: string | null;
  created_at: Date | string;
  last_used_at: Date | string;
  rotated_at: Date | string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
};

const COLUMNS = [
  'id',
  'owner_id',
  'key_id',
  'user_agent',
  'created_at',
  'last_used_at',
  'rotated_at',
  'expires_at',
  'revoked_at',
] as const;

function toRow(r: Stored, byPreviousToken = false): WebSessionRow {
  return {
    id: r.id,
    ownerId: r.owner_id,
    keyId: r.key_id,
    userAgent: r.user_agent,
    createdAt: new Date(r.created_at),
    lastUsedAt: new Date(r.last_used_at),
    rotatedAt: new Date(r.rotated_at),
    expiresAt: new Date(r.expires_at),
    revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at),
    byPreviousToken,
  };
}

/**
 * Stores a new session: signed in now (`tokenHash`), or waiting for its one-time sign-in code
 * (`codeHash` until `codeExpiresAt`; it has no token until the code is exchanged).
 */
export async function insertWebSession(
  store: Store,
  s: {
    id: string;
    ownerId: string;
    keyId: string;
    /** When it is made: its creation, last use and last rotation. */
    at: Date;
    expiresAt: Date;
    userAgent: string | null;
  } & ({ tokenHash: string } | { codeHash: string; codeExpiresAt: Date }),
): Promise<WebSessionRow> {
  const row = await store.db
    .insertInto('web_sessions')
    .values({
      id: s.id,
      owner_id: s.ownerId,
      key_id: s.keyId,
      token_hash: 'tokenHash' in s ? s.tokenHash : null,
      code_hash: 'codeHash' in s ? s.codeHash : null,
      code_expires_at: 'codeHash' in s ? s.codeExpiresAt : null,
      previous_token_hash: null,
      previous_valid_until: null,
      user_agent: s.userAgent,
      created_at: s.at,
      last_used_at: s.at,
      rotated_at: s.at,
      expires_at: s.expiresAt,
      revoked_at: null,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRow(row);
}

/**
 * Exchanges a one-time sign-in code: the session it belongs to gets its first token, and the code
 * is spent (a second exchange finds nothing). Undefined for an unknown, spent or expired code.
 */
export async function exchangeWebSessionCode(
  store: Store,
  codeHash: string,
  tokenHash: string,
  now: Date,
  expiresAt: Date,
  userAgent: string | null,
): Promise<WebSessionRow | undefined> {
  const row = await store.db
    .updateTable('web_sessions')
    .set({
      token_hash: tokenHash,
      code_hash: null,
      code_expires_at: null,
      user_agent: userAgent,
      created_at: now,
      last_used_at: now,
      rotated_at: now,
      expires_at: expiresAt,
    })
    .where('code_hash', '=', codeHash)
    .where('code_expires_at', '>', now)
    .where('token_hash', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toRow(row);
}

/**
 * The live session a token hash names: its current token, or its predecessor while the rotation
 * grace lasts. Revoked or past `expires_at`: undefined.
 */
export async function webSessionByToken(
  store: Store,
  tokenHash: string,
  now: Date,
): Promise<WebSessionRow | undefined> {
  const current = await store.db
    .selectFrom('web_sessions')
    .select(COLUMNS)
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (current) return toRow(current);
  const previous = await store.db
    .selectFrom('web_sessions')
    .select(COLUMNS)
    .where('previous_token_hash', '=', tokenHash)
    .where('previous_valid_until', '>', now)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return previous && toRow(previous, true);
}

/**
 * Replaces the session's token, keeping the old one valid until `graceUntil`. Only the request
 * that still holds the current token rotates it: false when another request already did.
 */
export async function rotateWebSessionToken(
  store: Store,
  id: string,
  oldHash: string,
  newHash: string,
  now: Date,
  graceUntil: Date,
): Promise<boolean> {
  const res = await store.db
    .updateTable('web_sessions')
    .set({
      token_hash: newHash,
      previous_token_hash: oldHash,
      previous_valid_until: graceUntil,
      rotated_at: now,
    })
    .where('id', '=', id)
    .where('token_hash', '=', oldHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Records a use: `last_used_at` and the idle expiry move forward (never past `maxExpiresAt`),
 * at most once per `precisionMs`, so a busy session costs one write per window.
 */
export async function touchWebSession(
  store: Store,
  id: string,
  now: Date,
  expiresAt: Date,
  precisionMs: number,
): Promise<void> {
  await store.db
    .updateTable('web_sessions')
    .set({ last_used_at: now, expires_at: expiresAt })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('last_used_at', '<', new Date(now.getTime() - precisionMs))
    .execute();
}

/** The owner's signed-in sessions that are neither revoked nor expired, newest first. */
export async function listWebSessions(store: Store, ownerId: string, now: Date): Promise<WebSessionRow[]> {
  const rows = await store.db
    .selectFrom('web_sessions')
    .select(COLUMNS)
    .where('owner_id', '=', ownerId)
    .where('token_hash', 'is not', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
  return rows.map((r) => toRow(r));
}

/** Revokes one of the owner's live sessions; false when there is none of that id. */
export async function revokeWebSession(
  store: Store,
  ownerId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const res = await store.db
    .updateTable('web_sessions')
    .set({ revoked_at: now, code_hash: null })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Deletes sessions that ended (expired or revoked) before `before`, so the table stays bounded. */
export async function pruneWebSessions(store: Store, before: Date): Promise<number> {
  const res = await store.db
    .deleteFrom('web_sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', before),
        eb('revoked_at', '<', before),
        eb.and([eb('token_hash', 'is', null), eb('code_expires_at', '<', before)]),
      ]),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
