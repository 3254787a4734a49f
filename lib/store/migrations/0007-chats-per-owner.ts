/**
 * Chat ids are per owner: a chat is identified by (owner, chat id), so two owners' chats with
 * the same id are two chats, and no owner can claim an id that another owner's runs deliver to.
 * Messages are read by owner and chat id, indexed in that order.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const m0007ChatsPerOwner: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table chats drop constraint chats_pkey`.execute(db);
    await sql`alter table chats add primary key (owner_id, chat_id)`.execute(db);
    await sql`drop index if exists chat_messages_chat`.execute(db);
    await sql`create index chat_messages_owner_chat on chat_messages (owner_id, chat_id, created_at)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists chat_messages_owner_chat`.execute(db);
    await sql`create index chat_messages_chat on chat_messages (chat_id, created_at)`.execute(db);
    await sql`alter table chats drop constraint chats_pkey`.execute(db);
    await sql`alter table chats add primary key (chat_id)`.execute(db);
  },
};
