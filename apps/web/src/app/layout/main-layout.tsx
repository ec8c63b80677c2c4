import { Layout } from 'antd';
import type { ReactNode } from 'react';
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
  useIdleLogout();
  useSessionSync();
  useDocumentTitle();
  useLiveEvents();

  return (
    <Layout className="app-layout">
      <Sidebar collapsed={collapsed} />
      <Layout className="app-main">
        <AppHeader collapsed={collapsed} onToggleSidebar={toggleSidebar} />
        <Layout.Content className="app-content">
          <KeepAliveOutlet activeKeptPath={route?.keepAlive ? route.path : null} kept={kept} />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
