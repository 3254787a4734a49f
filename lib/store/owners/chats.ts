/**
 * The owner of `chats` and `chat_messages`: the one module that reads and writes them, and
 * seals and opens their server-sealed columns (the webhook URL, and the message content in the
 * development mode CHAT_SERVER_SEALED). A message's content is otherwise stored only as copies
 * sealed to the owner's chat keys (`content_to_keys`), which this module stores and lists but
 * cannot open. Chat ids are per owner: a chat is (owner, chat id), and every read and write
 * names both. Messages can exist before their chat row does (no focus or webhook set yet).
 */
import type { Keyring } from '../../crypto/keyring.js';
import type { SealedCopy } from '../../crypto/chat-seal.js';
import { openJson, sealJson } from '../../crypto/sealed-value.js';
import { sql } from 'kysely';
import type { Store } from '../db.js';
import { sealedCell } from '../sealed-columns.js';

/** A chat as its owner sees it (the webhook URL itself is never shown). */
export interface ChatState {
  chatId: string;
  focusMode: string | null;
  webhookConfigured: boolean;
  updatedAt: Date;
}

/** A chat in the owner's list: its settings and how many messages it holds. */
export interface ChatSummary {
  chatId: string;
  focusMode: string | null;
  webhookConfigured: boolean;
  messages: number;
  lastMessageAt: Date | null;
  /** The later of its last message and its last settings change: the list's order. */
  activeAt: Date;
}

/** What a message holds. */
export interface ChatContent {
  title: string;
  message: string;
}

/** How a message's content is stored: sealed by the server, or to the owner's chat keys. */
export type StoredChatContent = { serverSealed: ChatContent } | { sealedToKeys: SealedCopy[] };

/**
 * A stored message. `content` is the server-sealed content, opened, only when the caller asks
 * for it (CHAT_SERVER_SEALED) and the message was stored that way; `sealed` the copies sealed to
 * the owner's chat keys (empty for a server-sealed message).
 */
export interface ChatMessage {
  content: ChatContent | null;
  sealed: SealedCopy[];
  id: string;
  taskId: string | null;
  stepId: string | null;
  createdAt: Date;
  webhookDelivered: boolean;
}

/** Creates the owner's chat or updates the given fields (`webhookUrl: null` clears it). */
export async function saveChat(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  chatId: string,
  set: { focusMode?: string | null; webhookUrl?: string | null },
): Promise<ChatState> {
  const fields: { focus_mode?: string | null; webhook_url_sealed?: string | null } = {};
  if (set.focusMode !== undefined) fields.focus_mode = set.focusMode;
  if (set.webhookUrl !== undefined)
    fields.webhook_url_sealed =
      set.webhookUrl === null
        ? null
        : sealJson(keyring, set.webhookUrl, sealedCell.chatWebhookUrl(chatId, ownerId));
  const row = await store.db
    .insertInto('chats')
    .values({
      chat_id: chatId,
      owner_id: ownerId,
      focus_mode: fields.focus_mode ?? null,
      webhook_url_sealed: fields.webhook_url_sealed ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['owner_id', 'chat_id']).doUpdateSet({ ...fields, updated_at: new Date() }),
    )
    .returning(['chat_id', 'focus_mode', 'webhook_url_sealed', 'updated_at'])
    .executeTakeFirstOrThrow();
  return {
    chatId: row.chat_id,
    focusMode: row.focus_mode,
    webhookConfigured: row.webhook_url_sealed !== null,
    updatedAt: new Date(row.updated_at),
  };
}

