/**
 * /v1/chats: the chats that workflow `send_chat_message` steps deliver to. Chat ids always
 * travel in the body, never in the URL (spec 4.1), so they stay out of access logs. Needs the
 * `workflows` scope. A chat belongs to the owner who first used its id; another owner gets 409.
 *
 * - POST /v1/chats: `{ chat_id, focus_mode_on: "<app>.<mode>" }` or `{ chat_id, focus_mode_off: true }`.
 * - POST /v1/chats/webhook: `{ chat_id, url }` sets (or with `url: null` clears) the webhook.
 * - POST /v1/chats/messages: `{ chat_id, limit?, before? }` lists delivered messages, newest first.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { StoredChatContent } from '../../activities/platform/chat-delivery.js';
import { ChatIdSchema } from '../../lib/chat-id.js';
import { openJson, sealJson } from '../../lib/crypto/sealed-value.js';
import { checkWebhookTarget, webhookPolicy } from '../../lib/net/webhook.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';
import { authenticate, BEARER, requireScope } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { errorResponses } from '../schemas.js';

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
const WebhookBody = z
  .object({
    chat_id: ChatId,
    url: z
      .string()
      .max(2048)
      .nullable()
      .describe(
        'https on port 443 to a host that resolves only to public addresses (checked at registration and at every delivery); null clears.',
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

const ChatSchema = z.object({
  chat_id: z.string(),
  focus_mode: z.string().nullable(),
  webhook_configured: z.boolean(),
  updated_at: z.string(),
});
const MessageSchema = z.object({
  message_id: z.string(),
  title: z.string(),
  message: z.string(),
  task_id: z.string().nullable(),
  step_id: z.string().nullable(),
  created_at: z.string(),
  webhook_delivered: z.boolean(),
});

export const chatRoutes =
  (deps: ApiDeps): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook('onRequest', authenticate(deps.store));
    const tags = ['chats'];
    const db = deps.store.db;

    /** Creates the chat for `owner` or updates it; 409 when the id belongs to someone else. */
    const upsert = async (
      owner: string,
      chatId: string,
      set: { focus_mode?: string | null; webhook_url_sealed?: string | null },
    ) => {
      const row = await db
        .insertInto('chats')
        .values({
          chat_id: chatId,
          owner_id: owner,
          focus_mode: set.focus_mode ?? null,
          webhook_url_sealed: set.webhook_url_sealed ?? null,
        })
        .onConflict((oc) =>
          oc
            .column('chat_id')
            .doUpdateSet({ ...set, updated_at: new Date() })
            .where('chats.owner_id', '=', owner),
        )
        .returning(['chat_id', 'focus_mode', 'webhook_url_sealed', 'updated_at'])
        .executeTakeFirst();
      if (!row)
        throw new SkillflowError('CONFLICT', 'This chat_id belongs to another account.', {
          field: 'chat_id',
        });
      return {
        chat_id: row.chat_id,
        focus_mode: row.focus_mode,
        webhook_configured: row.webhook_url_sealed !== null,
        updated_at: new Date(row.updated_at).toISOString(),
      };
    };

    app.post(
      '/v1/chats',
      {
        schema: {
          tags,
          security: BEARER,
          summary: "Set a chat's focus mode",
          body: focusBody(deps.registry.apps.map((a) => a.id)),
          response: { 200: ChatSchema, ...errorResponses(400, 401, 403, 409, 429) },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        const body = req.body;
        let focus: string | null = null;
        if ('focus_mode_on' in body) {
          const appId = body.focus_mode_on.split('.')[0]!;
          if (!deps.registry.app(appId))
            throw invalidParameter([{ path: 'focus_mode_on', message: `no app named ${appId}` }]);
          focus = body.focus_mode_on;
        }
        return upsert(p.ownerId, body.chat_id, { focus_mode: focus });
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
          response: { 200: ChatSchema, ...errorResponses(400, 401, 403, 409, 429) },
        },
      },
      async (req) => {
        const p = requireScope(req, 'workflows');
        const { chat_id: chatId, url } = req.body;
        if (url !== null) {
          // Resolved now and again at every delivery (lib/net/webhook.ts); nothing is connected to here.
          const checked = await checkWebhookTarget(url, webhookPolicy(deps.config, deps.resolveHost));
          if (!checked.ok) throw invalidParameter([{ path: 'url', message: checked.problem }]);
        }
        return upsert(p.ownerId, chatId, {
          webhook_url_sealed:
            url === null ? null : sealJson(deps.keyring, url, sealedCell.chatWebhookUrl(chatId, p.ownerId)),
        });
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
        const chat = await db
          .selectFrom('chats')
          .select('owner_id')
          .where('chat_id', '=', chatId)
          .executeTakeFirst();
        let q = db
          .selectFrom('chat_messages')
          .select(['id', 'task_id', 'step_id', 'content_sealed', 'created_at', 'webhook_delivered_at'])
          .where('chat_id', '=', chatId)
          .where('owner_id', '=', p.ownerId);
        if (before) q = q.where('created_at', '<', new Date(before));
        const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
        // Messages can arrive before the chat row exists (no focus or webhook set yet).
        if ((chat && chat.owner_id !== p.ownerId) || (!chat && rows.length === 0))
          throw new SkillflowError('NOT_FOUND', 'No chat with this id.');
        return {
          chat_id: chatId,
          messages: rows.map((r) => {
            const content = openJson<StoredChatContent>(
              deps.keyring,
              r.content_sealed,
              sealedCell.chatMessage(r.id, p.ownerId),
            );
            return {
              message_id: r.id,
              title: content.title,
              message: content.message,
              task_id: r.task_id,
              step_id: r.step_id,
              created_at: new Date(r.created_at).toISOString(),
              webhook_delivered: r.webhook_delivered_at !== null,
            };
          }),
        };
      },
    );
  };
