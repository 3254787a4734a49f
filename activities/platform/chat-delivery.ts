/**
 * Delivers a rendered chat message: always into the chat store (sealed, idempotent per run and
 * step, so a retried activity never duplicates it), and to the chat's webhook when one is
 * configured (lib/net/webhook.ts: public addresses only, pinned, no redirects). Webhook failures
 * are retried by Temporal under the `chat-delivery` profile; a refused address or a 4xx answer
 * fails the step at once. Every failure is the same WEBHOOK_DELIVERY_FAILED to the caller.
 */
import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { CHAT_ID_RULE, ChatIdSchema } from '../../lib/chat-id.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';
import { checkWebhookTarget, postJson, type WebhookPolicy } from '../../lib/net/webhook.js';
import type { Store } from '../../lib/store/db.js';
import {
  chatMessageDelivered,
  chatWebhookUrl,
  markChatMessageDelivered,
  saveChatMessage,
  type ChatContent,
} from '../../lib/store/owners/chats.js';
import { toApplicationFailure } from '../runtime/boundary.js';
import type { ReferenceResolver } from '../apps/encyclopedia/index.js';
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
  const content: ChatContent = {
    title: bound(input.title, MAX_TITLE_CHARS),
    message: bound(input.message, MAX_MESSAGE_CHARS),
  };
  await saveChatMessage(store, keyring, {
    id,
    chatId: input.chatId,
    ownerId: input.ownerId,
    taskId: input.taskId,
    stepId: input.stepId,
    content,
  });
  const url = await chatWebhookUrl(store, keyring, input.ownerId, input.chatId);
  if (url !== undefined && !(await chatMessageDelivered(store, id))) {
    await postWebhook(
      url,
      { message_id: id, chat_id: input.chatId, task_id: input.taskId, step_id: input.stepId, ...content },
      webhook,
      signal,
    );
    await markChatMessageDelivered(store, id);
  }
  return {
    message_id: id,
    chat_id: input.chatId,
    ...content,
    stored: true,
    webhook_delivered: url !== undefined,
  };
}

/**
 * The chat delivery activity. With `references`, `@encyclopedia:` directives in the rendered
 * message are replaced by a sources block of the resolved articles before it is stored.
 */
export function createChatDelivery(
  store: Store,
  keyring: Keyring,
  webhook: WebhookPolicy,
  references?: ReferenceResolver,
): ChatDelivery {
  return {
    async deliverChatMessage(input) {
      try {
        const signal = Context.current().cancellationSignal;
        const message = references ? await references(input.message, signal) : input.message;
        return await deliver(store, keyring, { ...input, message }, webhook, signal);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
  };
}
