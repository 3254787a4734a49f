/**
 * Chats for /v1/chats: focus mode, webhook and the delivered messages of a chat. Chat ids are
 * per owner: the same id used by two owners names two chats, so another owner's chat is never
 * reachable (a change makes the caller's own chat, a read of one it never used is 404). Rows
 * are read and written by their owner, lib/store/owners/chats.ts.
 */
import { errors } from '../../lib/errors/errors.js';
import { invalidParameter } from '../../lib/errors/skillflow-error.js';
import { checkWebhookTarget, webhookPolicy } from '../../lib/net/webhook.js';
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

export type { ChatState };

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
    const { store, keyring } = this.deps;
    const messages = await listChatMessages(store, keyring, ownerId, chatId, page);
    // Messages can arrive before the chat row exists (no focus or webhook set yet).
    if (messages.length === 0 && !(await hasChat(store, ownerId, chatId)))
      throw errors.notFound('No chat with this id.');
    return messages;
  }

  private async save(
    ownerId: string,
    chatId: string,
    set: Parameters<typeof saveChat>[4],
  ): Promise<ChatState> {
    return saveChat(this.deps.store, this.deps.keyring, ownerId, chatId, set);
  }
}
