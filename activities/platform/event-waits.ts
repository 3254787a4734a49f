/**
 * The worker's side of the event index: a `wait_for_event` step records its wait before it waits
 * (`registerEventWait`) and removes it when the wait ends (`releaseEventWait`). The row holds
 * keyed hashes of the event name and the rendered match values (lib/events/event-index-keys.ts),
 * never the values; the values reach the activity only inside encrypted Temporal payloads.
 * Retried by Temporal under the `event-index` profile; both are idempotent.
 */
import type { Keyring } from '../../lib/crypto/keyring.js';
import { eventKey, matchFields, matchHash } from '../../lib/events/event-index-keys.js';
import type { Store } from '../../lib/store/db.js';
import { registerEventWait, releaseEventWait } from '../../lib/store/owners/event-waits.js';

export interface EventWaitRegistration {
  ownerId: string;
  workflowId: string;
  stepId: string;
  name: string;
  match: Record<string, string>;
  expiresAt: string;
}

export interface EventWaitIndex {
  registerEventWait(w: EventWaitRegistration): Promise<void>;
  releaseEventWait(w: { workflowId: string; stepId: string }): Promise<void>;
}

export function createEventWaitIndex(store: Store, keyring: Keyring): EventWaitIndex {
  return {
    async registerEventWait(w) {
      await registerEventWait(store, {
        ownerId: w.ownerId,
        eventKey: eventKey(keyring, w.name),
        matchFields: matchFields(w.match),
        matchHash: matchHash(keyring, w.name, w.match),
        workflowId: w.workflowId,
        stepId: w.stepId,
        expiresAt: new Date(w.expiresAt),
      });
    },
    async releaseEventWait(w) {
      await releaseEventWait(store, w.workflowId, w.stepId);
    },
  };
}
