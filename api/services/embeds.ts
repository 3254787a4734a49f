/**
 * Embeds for /v1/embeds: the owner's long-running call results (anyone else gets the same 404
 * as for a missing embed); for generated-asset links, also a team member's when the call was
 * billed to the team. Rows are read by their owner, lib/store/owners/embeds.ts.
 */
import type { FullSkillResult } from '../../activities/runtime/run-skill.js';
import type { Keyring } from '../../lib/crypto/keyring.js';
import { errors } from '../../lib/errors/errors.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { embedOrigin, ownerEmbed, type Embed } from '../../lib/store/owners/embeds.js';
import { teamMembership } from '../../lib/store/owners/teams.js';

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

  /**
   * The caller's embed, or one made by a call billed to a team the caller is a member of (team
   * execution: its generated assets belong to the team); NOT_FOUND otherwise, the same as for a
   * missing embed. `teamOfTask` names the team the owner's call of a task was billed to.
   */
  async findShared(
    ownerId: string,
    embedId: string,
    teamOfTask: (taskId: string, ownerId: string) => Promise<string | undefined>,
  ): Promise<Embed<FullSkillResult>> {
    const origin = await embedOrigin(this.store, embedId);
    if (origin && origin.ownerId !== ownerId) {
      const team = await teamOfTask(origin.taskId, origin.ownerId);
      if (team !== undefined && (await teamMembership(this.store, team, ownerId)))
        return this.find(origin.ownerId, embedId);
    }
    return this.find(ownerId, embedId);
  }

  /** The result of a ready embed; EMBED_FAILED or EMBED_PENDING (with Retry-After) otherwise. */
  result(embed: Embed<FullSkillResult>): FullSkillResult {
    const details = { embed_id: embed.id, task_id: embed.taskId, status: embed.status };
    if (embed.status === 'failed') throw new SkillflowError('EMBED_FAILED', undefined, details);
    if (!embed.result) throw new SkillflowError('EMBED_PENDING', undefined, details, PENDING_RETRY_MS);
    return embed.result;
  }
}
