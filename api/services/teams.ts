/**
 * Team execution (`team_id` on skill calls): the caller must be a member of the team with the
 * spending right. Anything else is 403 (a team the caller cannot see is not distinguished).
 */
import type { Principal } from '../../lib/keys.js';
import { SkillflowError } from '../../lib/errors/skillflow-error.js';
import type { Store } from '../../lib/store/db.js';
import { teamMembership, type TeamMembership } from '../../lib/store/owners/teams.js';

export class TeamsService {
  constructor(private readonly store: Store) {}

  /** The caller's membership of the team, or 403 (a team the caller cannot see looks the same). */
  async requireMember(principal: Principal, teamId: string): Promise<TeamMembership> {
    const member = await teamMembership(this.store, teamId, principal.ownerId);
    if (!member) throw new SkillflowError('FORBIDDEN', 'Not a member of this team.', { team_id: teamId });
    return member;
  }

  async requireSpender(principal: Principal, teamId: string): Promise<void> {
    const member = await this.requireMember(principal, teamId);
    if (!member.can_spend || member.role === 'viewer') {
      throw new SkillflowError('FORBIDDEN', 'This team role may not spend credits.', {
        team_id: teamId,
        role: member.role,
      });
    }
  }
}
