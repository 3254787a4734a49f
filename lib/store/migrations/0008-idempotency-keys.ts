import { type Kysely, type Migration, sql } from 'kysely';

/**
 * `idempotency_keys`: one row per claimed `Idempotency-Key` of an owner on a route, for 24 hours.
 * Nothing in it is readable without the keyring: `key_hash` is an HMAC of the owner, the route
 * and the key, `request_hash` an HMAC of the request, and `answer_sealed` the sealed first
 * answer (null while the first request is in flight). `expires_at` ends the row: the claim's
 * lease while in flight, 24 hours after the claim once answered.
 */
export const m0008IdempotencyKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table idempotency_keys (
        key_hash text primary key,
        owner_id text not null,
        request_hash text not null,
        answer_sealed text,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null
      )`.execute(db);
    await sql`create index idempotency_keys_expires on idempotency_keys (expires_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table idempotency_keys`.execute(db);
  },
};
