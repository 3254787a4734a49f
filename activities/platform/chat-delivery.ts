/**
 * Delivers a rendered chat message: always into the chat store (sealed, idempotent per run and
 * step, so a retried activity never duplicates it), and to the chat's webhook when one is
 * configured (lib/net/webhook.ts: public addresses only, pinned, no redirects). Webhook failures
 * are retried by Temporal under the `chat-delivery` profile; a refused address or a 4xx answer
 * fails the step at once. Every failure is the same WEBHOOK_DELIVERY_FAILED to the caller.
 */
import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { openJson, sealJson } from '../../lib/crypto/sealed-value.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { CHAT_ID_RULE, ChatIdSchema } from '../../lib/chat-id.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';
import { checkWebhookTarget, postJson, type WebhookPolicy } from '../../lib/net/webhook.js';
import type { Store } from '../../lib/store/db.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { toApplicationFailure } from '../boundary.js';
import { POLICY_PROFILES } from '../policy.js';

export interface ChatMessageInput {
  ownerId: string;
  chatId: string;
  title: string;
  message: string;
  /** The run's task id and the step id: together they make delivery idempotent. */
  taskId: string;
  stepId: string;
}

/**
 * The chat step's workflow-visible output. It carries the rendered title and message (bounded),
 * so the owner sees what was delivered in the run's task result, beside the skill outputs.
 */
export interface DeliveredChatMessage {
  message_id: string;
  chat_id: string;
  title: string;
  message: string;
  stored: true;
  webhook_delivered: boolean;
}

export interface ChatDelivery {
  deliverChatMessage(input: ChatMessageInput): Promise<DeliveredChatMessage>;
}

export interface StoredChatContent {
  title: string;
  message: string;
}

/** One webhook POST may stall this long: the chat-delivery profile's idle timeout. */
const WEBHOOK_TIMEOUT_MS = POLICY_PROFILES['chat-delivery'].deadlines.idleTimeoutMs;
/** Rendered text is bounded: a large list in `#each` must not become an unbounded message. */
export const MAX_TITLE_CHARS = 512;
export const MAX_MESSAGE_CHARS = 32_768;
const TRUNCATED = ' …[truncated]';

function bound(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - TRUNCATED.length) + TRUNCATED;
}

export function messageIdFor(taskId: string, stepId: string): string {
  return 'msg_' + createHash('sha256').update(`${taskId}\0${stepId}`).digest('hex').slice(0, 24);
}

/**
 * The one error a caller sees for any webhook problem (refused address, unreachable host, any
 * non-2xx answer), so the API reveals nothing about the remote side. Transport failures and
 * 5xx/408/429 answers are retried by Temporal; everything else is final.
 */
export class WebhookDeliveryError extends SkillflowError {
  constructor(private readonly retry: boolean) {
    super('WEBHOOK_DELIVERY_FAILED');
  }

  override get retryable(): boolean {
    return this.retry;
  }
}

async function postWebhook(
  url: string,
  body: unknown,
  policy: WebhookPolicy,
  signal: AbortSignal | undefined,
): Promise<void> {
  // Checked again at delivery: DNS may have changed since registration.
  const checked = await checkWebhookTarget(url, policy);
  if (!checked.ok) throw new WebhookDeliveryError(false);
  const outcome = await postJson(checked.target, body, {
    timeoutMs: WEBHOOK_TIMEOUT_MS,
    userAgent: 'skillflow-webhook/1',
    ...(signal ? { signal } : {}),
  });
  const { status } = outcome;
  if (status === 'unreachable') throw new WebhookDeliveryError(true);
  if (status >= 200 && status < 300) return;
  throw new WebhookDeliveryError(status >= 500 || status === 408 || status === 429);
}

/** Delivery without Temporal; the activity below wraps it. */
export async function deliver(
  store: Store,
  keyring: Keyring,
  input: ChatMessageInput,
  webhook: WebhookPolicy,
  signal?: AbortSignal,
): Promise<DeliveredChatMessage> {
  if (!ChatIdSchema.safeParse(input.chatId).success) {
    throw invalidParameter([{ path: 'chat_id', message: `the rendered chat id ${CHAT_ID_RULE}` }]);
  }
  const id = messageIdFor(input.taskId, input.stepId);
  const content: StoredChatContent = {
    title: bound(input.title, MAX_TITLE_CHARS),
    message: bound(input.message, MAX_MESSAGE_CHARS),
  };
  await store.db
    .insertInto('chat_messages')
    .values({
      id,
      chat_id: input.chatId,
      owner_id: input.ownerId,
      task_id: input.taskId,
      step_id: input.stepId,
      content_sealed: sealJson(keyring, content, sealedCell.chatMessage(id, input.ownerId)),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const chat = await store.db
    .selectFrom('chats')
    .select(['webhook_url_sealed', 'owner_id'])
    .where('chat_id', '=', input.chatId)
    .executeTakeFirst();
  let webhookDelivered = false;
  if (chat?.webhook_url_sealed && chat.owner_id === input.ownerId) {
    const row = await store.db
      .selectFrom('chat_messages')
      .select('webhook_delivered_at')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row?.webhook_delivered_at) {
      const url = openJson<string>(
        keyring,
        chat.webhook_url_sealed,
        sealedCell.chatWebhookUrl(input.chatId, chat.owner_id),
      );
      await postWebhook(
        url,
        { message_id: id, chat_id: input.chatId, task_id: input.taskId, step_id: input.stepId, ...content },
        webhook,
        signal,
      );
      await store.db
        .updateTable('chat_messages')
        .set({ webhook_delivered_at: new Date() })
        .where('id', '=', id)
        .execute();
    }
    webhookDelivered = true;
  }
  return {
    message_id: id,
    chat_id: input.chatId,
    ...content,
    stored: true,
    webhook_delivered: webhookDelivered,
  };
}

export function createChatDelivery(store: Store, keyring: Keyring, webhook: WebhookPolicy): ChatDelivery {
  return {
    async deliverChatMessage(input) {
      try {
        return await deliver(store, keyring, input, webhook, Context.current().cancellationSignal);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
  };
}
