import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentRoute } from '../use-current-route';

export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const route = useCurrentRoute();
  useEffect(() => {
    document.title = route ? `${t(route.titleKey)} · ${t('app.name')}` : t('app.name');
  }, [route, t]);
}
