import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Chat content sealed to its owner's devices. `chat_keys` holds the X25519 public keys an owner
 * registered (never a private key); `chat_messages.content_to_keys` holds a message's content as
 * one libsodium sealed box per recipient key (a JSON list of `{ key_id, ciphertext }`), which
 * the server cannot open. `content_sealed` (server-sealed content) becomes optional: it is
 * written only in the development mode CHAT_SERVER_SEALED.
 */
export const m0014ChatKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      create table chat_keys (
        id text primary key,
        owner_id text not null,
        public_key text not null,
        label text,
        created_at timestamptz not null default now(),
        unique (owner_id, public_key)
      )`.execute(db);
    await sql`alter table chat_messages alter column content_sealed drop not null`.execute(db);
    await sql`alter table chat_messages add column content_to_keys text`.execute(db);
    await sql`alter table chat_messages add constraint chat_messages_content check (content_sealed is not null or content_to_keys is not null)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from chat_messages where content_sealed is null`.execute(db);
    await sql`alter table chat_messages drop constraint chat_messages_content`.execute(db);
    await sql`alter table chat_messages drop column content_to_keys`.execute(db);
    await sql`alter table chat_messages alter column content_sealed set not null`.execute(db);
    await sql`drop table chat_keys`.execute(db);
  },
};
