/**
 * Delivers a rendered chat message: always into the chat store (idempotent per run and step, so
 * a retried activity never duplicates it), and to the chat's webhook when one is configured
 * (lib/net/webhook.ts: public addresses only, pinned, no redirects). Webhook failures are
 * retried by Temporal under the `chat-delivery` profile; a refused address or a 4xx answer fails
 * the step at once. Every failure is the same WEBHOOK_DELIVERY_FAILED to the caller.
 *
 * The content is sealed to every chat key the owner registered (lib/crypto/chat-seal.ts), and
 * only those sealed copies are stored and sent to the webhook: the server cannot read them back.
 * An owner without a chat key gets CHAT_KEY_MISSING and nothing is stored. In the development
 * mode CHAT_SERVER_SEALED, the content is sealed by the server instead, readable through the API.
 */
import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { sealToKeys, type SealedCopy } from '../../lib/crypto/chat-seal.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { CHAT_ID_RULE, ChatIdSchema } from '../../lib/chat-id.js';
import { invalidParameter, SkillflowError } from '../../lib/errors/skillflow-error.js';
import { checkWebhookTarget, postJson, type WebhookPolicy } from '../../lib/net/webhook.js';
import type { Store } from '../../lib/store/db.js';
import { listChatKeys } from '../../lib/store/owners/chat-keys.js';
import {
  chatMessageDelivered,
  chatMessageStored,
  chatWebhookUrl,
  markChatMessageDelivered,
  saveChatMessage,
  storedSealedCopies,
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
 * The chat step's workflow-visible output. Sealed to the owner's chat keys, it names the message
 * and how many keys it was sealed to, never its content (which would otherwise sit readable in
 * the run's result). In the development mode CHAT_SERVER_SEALED it carries the rendered title
 * and message (bounded).
 */
export type DeliveredChatMessage = {
  message_id: string;
  chat_id: string;
  stored: true;
  webhook_delivered: boolean;
} & ({ sealed_to: number } | ChatContent);

/** How delivered content is sealed: to the owner's chat keys (the default) or by the server. */
export interface ChatSealing {
  serverSealed: boolean;
}

/** CHAT_KEY_MISSING: the owner registered no chat key, so the message cannot be sealed to them. */
export class ChatKeyMissingError extends SkillflowError {
  constructor() {
    super('CHAT_KEY_MISSING');
  }
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
  sealing: ChatSealing = { serverSealed: false },
): Promise<DeliveredChatMessage> {
  if (!ChatIdSchema.safeParse(input.chatId).success) {
    throw invalidParameter([{ path: 'chat_id', message: `the rendered chat id ${CHAT_ID_RULE}` }]);
  }
  const id = messageIdFor(input.taskId, input.stepId);
  const content: ChatContent = {
    title: bound(input.title, MAX_TITLE_CHARS),
    message: bound(input.message, MAX_MESSAGE_CHARS),
  };
  const ref = {
    id,
    chatId: input.chatId,
    ownerId: input.ownerId,
    taskId: input.taskId,
    stepId: input.stepId,
  };
  let sealed: SealedCopy[] | undefined;
  if (sealing.serverSealed)
    await saveChatMessage(store, keyring, { ...ref, content: { serverSealed: content } });
  else {
    // A retry finds the copies the first attempt stored (sealing again would differ).
    if (!(await chatMessageStored(store, id))) {
      const keys = await listChatKeys(store, input.ownerId);
      if (keys.length === 0) throw new ChatKeyMissingError();
      const copies = await sealToKeys({ message_id: id, ...content }, keys);
      await saveChatMessage(store, keyring, { ...ref, content: { sealedToKeys: copies } });
    }
    sealed = await storedSealedCopies(store, id);
  }
  const url = await chatWebhookUrl(store, keyring, input.ownerId, input.chatId);
  if (url !== undefined && !(await chatMessageDelivered(store, id))) {
    const body = sealed
      ? { sealed: sealed.map((c) => ({ key_id: c.keyId, ciphertext: c.ciphertext })) }
      : content;
    await postWebhook(
      url,
      { message_id: id, chat_id: input.chatId, task_id: input.taskId, step_id: input.stepId, ...body },
      webhook,
      signal,
    );
    await markChatMessageDelivered(store, id);
  }
  return {
    message_id: id,
    chat_id: input.chatId,
    ...(sealed ? { sealed_to: sealed.length } : content),
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
  sealing: ChatSealing = { serverSealed: false },
): ChatDelivery {
  return {
    async deliverChatMessage(input) {
      try {
        const signal = Context.current().cancellationSignal;
        const message = references ? await references(input.message, signal) : input.message;
        return await deliver(store, keyring, { ...input, message }, webhook, signal, sealing);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
  };
}
