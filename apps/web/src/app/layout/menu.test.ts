import { describe, expect, it } from 'vitest';
import { i18n } from '@/i18n';
import { APP_ROUTES } from '../routes';
import { buildMenu, groupKeyOf, type MenuNode } from './menu';

function paths(nodes: readonly MenuNode[]): string[] {
  return nodes.flatMap((node) => (node.children ? paths(node.children) : [node.key]));
}

describe('buildMenu', () => {
  it('shows a superadmin every menu entry, grouped, in route order', () => {
    const menu = buildMenu('superadmin');
    expect(menu.map((node) => node.key)).toEqual([
      '/home',
      'group:monitoring',
      '/identify',
      'group:system',
      '/manage/system',
      '/manage/group',
      '/manage/user',
      '/about',
    ]);
    expect(menu[1]?.children?.map((node) => node.key)).toEqual([
      '/manage/ipp',
      '/ipp/ipp-view',
      '/ipp/ipp-view-detail',
      '/alarms',
    ]);
    expect(menu[3]?.children?.map((node) => node.key)).toEqual(['/system/config', '/system/account', '/system/role']);
  });

  it('shows an administrator the same entries as a superadmin', () => {
    expect(paths(buildMenu('administrator'))).toEqual(paths(buildMenu('superadmin')));
  });

  it('hides from a user the entries whose route would send it to /403', () => {
    const visible = paths(buildMenu('user'));
    expect(visible).toEqual([
      '/home',
      '/manage/ipp',
      '/ipp/ipp-view',
      '/ipp/ipp-view-detail',
      '/alarms',
      '/identify',
      '/system/account',
      '/about',
    ]);
  });

  it('never lists pages reached from other pages', () => {
    const visible = paths(buildMenu('superadmin'));
    expect(visible).not.toContain('/manage/user_edit');
    expect(visible).not.toContain('/manage/ipp_edit');
    expect(visible).not.toContain('/ipp/ipp-image-detail');
  });

  it('finds the group to open for a page', () => {
    expect(groupKeyOf(buildMenu('user'), '/system/account')).toBe('group:system');
    expect(groupKeyOf(buildMenu('user'), '/home')).toBeUndefined();
  });
});

describe('route table', () => {
  it('has a title in both languages for every route', () => {
    for (const route of APP_ROUTES) {
      for (const lng of ['zh', 'en']) expect(i18n.exists(route.titleKey, { lng }), `${route.titleKey} (${lng})`).toBe(true);
    }
  });

  it('keeps exactly /home, /about and /ipp/ipp-view-detail alive', () => {
    expect(APP_ROUTES.filter((route) => route.keepAlive).map((route) => route.path)).toEqual([
      '/home',
      '/ipp/ipp-view-detail',
      '/about',
    ]);
  });
});
