/**
 * Embeds: the stored result of a long-running skill call, sealed in the platform store by its
 * owner module (lib/store/owners/embeds.ts) and downloadable through /v1/embeds/{embed_id}/file.
 */
import type { Keyring } from '../../lib/crypto/keyring.js';
import type { Store } from '../../lib/store/db.js';
import { markEmbedFailed, saveEmbedResult } from '../../lib/store/owners/embeds.js';
import { toApplicationFailure } from '../runtime/boundary.js';
import type { FullSkillResult } from '../runtime/run-skill.js';

export interface EmbedStore {
  saveEmbed(input: { embedId: string; result: FullSkillResult }): Promise<void>;
  /** Marks the embed failed so downloads answer EMBED_FAILED instead of "pending" forever. */
  markEmbedFailed(input: { embedId: string }): Promise<void>;
}

export function createEmbedStore(store: Store, keyring: Keyring): EmbedStore {
  return {
    async saveEmbed({ embedId, result }) {
      try {
        await saveEmbedResult(store, keyring, embedId, result);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
    async markEmbedFailed({ embedId }) {
      try {
        await markEmbedFailed(store, embedId);
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
  };
}
