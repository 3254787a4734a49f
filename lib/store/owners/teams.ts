/**
 * The owner of `teams` and `team_members`: who belongs to a team, in which role, and whether
 * they may spend its credits. Teams are administered outside the API for now, so the API only
 * reads them.
 */
import type { Store } from '../db.js';
import type { TeamMembersTable } from '../schema.js';

/** One member's role in a team. */
export type TeamMembership = Pick<TeamMembersTable, 'role' | 'can_spend'>;

/** The owner's membership of the team, if any. */
export async function teamMembership(
  store: Store,
  teamId: string,
  ownerId: string,
): Promise<TeamMembership | undefined> {
  return store.db
    .selectFrom('team_members')
    .select(['role', 'can_spend'])
    .where('team_id', '=', teamId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}
