import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Base tables. User content (definition sources, plans, chat messages) is stored sealed
 * (AES-256-GCM, see lib/crypto/aead.ts): only ids, versions and timestamps are plaintext.
 */
export const m0001PlatformBase: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table api_keys (
        id text primary key,
        name text not null,
        token_hash text not null unique,
        scopes jsonb not null default '[]'::jsonb,
        tier text not null default 'standard',
        owner_id text not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`.execute(db);
    await sql`
      create table definitions (
        id text primary key,
        owner_id text not null,
        current_version integer not null,
        trigger_type text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table definition_versions (
        definition_id text not null references definitions(id) on delete cascade,
        version integer not null,
        source_sealed text not null,
        plan_sealed text not null,
        created_at timestamptz not null default now(),
        primary key (definition_id, version)
      )`.execute(db);
    await sql`
      create table chats (
        chat_id text primary key,
        owner_id text not null,
        focus_mode text,
        webhook_url_sealed text,
        updated_at timestamptz not null default now()
      )`.execute(db);
    await sql`
      create table chat_messages (
        id text primary key,
        chat_id text not null,
        owner_id text not null,
        task_id text,
        step_id text,
        content_sealed text not null,
        created_at timestamptz not null default now(),
        webhook_delivered_at timestamptz
      )`.execute(db);
    await sql`create index chat_messages_chat on chat_messages (chat_id, created_at)`.execute(db);
    await sql`create unique index chat_messages_idem on chat_messages (task_id, step_id) where task_id is not null`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['chat_messages', 'chats', 'definition_versions', 'definitions', 'api_keys']) {
      await sql`drop table if exists ${sql.table(t)}`.execute(db);
    }
  },
};
