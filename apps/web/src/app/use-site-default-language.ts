import { useEffect } from 'react';
import { useSettingsInit } from '@/api/get-settings-init';
import { applySiteDefaultLanguage } from '@/i18n';

/** The configured default language, for visitors who never chose one. */
export function useSiteDefaultLanguage(): void {
  const { data } = useSettingsInit();
  const lang = data?.default_language;
  useEffect(() => {
    if (lang) void applySiteDefaultLanguage(lang);
  }, [lang]);
}
