import { type Kysely, type Migration, sql } from 'kysely';

/**
 * First-party workspace sessions: a session belongs to an owner and to the API key that signed
 * it in (its scopes and revocation apply). Tokens and one-time sign-in codes are stored only as
 * SHA-256 hashes; a rotated token's predecessor is kept for a short grace so requests already in
 * flight are not signed out.
 */
export const m0013WebSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table web_sessions (
        id text primary key,
        owner_id text not null,
        key_id text not null,
        token_hash text unique,
        previous_token_hash text,
        previous_valid_until timestamptz,
        code_hash text unique,
        code_expires_at timestamptz,
        user_agent text,
        created_at timestamptz not null default now(),
        last_used_at timestamptz not null default now(),
        rotated_at timestamptz not null default now(),
        expires_at timestamptz not null,
        revoked_at timestamptz
      )`.execute(db);
    await sql`create index web_sessions_owner on web_sessions (owner_id, created_at)`.execute(db);
    await sql`create index web_sessions_previous on web_sessions (previous_token_hash)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table web_sessions`.execute(db);
  },
};
