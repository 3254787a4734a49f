/**
 * Team execution (`team_id` on skill calls) and team usage: the caller must be a member of the
 * team, and to spend, hold the spending right. A team the caller is not in is 404, exactly like
 * one that does not exist (a stranger learns nothing about it); a member whose role may not
 * spend gets 403.
 */
import type { Principal } from '../../lib/keys.js';
import { errors } from '../../lib/errors/errors.js';
import type { Store } from '../../lib/store/db.js';
import { teamMembership, type TeamMembership } from '../../lib/store/owners/teams.js';

export class TeamsService {
  constructor(private readonly store: Store) {}

  /** The caller's membership of the team, or 404 (a team the caller is not in looks missing). */
  async requireMember(principal: Principal, teamId: string): Promise<TeamMembership> {
    const member = await teamMembership(this.store, teamId, principal.ownerId);
    if (!member) throw errors.notFound('No team with this id.');
    return member;
  }

  async requireSpender(principal: Principal, teamId: string): Promise<void> {
    const member = await this.requireMember(principal, teamId);
    if (!member.can_spend || member.role === 'viewer') {
      throw errors.forbidden('This team role may not spend credits.', {
        team_id: teamId,
        role: member.role,
      });
    }
  }
}
