/**
 * Usage records for GET /v1/usage: those billed to the caller's account, or to a team the caller
 * belongs to. A key with the `keys` scope sees every key's records; any other key only its own.
 */
import { allows, type Principal } from '../../lib/keys.js';
import type { UsageRecords } from '../../lib/store/owners/usage-records.js';
import type { UsageRecord } from '../../lib/usage/usage-record.js';
import type { TeamsService } from './teams.js';

/** Lists usage records for the caller or one of their teams. */
export class UsageService {
  constructor(
    private readonly records: UsageRecords,
    private readonly teams: TeamsService,
  ) {}

  /** Newest first; NOT_FOUND for a team the caller is not a member of. */
  async list(
    p: Principal,
    query: { teamId?: string | undefined; limit: number; before?: Date | undefined },
  ): Promise<UsageRecord[]> {
    if (query.teamId) await this.teams.requireMember(p, query.teamId);
    return this.records.list(
      query.teamId ? { type: 'team', id: query.teamId } : { type: 'owner', id: p.ownerId },
      {
        limit: query.limit,
        before: query.before,
        keyId: allows(p, 'keys') ? undefined : p.keyId,
      },
    );
  }
}
