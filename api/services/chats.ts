/**
 * Chats for /v1/chats: focus mode, webhook, the owner's chat keys and the delivered messages of
 * a chat. Chat ids are per owner: the same id used by two owners names two chats, so another
 * owner's chat is never reachable (a change makes the caller's own chat, a read of one it never
 * used is 404). Messages are listed as stored: sealed to the owner's chat keys, which only the
 * owner's devices can open; server-sealed content is opened only in the development mode
 * CHAT_SERVER_SEALED. Rows are read and written by their owners, lib/store/owners/chats.ts and
 * lib/store/owners/chat-keys.ts.
 */
import { canSealTo } from '../../lib/crypto/chat-seal.js';
import { errors } from '../../lib/errors/errors.js';
import { invalidParameter } from '../../lib/errors/skillflow-error.js';
import { checkWebhookTarget, webhookPolicy } from '../../lib/net/webhook.js';
import { addChatKey, listChatKeys, removeChatKey, type ChatKey } from '../../lib/store/owners/chat-keys.js';
import {
  hasChat,
  listChatMessages,
  listChats,
  saveChat,
  type ChatMessage,
  type ChatState,
  type ChatSummary,
} from '../../lib/store/owners/chats.js';
import type { ApiDeps } from '../deps.js';

export type { ChatKey, ChatState };

/** An owner may register this many chat keys (devices); each delivered message is sealed to all. */
export const MAX_CHAT_KEYS = 20;

/** The /v1/chats operations, for one owner at a time. */
export class ChatsService {
  constructor(private readonly deps: ApiDeps) {}

  /** Sets (`<app>.<mode>` of a loaded app) or clears (null) the chat's focus mode. */
  async setFocus(ownerId: string, chatId: string, focusMode: string | null): Promise<ChatState> {
    if (focusMode !== null) {
      const appId = focusMode.split('.')[0]!;
      if (!this.deps.registry.app(appId))
        throw invalidParameter([{ path: 'focus_mode_on', message: `no app named ${appId}` }]);
    }
    return this.save(ownerId, chatId, { focusMode });
  }

  /** Sets (after checking the target) or clears (null) the chat's webhook URL. */
  async setWebhook(ownerId: string, chatId: string, url: string | null): Promise<ChatState> {
    if (url !== null) {
      // Resolved now and again at every delivery (lib/net/webhook.ts); nothing is connected to here.
      const checked = await checkWebhookTarget(
        url,
        webhookPolicy(this.deps.config.security, this.deps.resolveHost),
      );
      if (!checked.ok) throw invalidParameter([{ path: 'url', message: checked.problem }]);
    }
    return this.save(ownerId, chatId, { webhookUrl: url });
  }

  /** The owner's chats, most recently active first. */
  list(ownerId: string, page: { limit: number; before?: Date | undefined }): Promise<ChatSummary[]> {
    return listChats(this.deps.store, ownerId, page);
  }

  /** The owner's messages in the chat, newest first; NOT_FOUND for a chat the owner never used. */
  async messages(
    ownerId: string,
    chatId: string,
    page: { limit: number; before?: Date | undefined },
  ): Promise<ChatMessage[]> {
    const { store, keyring, config } = this.deps;
    const openServerSealed = config.security.CHAT_SERVER_SEALED;
    const messages = await listChatMessages(store, keyring, ownerId, chatId, page, openServerSealed);
    // Messages can arrive before the chat row exists (no focus or webhook set yet).
    if (messages.length === 0 && !(await hasChat(store, ownerId, chatId)))
      throw errors.notFound('No chat with this id.');
    return messages;
  }

  /** The owner's chat keys, oldest first. */
  keys(ownerId: string): Promise<ChatKey[]> {
    return listChatKeys(this.deps.store, ownerId);
  }

  /** Registers a chat key (the same key again answers its row); OWNER_LIMIT_REACHED past the cap. */
  async addKey(
    ownerId: string,
    publicKey: string,
    label: string | null,
  ): Promise<{ key: ChatKey; created: boolean }> {
    if (!(await canSealTo(publicKey)))
      throw invalidParameter([{ path: 'public_key', message: 'is not a usable X25519 public key' }]);
    const res = await addChatKey(this.deps.store, ownerId, { publicKey, label }, MAX_CHAT_KEYS);
    if ('full' in res) throw errors.ownerLimitReached({ limit: 'chat_keys', max: MAX_CHAT_KEYS });
    return res;
  }

  /** Removes one of the owner's chat keys; NOT_FOUND for a key the owner does not have. */
  async removeKey(ownerId: string, keyId: string): Promise<void> {
    if (!(await removeChatKey(this.deps.store, ownerId, keyId)))
      throw errors.notFound('No chat key with this id.');
  }

  private async save(
    ownerId: string,
    chatId: string,
    set: Parameters<typeof saveChat>[4],
  ): Promise<ChatState> {
    return saveChat(this.deps.store, this.deps.keyring, ownerId, chatId, set);
  }
}
