/** Platform activities (not skills): chat delivery and embed storage, bound to the store. */
import type { Keyring } from '../../lib/crypto/keyring.js';
import type { WebhookPolicy } from '../../lib/net/webhook.js';
import type { Store } from '../../lib/store/db.js';
import { createChatDelivery } from './chat-delivery.js';
import { createEmbedStore } from './embeds.js';
import type { ReferenceResolver } from '../providers/encyclopedia/references.js';

/** `references` resolves `@encyclopedia:` directives in chat messages (none without it). */
export function platformActivities(
  store: Store,
  keyring: Keyring,
  webhook: WebhookPolicy,
  references?: ReferenceResolver,
) {
  return { ...createChatDelivery(store, keyring, webhook, references), ...createEmbedStore(store, keyring) };
}
