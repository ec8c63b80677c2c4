import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteBranding } from '@/hooks/use-site-branding';
import { useCurrentRoute } from '../use-current-route';

export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const { title } = useSiteBranding();
  const route = useCurrentRoute();
  useEffect(() => {
    document.title = route ? `${t(route.titleKey)} · ${title}` : title;
  }, [route, t, title]);
}
