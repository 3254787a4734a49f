/**
 * Delivers a rendered chat message: always into the chat store (sealed, idempotent per run and
 * step, so a retried activity never duplicates it), and to the chat's webhook when one is
 * configured. Webhook failures are retried by Temporal under the `chat-delivery` profile; a
 * webhook that rejects the message (4xx) fails the step without endless retries.
 */
import { createHash } from 'node:crypto';
import { request } from 'undici';
import { Context } from '@temporalio/activity';
import { openJson, sealJson } from '../../lib/crypto/aead.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { CHAT_ID_RULE, ChatIdSchema } from '../../lib/chat-id.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { toApplicationFailure } from '../boundary.js';

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

const WEBHOOK_TIMEOUT_MS = 10_000;
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

async function postWebhook(url: string, body: unknown, signal: AbortSignal | undefined): Promise<void> {
  let status: number;
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'skillflow-webhook/1' },
      body: JSON.stringify(body),
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)])
        : AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    status = res.statusCode;
    await res.body.dump();
  } catch {
    throw new SkillflowError('UPSTREAM_UNAVAILABLE', 'The chat webhook could not be reached.', {
      target: 'chat_webhook',
    });
  }
  if (status >= 200 && status < 300) return;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    throw new SkillflowError('DELIVERY_REJECTED', `The chat webhook answered HTTP ${status}.`, { status });
  }
  throw new SkillflowError('UPSTREAM_UNAVAILABLE', `The chat webhook answered HTTP ${status}.`, {
    target: 'chat_webhook',
    status,
  });
}

/** Delivery without Temporal; the activity below wraps it. */
export async function deliver(
  store: Store,
  keyring: Keyring,
  input: ChatMessageInput,
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
      content_sealed: sealJson(keyring, content),
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
      const url = openJson<string>(keyring, chat.webhook_url_sealed);
      await postWebhook(
        url,
        { message_id: id, chat_id: input.chatId, task_id: input.taskId, step_id: input.stepId, ...content },
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

export function createChatDelivery(store: Store, keyring: Keyring): ChatDelivery {
  return {
    async deliverChatMessage(input) {
      try {
        return await deliver(store, keyring, input, Context.current().cancellationSignal);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
  };
}
