/**
 * /v1/chats: the chats that workflow `send_chat_message` steps deliver to. Chat ids always
 * travel in the body, never in the URL, so they stay out of access logs. Needs the
 * `workflows` scope. Chat ids are per owner: another owner's chat of the same id is never reached.
 *
 * - GET /v1/chats?limit&before: the owner's chats, most recently active first.
 * - POST /v1/chats: `{ chat_id, focus_mode_on: "<app>.<mode>" }` or `{ chat_id, focus_mode_off: true }`.
 * - POST /v1/chats/webhook: `{ chat_id, url }` sets (or with `url: null` clears) the webhook.
 * - POST /v1/chats/messages: `{ chat_id, limit?, before? }` lists delivered messages, newest first,
 *   sealed to the owner's chat keys: the API cannot read them, the owner's devices decrypt.
 * - POST /v1/chats/keys, GET /v1/chats/keys, DELETE /v1/chats/keys/{key_id}: the owner's chat
 *   keys (X25519 public keys of its devices) that delivered messages are sealed to.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChatIdSchema } from '../../lib/chat-id.js';
import { ChatPublicKeySchema } from '../../lib/crypto/chat-seal.js';
import { authenticate, BEARER, requireScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';
import { MAX_CHAT_KEYS, type ChatKey, type ChatState, type ChatsService } from '../services/chats.js';

const ChatId = ChatIdSchema;
/** The focus body; `focus_mode_on` names one of the loaded apps, so the document lists them. */
function focusBody(appIds: string[]) {
  const apps = appIds.map((id) => id.replace(/[^a-z0-9_]/g, '')).join('|');
  return z
    .union([
      z
        .object({
          chat_id: ChatId,
          focus_mode_on: z
            .string()
            .regex(
              new RegExp(`^(?:${apps})\\.[a-z][a-z0-9_]{0,63}$`),
              'must be <app>.<mode> of a loaded app',
            ),
        })
        .strict(),
      z.object({ chat_id: ChatId, focus_mode_off: z.literal(true) }).strict(),
    ])
    .describe('`chat_id` plus exactly one of `focus_mode_on` or `focus_mode_off: true`.');
}
/** An http or https URL with a host and no credentials (the scheme in any case, as URLs allow). */
const WEBHOOK_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\s]+(?:[/?#]\\S*)?$';
const WebhookBody = z
  .object({
    chat_id: ChatId,
    url: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
      .max(2048)
      .meta({ pattern: WEBHOOK_URL_PATTERN })
      .nullable()
      .describe(
        'An absolute URL: https on port 443, without credentials, to a host that resolves only to public addresses (checked at registration and at every delivery; plain http and other ports only for loopback receivers when WEBHOOK_ALLOW_LOOPBACK is on); null clears.',
      ),
  })
  .strict();
const MessagesBody = z
  .object({
    chat_id: ChatId,
    limit: z.number().int().min(1).max(100).default(50),
    before: z.iso.datetime().optional().describe('Only messages created before this time (paging).'),
  })
  .strict();

const ListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    before: z.iso
      .datetime()
      .optional()
      .describe(
        'Only chats last active before this time (paging: the last `active_at` of the previous page).',
      ),
  })
  .strict();
const ChatSummarySchema = z.object({
  chat_id: z.string(),
  focus_mode: z.string().nullable(),
  webhook_configured: z.boolean(),
  messages: z.number().int().describe('Messages delivered to the chat.'),
  last_message_at: z.string().nullable(),
  active_at: z.string().describe('The later of its last message and its last settings change.'),
});

const ChatSchema = z.object({
  chat_id: z.string(),
  focus_mode: z.string().nullable(),
  webhook_configured: z.boolean(),
  updated_at: z.string(),
});
const SealedCopySchema = z.object({
  key_id: z.string().describe('The chat key this copy is sealed to.'),
  ciphertext: z
    .string()
    .describe(
      'Standard base64 of a libsodium sealed box (crypto_box_seal) of the JSON `{ message_id, title, message }`; only the private key of `key_id` opens it.',
    ),
});
/** Present only for content stored server-sealed, in the development mode CHAT_SERVER_SEALED. */
const ServerSealedText = z
  .string()
  .optional()
  .describe('Only for content stored server-sealed, in the development mode CHAT_SERVER_SEALED.');
const MessageSchema = z.object({
  message_id: z.string(),
  title: ServerSealedText,
  message: ServerSealedText,
  sealed: z
    .array(SealedCopySchema)
    .describe(
      'The content sealed to each chat key the owner had when the message was delivered (empty for server-sealed content). The server cannot open these; a client opens the copy of its own key.',
    ),
  task_id: z.string().nullable(),
  step_id: z.string().nullable(),
  created_at: z.string(),
  webhook_delivered: z.boolean(),
});

const KeyBody = z
  .object({
    public_key: ChatPublicKeySchema.describe(
      'An X25519 public key (libsodium crypto_box_keypair): base64 or base64url of 32 bytes. Never send the private key.',
    ),
    label: z
      .string()
      .min(1)
      .max(64)
      // Control characters are exactly what the rule refuses (the store cannot keep NUL).
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'must not hold control characters')
      .optional()
      .describe('A name for the device, shown in the key list.'),
  })
  .strict();
