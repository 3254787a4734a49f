/**
 * Chats (/v1/chats): the chats `send_chat_message` steps deliver to, their messages, and the chat
 * keys they are sealed to. Chat ids travel in request bodies, never in URLs. Needs the
 * `workflows` scope. Messages are sealed to your chat keys and the API cannot read them: pass
 * the private key of a registered key to `messages` to read them (sdk/chat-keys.ts).
 */
import { openChatMessages, type ReadChatMessage } from './chat-keys.js';
import { seg, type Transport } from './http.js';
import type { ChatKey, ChatKeyList, ChatList, ChatMessageList } from './generated.js';

/** One page: at most `limit` (1-100, default 50) entries older than `before` (an ISO time). */
export interface ChatPage {
  limit?: number;
  before?: string;
}

/** `client.chats`. */
export interface ChatsClient {
  /** Your chats, most recently active first (page on with `before` = the last `active_at`). */
  list(page?: ChatPage): Promise<ChatList['chats']>;
  /**
   * A chat's messages, newest first (page on with `before` = the last `created_at`), opened with
   * `privateKey` (a registered chat key's); 404 for a chat you never used.
   */
  messages(chatId: string, page: ChatPage & { privateKey: string }): Promise<ReadChatMessage[]>;
  /** A chat's messages as the API answers them: sealed to your chat keys. */
  messages(chatId: string, page?: ChatPage): Promise<ChatMessageList['messages']>;
  /** Registers a device's public chat key (at most 20); the same key again answers the same key. */
  registerKey(publicKey: string, label?: string): Promise<ChatKey>;
  /** Your chat keys, oldest first. */
  keys(): Promise<ChatKeyList['keys']>;
  /** Removes a chat key: later messages are no longer sealed to it. */
  removeKey(keyId: string): Promise<void>;
}

/** Creates `client.chats`. */
export function createChatsClient(http: Transport): ChatsClient {
  async function sealedMessages(chatId: string, page: ChatPage): Promise<ChatMessageList['messages']> {
    const { limit, before } = page;
    return (
      await http.send<ChatMessageList>({
        method: 'POST',
        path: '/v1/chats/messages',
        json: {
          chat_id: chatId,
          ...(limit !== undefined && { limit }),
          ...(before !== undefined && { before }),
        },
      })
    ).body.messages;
  }
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
    messages: (async (chatId: string, page: ChatPage & { privateKey?: string } = {}) => {
      const messages = await sealedMessages(chatId, page);
      return page.privateKey === undefined ? messages : openChatMessages(messages, page.privateKey);
    }) as ChatsClient['messages'],
    registerKey: async (publicKey, label) =>
      (
        await http.send<ChatKey>({
          method: 'POST',
          path: '/v1/chats/keys',
          json: { public_key: publicKey, ...(label !== undefined && { label }) },
        })
      ).body,
    keys: async () => (await http.send<ChatKeyList>({ method: 'GET', path: '/v1/chats/keys' })).body.keys,
    async removeKey(keyId) {
      await http.send<null>({ method: 'DELETE', path: `/v1/chats/keys/${seg(keyId)}` });
    },
  };
}
