/**
 * Embeds for /v1/embeds: the owner's long-running call results (anyone else gets the same 404
 * as for a missing embed). Rows are read by their owner, lib/store/owners/embeds.ts.
 */
import type { FullSkillResult } from '../../activities/runtime/run-skill.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { errors } from '../../lib/errors/errors.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { ownerEmbed, type Embed } from '../../lib/store/owners/embeds.js';

/** Milliseconds a client should wait before asking again for a pending embed. */
const PENDING_RETRY_MS = 2000;

/** Reads the owner's embeds for download. */
export class EmbedsService {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
  ) {}

  /** The owner's embed; NOT_FOUND otherwise. */
  async find(ownerId: string, embedId: string): Promise<Embed<FullSkillResult>> {
    const embed = await ownerEmbed<FullSkillResult>(this.store, this.keyring, ownerId, embedId);
    if (!embed) throw errors.notFound('No embed with this id.');
    return embed;
  }

  /** The result of a ready embed; EMBED_FAILED or EMBED_PENDING (with Retry-After) otherwise. */
  result(embed: Embed<FullSkillResult>): FullSkillResult {
    const details = { embed_id: embed.id, task_id: embed.taskId, status: embed.status };
    if (embed.status === 'failed') throw new SkillflowError('EMBED_FAILED', undefined, details);
    if (!embed.result) throw new SkillflowError('EMBED_PENDING', undefined, details, PENDING_RETRY_MS);
    return embed.result;
  }
}
