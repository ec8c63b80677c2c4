import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIdleLogout } from '@/features/auth/hooks/use-idle-logout';
import { useCurrentRoute } from '../use-current-route';
import { AppHeader } from './app-header';
import { KeepAliveOutlet } from './keep-alive-outlet';
import { Sidebar } from './sidebar';
import { useDocumentTitle } from './use-document-title';
import { useLiveEvents } from './use-live-events';
import { useSessionSync } from './use-session-sync';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

export function MainLayout({ kept }: { kept: ReadonlyMap<string, ReactNode> }) {
  const [collapsed, toggleSidebar] = useSidebarCollapsed();
  const route = useCurrentRoute();
  const { t } = useTranslation();
  useIdleLogout();
  useSessionSync();
  useDocumentTitle();
  useLiveEvents();

  return (
    <Layout className="app-layout">
      {/* The first Tab stop: past the menu and the header to the page (issue 37). */}
      <a className="app-skip-link" href="#main-content" data-testid="skip-link">
        {t('header.skipToContent')}
      </a>
      <Sidebar collapsed={collapsed} />
      <Layout className="app-main">
        <AppHeader collapsed={collapsed} onToggleSidebar={toggleSidebar} />
        <Layout.Content className="app-content" id="main-content" tabIndex={-1}>
          {/* Every page's one level-one heading: its name, as the breadcrumb and the window title show it. */}
          {route && (
            <h1 className="app-page-title" data-testid="page-title">
              {t(route.titleKey)}
            </h1>
          )}
          <KeepAliveOutlet activeKeptPath={route?.keepAlive ? route.path : null} kept={kept} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
