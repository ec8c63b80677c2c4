import { useTranslation } from 'react-i18next';
import { imageUrl } from '@/api/client';
import { useSettingsInit } from '@/api/get-settings-init';

export interface SiteBranding {
  /** The configured site title, else the built-in name. */
  title: string;
  /** Address of the uploaded logo, '' when there is none. */
  logo: string;
}

export function useSiteBranding(): SiteBranding {
  const { t } = useTranslation();
  const { data } = useSettingsInit();
  return { title: data?.site_title || t('app.name'), logo: data?.logo ? imageUrl(data.logo) : '' };
}
