import type { Role, Settings, Team } from '@ipp/contracts';

export type LimitedRole = Extract<Role, 'administrator' | 'user'>;

export interface Seats {
  /** Members of that role in the team now (the team row's count). */
  used: number;
  /** The configured maximum; null when the settings could not be read. */
  max: number | null;
  /** No seat left for the user being edited. */
  full: boolean;
}

export type TeamSeats = Record<LimitedRole, Seats>;

export type TeamLimits = Pick<Settings, 'team_max_admins' | 'team_max_users'>;

/**
 * Seats of each limited role in a team for the user being edited. A user who already holds a seat of
 * that role in that team keeps it, so it does not count against them.
 */
export function teamSeats(
  team: Pick<Team, 'id' | 'admin_count' | 'user_count'>,
  limits: TeamLimits | null,
  editing?: { group_id: number | null; role: Role },
): TeamSeats {
  const seats = (role: LimitedRole, used: number, max: number | null): Seats => {
    const own = editing?.group_id === team.id && editing.role === role ? 1 : 0;
    return { used, max, full: max !== null && used - own >= max };
  };
  return {
    administrator: seats('administrator', team.admin_count, limits?.team_max_admins ?? null),
    user: seats('user', team.user_count, limits?.team_max_users ?? null),
  };
}

export function isLimitedRole(role: Role | undefined): role is LimitedRole {
  return role === 'administrator' || role === 'user';
}

/**
 * Roles the signed-in user may grant: a superadmin any, an administrator only 'user' (and the edited
 * user's current role, so editing someone else's details never changes it).
 */
export function grantableRoles(viewer: string | null, current?: Role): Role[] {
  if (viewer === 'superadmin') return ['superadmin', 'administrator', 'user'];
  return current && current !== 'user' ? [current, 'user'] : ['user'];
}
