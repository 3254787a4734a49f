import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Webhook triggers. `webhooks`: one row per definition whose current version starts on a signed
 * `POST /v1/hooks/{hook_id}`, with its signing secret sealed (and, for a while after a rotation,
 * the previous one) and the child definitions its runs use, pinned when it was saved.
 * `webhook_signatures`: the signatures a hook accepted, as SHA-256 hashes, kept until they are
 * too old to be accepted anyway, so a replayed request is refused.
 */
export const m0010Webhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table webhooks (
        hook_id text primary key,
        owner_id text not null,
        definition_id text not null unique references definitions(id) on delete cascade,
        secret_sealed text not null,
        previous_secret_sealed text,
        previous_expires_at timestamptz,
        children_sealed text,
        created_at timestamptz not null default now(),
        rotated_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table webhook_signatures (
        hook_id text not null,
        signature_hash text not null,
        expires_at timestamptz not null,
        primary key (hook_id, signature_hash)
      )`.execute(db);
    await sql`create index webhook_signatures_expires on webhook_signatures (expires_at)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table webhook_signatures`.execute(db);
    await sql`drop table webhooks`.execute(db);
  },
};
