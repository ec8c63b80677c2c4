import type { ComponentType } from 'react';
import { defaultRolesOf, type RolesOf } from '@/lib/route-roles';
import { canAccess } from '../guard';
import { APP_ROUTES, MENU_GROUPS, type AppRoute, type MenuGroup } from '../routes';

export interface MenuNode {
  key: string;
  titleKey: string;
  icon?: ComponentType;
  children?: MenuNode[];
}

/** Sidebar entries the role may open, in route order; a group appears where its first visible entry does. */
export function buildMenu(
  role: string | null,
  rolesOf: RolesOf = defaultRolesOf,
  routes: readonly AppRoute[] = APP_ROUTES,
  groups: readonly MenuGroup[] = MENU_GROUPS,
): MenuNode[] {
  const nodes: MenuNode[] = [];
  const groupNodes = new Map<string, MenuNode>();
  for (const route of routes) {
    if (!route.menu || !canAccess(role, rolesOf(route.path))) continue;
    const entry: MenuNode = { key: route.path, titleKey: route.titleKey, icon: route.icon };
    if (route.menu === 'root') {
      nodes.push(entry);
      continue;
    }
    let group = groupNodes.get(route.menu);
    if (!group) {
      const meta = groups.find((g) => g.key === route.menu);
      group = { key: `group:${route.menu}`, titleKey: meta?.titleKey ?? route.menu, icon: meta?.icon, children: [] };
      groupNodes.set(route.menu, group);
      nodes.push(group);
    }
    group.children?.push(entry);
  }
  return nodes;
}

/** Key of the group holding a path, to open it on first render. */
export function groupKeyOf(nodes: readonly MenuNode[], path: string): string | undefined {
  return nodes.find((node) => node.children?.some((child) => child.key === path))?.key;
}
