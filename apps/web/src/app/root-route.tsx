import { Outlet } from 'react-router';
import { useVersionCheck } from '@/features/version/use-version-check';
import { useApiNotifier } from './use-api-notifier';
import { useSiteDefaultLanguage } from './use-site-default-language';
import { useTranslationOverrides } from './use-translation-overrides';

/** Parent of every route: wires app-wide behaviour that needs the router and antd's App context. */
export function RootRoute() {
  useApiNotifier();
  useVersionCheck();
  useSiteDefaultLanguage();
  useTranslationOverrides();
  return <Outlet />;
}
