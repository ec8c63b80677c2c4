import {
  ADMIN_DATA_ROUTES,
  CONSOLE_ROUTES,
  type ConsolePath,
  type Role,
  type RoleSaveBody,
  type RoleTable,
  type RouteRoles,
} from '@ipp/contracts';
import { badParam } from '../../http/app-error.ts';
import type { SettingsService } from '../settings/settings.service.ts';

const ROLE_NAMES: RoleTable['roles'] = [
  { role: 'superadmin', name_zh: '超级管理员', name_en: 'Super Admin' },
  { role: 'administrator', name_zh: '团队管理员', name_en: 'Team Admin' },
  { role: 'user', name_zh: '普通用户', name_en: 'User' },
];

const STORE_KEY = 'route_roles';
const ADMINS: Role[] = ['superadmin', 'administrator'];

/**
 * superadmin and administrator pass every route (spec §2), so a list only decides whether `user` may open
 * the page: stored as null (everyone) or the two admin roles (not users).
 */
function normalise(roles: readonly Role[] | null): Role[] | null {
  return roles === null || roles.includes('user') ? null : [...ADMINS];
}

/** A page whose data only administrators get is never open to `user`, whatever an older list stored. */
function effective(path: ConsolePath, roles: Role[] | null): Role[] | null {
  return path in ADMIN_DATA_ROUTES ? [...ADMINS] : roles;
}

export class RolesService {
  constructor(private readonly settings: SettingsService) {}

  async table(): Promise<RoleTable> {
    const stored = await this.settings.readRaw(STORE_KEY);
    const overrides = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, Role[] | null>;
    const routes: RouteRoles[] = CONSOLE_ROUTES.map((route) => ({
      path: route.path,
      roles: effective(route.path, normalise(route.path in overrides ? (overrides[route.path] ?? null) : route.roles)),
    }));
    return { roles: ROLE_NAMES, routes };
  }

  async save(body: RoleSaveBody): Promise<RoleTable> {
    const current = await this.table();
    const next = Object.fromEntries(current.routes.map((r) => [r.path, r.roles]));
    body.routes.forEach((change, index) => {
      if (change.path in ADMIN_DATA_ROUTES && normalise(change.roles) === null) {
        throw badParam(`routes.${index}.roles`, 'reason.adminDataRoute');
      }
    });
    for (const change of body.routes) next[change.path] = normalise(change.roles);
    await this.settings.writeRaw(STORE_KEY, next);
    return this.table();
  }
}
