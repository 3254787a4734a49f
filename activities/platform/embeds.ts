/**
 * Embeds: the stored result of a long-running skill call, sealed in the platform store and
 * downloadable by its owner through /v1/embeds/{embed_id}/file.
 */
import { sealJson } from '../../lib/crypto/sealed-value.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import type { Store } from '../../lib/store/db.js';
import { sealedCell } from '../../lib/store/sealed-columns.js';
import { toApplicationFailure } from '../boundary.js';
import type { FullSkillResult } from '../skill-activity.js';

export interface EmbedStore {
  saveEmbed(input: { embedId: string; result: FullSkillResult }): Promise<void>;
  /** Marks the embed failed so downloads answer EMBED_FAILED instead of "pending" forever. */
  markEmbedFailed(input: { embedId: string }): Promise<void>;
}

export function createEmbedStore(store: Store, keyring: Keyring): EmbedStore {
  return {
    async saveEmbed({ embedId, result }) {
      try {
        const embed = await store.db
          .selectFrom('embeds')
          .select('owner_id')
          .where('id', '=', embedId)
          .executeTakeFirst();
        if (!embed) return;
        const sealed = sealJson(keyring, result, sealedCell.embed(embedId, embed.owner_id));
        await store.db
          .updateTable('embeds')
          .set({ status: 'ready', content_sealed: sealed, updated_at: new Date() })
          .where('id', '=', embedId)
          .execute();
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
    async markEmbedFailed({ embedId }) {
      try {
        await store.db
          .updateTable('embeds')
          .set({ status: 'failed', updated_at: new Date() })
          .where('id', '=', embedId)
          .where('status', '=', 'pending')
          .execute();
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },
  };
}
