import type { UserRow } from '../users/users.repository.ts';

/**
 * Whether the caller may see an object of a team: the superadmin every team's, anyone else their own team's. New code
 * asks this here instead of writing the rule out (issue 24 moves the older checks to it).
 */
export function ownsTeamObject(actor: Pick<UserRow, 'role' | 'group_id'>, groupId: number | null): boolean {
  return actor.role === 'superadmin' || (groupId !== null && groupId === actor.group_id);
}
