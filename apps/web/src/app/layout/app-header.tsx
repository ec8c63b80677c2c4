import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Flex, Layout, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/components/language-switch';
import { useSession } from '@/hooks/use-session';
import { useCurrentRoute } from '../use-current-route';
import { MENU_GROUPS } from '../routes';
import { LogoutButton } from './logout-button';
import { SizeSwitch } from './size-switch';
import { UserBadge } from './user-badge';

interface AppHeaderProps {
  collapsed: boolean;
  onToggleSidebar: () => void;
}

export function AppHeader({ collapsed, onToggleSidebar }: AppHeaderProps) {
  const { t } = useTranslation();
  const { demo } = useSession();
  const route = useCurrentRoute();
  const group = MENU_GROUPS.find((g) => g.key === route?.menu);
  const crumbs = [
    ...(group ? [{ key: group.key, title: t(group.titleKey) }] : []),
    ...(route ? [{ key: route.path, title: t(route.titleKey) }] : []),
  ];

  return (
    <Layout.Header className="app-header">
      <Flex align="center" gap="middle" style={{ minWidth: 0 }}>
        <Button
          type="text"
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggleSidebar}
          aria-label={t('header.toggleSidebar')}
          aria-expanded={!collapsed}
          data-testid="sidebar-toggle"
        />
        <Breadcrumb items={crumbs} data-testid="breadcrumb" />
      </Flex>
      <Flex align="center" gap="middle" wrap>
        {demo && (
          <Tag color="orange" data-testid="demo-tag">
            {t('header.demo')}
          </Tag>
        )}
        <LanguageSwitch />
        <SizeSwitch />
        <UserBadge />
        <LogoutButton />
      </Flex>
    </Layout.Header>
  );
}
