/** Super Admins (any team) and Team Admins (their own) add, configure and delete instruments; Users only look. */
export function canManageIpps(role: string | null): boolean {
  return role === 'superadmin' || role === 'administrator';
}
