/** Platform activities (not skills): chat delivery, embed storage, the decide step and the event index. */
import type { Keyring } from '../../lib/crypto/keyring.js';
import type { WebhookPolicy } from '../../lib/net/webhook.js';
import type { Store } from '../../lib/store/db.js';
import { createChatDelivery, type ChatSealing } from './chat-delivery.js';
import { createEmbedStore } from './embeds.js';
import { createEventWaitIndex } from './event-waits.js';
import type { ReferenceResolver } from '../apps/encyclopedia/index.js';
import { createDecideStep, type DecideStepDeps } from '../decision/decide-step.js';

/**
 * `references` resolves `@encyclopedia:` directives in chat messages (none without it);
 * `decide` backs the workflow `decide` step (without it, every decide step takes its fallback);
 * `chatSealing` says whether chat content is sealed to the owner's keys (the default) or by the
 * server (CHAT_SERVER_SEALED, development only).
 */
export function platformActivities(
  store: Store,
  keyring: Keyring,
  webhook: WebhookPolicy,
  references?: ReferenceResolver,
  decide: DecideStepDeps = { service: undefined },
  chatSealing: ChatSealing = { serverSealed: false },
) {
  return {
    ...createChatDelivery(store, keyring, webhook, references, chatSealing),
    ...createEmbedStore(store, keyring),
    ...createDecideStep(decide),
    ...createEventWaitIndex(store, keyring),
  };
}