const KeyParams = z.object({ key_id: z.string().min(1).max(64) });
const ChatKeySchema = z.object({
  key_id: z.string(),
  public_key: z.string().describe('Standard base64 of the 32-byte X25519 public key.'),
  label: z.string().nullable(),
  created_at: z.string(),
});

function keyView(key: ChatKey) {
  return {
    key_id: key.id,
    public_key: key.publicKey,
    label: key.label,
    created_at: key.createdAt.toISOString(),
  };
}

function chatView(chat: ChatState) {
  return {
    chat_id: chat.chatId,
    focus_mode: chat.focusMode,
    webhook_configured: chat.webhookConfigured,
    updated_at: chat.updatedAt.toISOString(),
  };
}

export const chatRoutes =
  (deps: ApiDeps, chats: ChatsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    const tags = ['chats'];

    app.get(
      '/v1/chats',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'List your chats, most recently active first',
          description:
            'Chats that `send_chat_message` steps delivered to, and chats with a focus mode or webhook set. Needs the `workflows` scope.',
          querystring: ListQuery,
          response: {
            200: z.object({ chats: z.array(ChatSummarySchema) }),
            ...errorResponses(400, 401, 403, 429),
          },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        const { limit, before } = req.query;
        const list = await chats.list(p.ownerId, { limit, before: before ? new Date(before) : undefined });
        return {
          chats: list.map((c) => ({
            chat_id: c.chatId,
            focus_mode: c.focusMode,
            webhook_configured: c.webhookConfigured,
            messages: c.messages,
            last_message_at: c.lastMessageAt?.toISOString() ?? null,
            active_at: c.activeAt.toISOString(),
          })),
        };
      },
    );

    app.post(
      '/v1/chats',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "Set a chat's focus mode",
          body: focusBody(deps.registry.apps.map((a) => a.id)),
          response: { 200: ChatSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        const body = req.body;
        const focus = 'focus_mode_on' in body ? body.focus_mode_on : null;
        return chatView(await chats.setFocus(p.ownerId, body.chat_id, focus));
      },
    );

    app.post(
      '/v1/chats/webhook',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "Set or clear a chat's webhook URL",
          body: WebhookBody,
          response: { 200: ChatSchema, ...errorResponses(400, 401, 403, 429) },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        return chatView(await chats.setWebhook(p.ownerId, req.body.chat_id, req.body.url));
      },
    );

    app.post(
      '/v1/chats/messages',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "List a chat's messages, newest first",
          body: MessagesBody,
          response: {
            200: z.object({ chat_id: z.string(), messages: z.array(MessageSchema) }),
            ...errorResponses(400, 401, 403, 404, 429),
          },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        const { chat_id: chatId, limit, before } = req.body;
        const messages = await chats.messages(p.ownerId, chatId, {
          limit,
          before: before ? new Date(before) : undefined,
        });
        return {
          chat_id: chatId,
          messages: messages.map((m) => ({
            message_id: m.id,
            ...m.content,
            sealed: m.sealed.map((c) => ({ key_id: c.keyId, ciphertext: c.ciphertext })),
            task_id: m.taskId,
            step_id: m.stepId,
            created_at: m.createdAt.toISOString(),
            webhook_delivered: m.webhookDelivered,
          })),
        };
      },
    );
    app.post(
      '/v1/chats/keys',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Register a chat key (a device that reads your chats)',
          description: `Registers the X25519 public key of one of your devices. Every message delivered afterwards is sealed to each of your chat keys, so only your devices can read it; the API cannot. At most ${MAX_CHAT_KEYS} keys; registering a key again answers 200 with the same key. Needs the \`workflows\` scope.`,
          body: KeyBody,
          response: {
            200: ChatKeySchema.describe('The key was already registered.'),
            201: ChatKeySchema.describe('Registered.'),
            ...errorResponses(400, 401, 403, 429),
          },
        },
      },
      async (req, reply) => {
        const p = requireScope(req, 'workflows');
        const { key, created } = await chats.addKey(p.ownerId, req.body.public_key, req.body.label ?? null);
        return reply.status(created ? 201 : 200).send(keyView(key));
      },
    );

    app.get(
      '/v1/chats/keys',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'List your chat keys',
          response: {
            200: z.object({ keys: z.array(ChatKeySchema), max: z.number().int() }),
            ...errorResponses(401, 403, 429),
          },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        return { keys: (await chats.keys(p.ownerId)).map(keyView), max: MAX_CHAT_KEYS };
      },
    );

    app.delete(
      '/v1/chats/keys/:key_id',
      {
        schema: {
          tags,
          security: BEARER,
          summary: 'Remove a chat key',
          description:
            'Messages delivered afterwards are no longer sealed to it; messages already delivered keep their copy for it.',
          params: KeyParams,
          response: { 204: z.null().describe('Removed.'), ...errorResponses(400, 401, 403, 404, 429) },
        },
      },
      async (req, reply) => {
        await chats.removeKey(requireScope(req, 'workflows').ownerId, req.params.key_id);
        return reply.status(204).send(null);
      },
    );
  };
