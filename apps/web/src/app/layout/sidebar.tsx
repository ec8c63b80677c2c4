import { Layout, Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '@/hooks/use-session';
import { useSiteBranding } from '@/hooks/use-site-branding';
import { useCurrentRoute } from '../use-current-route';
import { useRouteRoles } from '../use-route-roles';
import { buildMenu, groupKeyOf, type MenuNode } from './menu';

type MenuItems = NonNullable<MenuProps['items']>;

function toItems(nodes: readonly MenuNode[], t: (key: string) => string): MenuItems {
  return nodes.map(({ key, titleKey, icon: Icon, children }) => ({
    key,
    label: t(titleKey),
    icon: Icon ? <Icon /> : undefined,
    children: children ? toItems(children, t) : undefined,
  }));
}

export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { role } = useSession();
  const { rolesOf } = useRouteRoles();
  const { title, logo } = useSiteBranding();
  const route = useCurrentRoute();
  const nodes = useMemo(() => buildMenu(role, rolesOf), [role, rolesOf]);
  const selected = route?.activeMenu ?? route?.path;
  const [openKeys, setOpenKeys] = useState<string[]>(() => {
    const group = selected ? groupKeyOf(nodes, selected) : undefined;
    return group ? [group] : [];
  });

  return (
    <Layout.Sider collapsible collapsed={collapsed} trigger={null} width={232} className="app-sider">
      <div className="app-sider__brand" title={title} data-testid="site-brand">
        {logo && <img className="app-sider__logo" src={logo} alt="" />}
        {!(collapsed && logo) && <span className="app-sider__title">{collapsed ? 'IPP' : title}</span>}
      </div>
      <Menu
        theme="dark"
        mode="inline"
        aria-label={t('menu.label')}
        items={toItems(nodes, t)}
        selectedKeys={selected ? [selected] : []}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => void navigate(key)}
        data-testid="sidebar-menu"
      />
    </Layout.Sider>
  );
}
