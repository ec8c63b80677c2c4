import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { getLanguage } from '@/i18n';
import { countryList, countryName } from '@/lib/countries';

/** Country names in the current language; '' and unknown codes read "Others" (spec §3 Country map). */
export function useCountries() {
  // useTranslation re-renders on a language change, so getLanguage() is current here.
  const { t } = useTranslation();
  const lang = getLanguage();
  return useMemo(() => {
    const others = t('country.others');
    return {
      others,
      name: (code: string) => countryName(code, lang) ?? others,
      list: countryList(lang),
    };
  }, [lang, t]);
}
