import { describe, expect, it } from 'vitest';
import { grantableRoles, teamSeats } from './team-limits';

const LIMITS = { team_max_admins: 1, team_max_users: 3 };
const team = (admin_count: number, user_count: number) => ({ id: 4, admin_count, user_count });

describe('teamSeats', () => {
  it('marks a role full once the team holds its maximum', () => {
    const seats = teamSeats(team(1, 2), LIMITS);
    expect(seats.administrator).toEqual({ used: 1, max: 1, full: true });
    expect(seats.user).toEqual({ used: 2, max: 3, full: false });
    expect(teamSeats(team(0, 3), LIMITS).user.full).toBe(true);
  });

  it('does not count the edited user against the seat they already hold', () => {
    expect(teamSeats(team(1, 3), LIMITS, { group_id: 4, role: 'administrator' }).administrator.full).toBe(false);
    expect(teamSeats(team(1, 3), LIMITS, { group_id: 4, role: 'administrator' }).user.full).toBe(true);
    // Holding a seat in another team frees nothing here.
    expect(teamSeats(team(1, 3), LIMITS, { group_id: 9, role: 'administrator' }).administrator.full).toBe(true);
  });

  it('follows configured limits and reports none when they are unknown', () => {
    expect(teamSeats(team(1, 3), { team_max_admins: 2, team_max_users: 5 }).administrator.full).toBe(false);
    expect(teamSeats(team(5, 9), null)).toEqual({
      administrator: { used: 5, max: null, full: false },
      user: { used: 9, max: null, full: false },
    });
  });
});

describe('grantableRoles', () => {
  it('lets a superadmin grant every role and an administrator only user', () => {
    expect(grantableRoles('superadmin')).toEqual(['superadmin', 'administrator', 'user']);
    expect(grantableRoles('administrator')).toEqual(['user']);
  });

  it("keeps an edited administrator's own role on offer so editing details never demotes", () => {
    expect(grantableRoles('administrator', 'administrator')).toEqual(['administrator', 'user']);
  });
});