/** Whether the owner has a chat row with this id (set up through focus mode or a webhook). */
export async function hasChat(store: Store, ownerId: string, chatId: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('chats')
    .select('chat_id')
    .where('owner_id', '=', ownerId)
    .where('chat_id', '=', chatId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The chat's webhook URL, opened, when the chat is `ownerId`'s and has one. */
export async function chatWebhookUrl(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  chatId: string,
): Promise<string | undefined> {
  const row = await store.db
    .selectFrom('chats')
    .select('webhook_url_sealed')
    .where('chat_id', '=', chatId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row?.webhook_url_sealed) return undefined;
  return openJson<string>(keyring, row.webhook_url_sealed, sealedCell.chatWebhookUrl(chatId, ownerId));
}

/** Whether a message of this id is stored (delivery is idempotent per run and step). */
export async function chatMessageStored(store: Store, id: string): Promise<boolean> {
  const row = await store.db.selectFrom('chat_messages').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/** The sealed copies a message was stored with (empty for a server-sealed or missing message). */
export async function storedSealedCopies(store: Store, id: string): Promise<SealedCopy[]> {
  const row = await store.db
    .selectFrom('chat_messages')
    .select('content_to_keys')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.content_to_keys ? (JSON.parse(row.content_to_keys) as SealedCopy[]) : [];
}

/** Stores a message under its id; a second save of the same id changes nothing. */
export async function saveChatMessage(
  store: Store,
  keyring: Keyring,
  msg: {
    id: string;
    chatId: string;
    ownerId: string;
    taskId: string;
    stepId: string;
    content: StoredChatContent;
  },
): Promise<void> {
  const { content } = msg;
  await store.db
    .insertInto('chat_messages')
    .values({
      id: msg.id,
      chat_id: msg.chatId,
      owner_id: msg.ownerId,
      task_id: msg.taskId,
      step_id: msg.stepId,
      content_sealed:
        'serverSealed' in content
          ? sealJson(keyring, content.serverSealed, sealedCell.chatMessage(msg.id, msg.ownerId))
          : null,
      content_to_keys: 'sealedToKeys' in content ? JSON.stringify(content.sealedToKeys) : null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Whether the message has already been delivered to the chat's webhook. */
export async function chatMessageDelivered(store: Store, id: string): Promise<boolean> {
  const row = await store.db
    .selectFrom('chat_messages')
    .select('webhook_delivered_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return Boolean(row?.webhook_delivered_at);
}

/** Records that the message reached the chat's webhook. */
export async function markChatMessageDelivered(store: Store, id: string): Promise<void> {
  await store.db
    .updateTable('chat_messages')
    .set({ webhook_delivered_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/**
 * The owner's messages in a chat, newest first. Server-sealed content is opened only with
 * `openServerSealed` (the development mode CHAT_SERVER_SEALED); copies sealed to chat keys are
 * listed as they are.
 */
export async function listChatMessages(
  store: Store,
  keyring: Keyring,
  ownerId: string,
  chatId: string,
  page: { limit: number; before?: Date | undefined },
  openServerSealed: boolean,
): Promise<ChatMessage[]> {
  let q = store.db
    .selectFrom('chat_messages')
    .select([
      'id',
      'task_id',
      'step_id',
      'content_sealed',
      'content_to_keys',
      'created_at',
      'webhook_delivered_at',
    ])
    .where('chat_id', '=', chatId)
    .where('owner_id', '=', ownerId);
  if (page.before) q = q.where('created_at', '<', page.before);
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  return rows.map((r) => {
    const content =
      openServerSealed && r.content_sealed !== null
        ? openJson<ChatContent>(keyring, r.content_sealed, sealedCell.chatMessage(r.id, ownerId))
        : null;
    return {
      id: r.id,
      content,
      sealed: r.content_to_keys ? (JSON.parse(r.content_to_keys) as SealedCopy[]) : [],
      taskId: r.task_id,
      stepId: r.step_id,
      createdAt: new Date(r.created_at),
      webhookDelivered: r.webhook_delivered_at !== null,
    };
  });
}

/**
 * The owner's chats, most recently active first: those with delivered messages and those with
 * settings only. `before` pages on the activity time.
 */
export async function listChats(
  store: Store,
  ownerId: string,
  page: { limit: number; before?: Date | undefined },
): Promise<ChatSummary[]> {
  const before = page.before ?? null;
  const { rows } = await sql<{
    chat_id: string;
    focus_mode: string | null;
    webhook_configured: boolean | null;
    messages: string | number;
    last_message_at: Date | string | null;
    active_at: Date | string;
  }>`
    select coalesce(m.chat_id, c.chat_id) as chat_id, c.focus_mode,
           c.webhook_url_sealed is not null as webhook_configured,
           coalesce(m.messages, 0) as messages, m.last_message_at,
           greatest(m.last_message_at, c.updated_at) as active_at
      from (select chat_id, count(*) as messages, max(created_at) as last_message_at
              from chat_messages where owner_id = ${ownerId} group by chat_id) m
      full join (select chat_id, focus_mode, webhook_url_sealed, updated_at
                   from chats where owner_id = ${ownerId}) c on c.chat_id = m.chat_id
     where ${before}::timestamptz is null or greatest(m.last_message_at, c.updated_at) < ${before}::timestamptz
     order by active_at desc, chat_id
     limit ${page.limit}`.execute(store.db);
  return rows.map((r) => ({
    chatId: r.chat_id,
    focusMode: r.focus_mode,
    webhookConfigured: r.webhook_configured === true,
    messages: Number(r.messages),
    lastMessageAt: r.last_message_at === null ? null : new Date(r.last_message_at),
    activeAt: new Date(r.active_at),
  }));
}
