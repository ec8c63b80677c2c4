import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { langOverridesQueryOptions } from '@/api/get-lang-overrides';
import { applyOverrides, getLanguage } from '@/i18n';

/**
 * Loads the server's string overrides of the current language (at start, on a language switch and
 * whenever the translation page refreshes them) and lays them over the bundled strings. Until they
 * arrive, or if they never do, the bundled strings show.
 */
export function useTranslationOverrides(): void {
  // Subscribes to language changes, so the query follows the language.
  useTranslation();
  const lang = getLanguage();
  const { data } = useQuery(langOverridesQueryOptions(lang));
  useEffect(() => {
    if (data) applyOverrides(lang, data);
  }, [lang, data]);
}
