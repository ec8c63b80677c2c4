import type { Lang } from '@ipp/contracts';
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';
import zh from 'i18n-iso-countries/langs/zh.json';

// Only the console's two languages are bundled (the library's Node entry would load about eighty).
countries.registerLocale(en);
countries.registerLocale(zh);

const COLLATOR_LOCALE: Record<Lang, string> = { zh: 'zh-CN', en: 'en' };

/** Name of an ISO 3166-1 alpha-2 code in the language; null for '' (Others) or a code the list does not know. */
export function countryName(code: string, lang: Lang): string | null {
  if (!/^[A-Z]{2}$/.test(code)) return null;
  return countries.getName(code, lang) ?? null;
}

export interface Country {
  code: string;
  name: string;
}

const cache = new Map<Lang, readonly Country[]>();

/** Every country of the list, sorted by its name in the language. */
export function countryList(lang: Lang): readonly Country[] {
  let list = cache.get(lang);
  if (!list) {
    const collator = new Intl.Collator(COLLATOR_LOCALE[lang]);
    list = Object.entries(countries.getNames(lang))
      .map(([code, name]) => ({ code, name }))
      .sort((a, b) => collator.compare(a.name, b.name));
    cache.set(lang, list);
  }
  return list;
}
