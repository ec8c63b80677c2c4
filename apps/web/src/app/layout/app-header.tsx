import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Flex, Grid, Layout } from 'antd';
import { Fragment, lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '@/components/language-switch';
import { useSession } from '@/hooks/use-session';
import { useCurrentRoute } from '../use-current-route';
import { MENU_GROUPS } from '../routes';
import { DemoTag } from './demo-tag';
import { LiveIndicator } from './live-indicator';
import { LogoutButton } from './logout-button';
import { SizeSwitch } from './size-switch';
import { UserBadge } from './user-badge';

// Loaded after the shell (its size is budgeted), like the live stream it follows.
const AlarmBell = lazy(() => import('@/features/alarms/components/alarm-bell'));

interface AppHeaderProps {
  collapsed: boolean;
  onToggleSidebar: () => void;
}

export function AppHeader({ collapsed, onToggleSidebar }: AppHeaderProps) {
  const { t } = useTranslation();
  const { demo } = useSession();
  const route = useCurrentRoute();
  const screens = Grid.useBreakpoint();
  // Under 1200 px the header's items no longer fit one row of its 64 px (issue 37: at 1024 px Exit was drawn under
  // the page): language and size go behind one button. Unmeasured (no media queries, as in unit tests): all shown.
  const narrow = (screens.xs === true || screens.sm === true) && screens.xl !== true;
  const [moreOpen, setMoreOpen] = useState(false);
  const moreId = useId();
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
        {/* antd's Breadcrumb markup and look without the component, which brings Dropdown into the shell. */}
        <nav className="app-breadcrumb" data-testid="breadcrumb">
          <ol>
            {crumbs.map((crumb, index) => (
              <Fragment key={crumb.key}>
                {index > 0 && (
                  <li className="app-breadcrumb__separator" aria-hidden="true">
                    /
                  </li>
                )}
                <li className="app-breadcrumb__item">{crumb.title}</li>
              </Fragment>
            ))}
          </ol>
        </nav>
      </Flex>
      <Flex align="center" gap={narrow ? 'small' : 'middle'} className="app-header__items">
        {demo && <DemoTag />}
        <LiveIndicator />
        <Suspense fallback={null}>
          <AlarmBell />
        </Suspense>
        {narrow ? (
          // A disclosure rather than antd's Popover, which would bring 2 KB into the shell's budget.
          <div className="app-header__more" onKeyDown={(event) => event.key === 'Escape' && setMoreOpen(false)}>
            <Button
              type="text"
              icon={<SettingOutlined />}
              onClick={() => setMoreOpen((open) => !open)}
              aria-label={t('header.more')}
              aria-expanded={moreOpen}
              aria-controls={moreId}
              data-testid="header-more"
            />
            <div id={moreId} className="app-header__more-panel" hidden={!moreOpen} data-testid="header-more-panel">
              <LanguageSwitch />
              <SizeSwitch />
            </div>
          </div>
        ) : (
          <>
            <LanguageSwitch />
            <SizeSwitch />
          </>
        )}
        <UserBadge />
        <LogoutButton />
      </Flex>
    </Layout.Header>
  );
}
