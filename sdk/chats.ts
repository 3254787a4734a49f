/**
 * Chats (/v1/chats): the chats `send_chat_message` steps deliver to, and their messages. Chat ids
 * travel in request bodies, never in URLs. Needs the `workflows` scope.
 */
import type { Transport } from './http.js';
import type { ChatList, ChatMessageList } from './generated.js';

/** One page: at most `limit` (1-100, default 50) entries older than `before` (an ISO time). */
export interface ChatPage {
  limit?: number;
  before?: string;
}

/** `client.chats`. */
export interface ChatsClient {
  /** Your chats, most recently active first (page on with `before` = the last `active_at`). */
  list(page?: ChatPage): Promise<ChatList['chats']>;
  /** A chat's messages, newest first (page on with `before` = the last `created_at`); 404 for a chat you never used. */
  messages(chatId: string, page?: ChatPage): Promise<ChatMessageList['messages']>;
}

/** Creates `client.chats`. */
export function createChatsClient(http: Transport): ChatsClient {
  return {
    list: async (page = {}) =>
      (
        await http.send<ChatList>({
          method: 'GET',
          path: '/v1/chats',
          query: {
            limit: page.limit === undefined ? undefined : String(page.limit),
            before: page.before,
          },
        })
      ).body.chats,
    messages: async (chatId, page = {}) =>
      (
        await http.send<ChatMessageList>({
          method: 'POST',
          path: '/v1/chats/messages',
          json: { chat_id: chatId, ...page },
        })
      ).body.messages,
  };
}
