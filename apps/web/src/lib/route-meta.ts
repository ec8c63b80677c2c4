export type MenuPlacement = 'root' | 'monitoring' | 'system';

/** What every route in the main layout declares (spec §2). */
export interface RouteMeta {
  path: string;
  /** i18n key of the page title (menu, breadcrumb, document title). */
  titleKey: string;
  /** Kept mounted while hidden so inputs, scroll and charts survive navigation. */
  keepAlive?: boolean;
  /** Where the route appears in the sidebar; absent = not in the menu. */
  menu?: MenuPlacement;
  /** Menu entry to highlight for pages reached from another page (edit and detail pages). */
  activeMenu?: string;
}

/** Props every routed page receives. */
export interface PageProps {
  meta: RouteMeta;
}
