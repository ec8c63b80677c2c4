import { DEFAULT_LANG, LANGS, type Lang } from '@ipp/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';
import en from './en.json';
import zh from './zh.json';

export const resources = { zh: { translation: zh }, en: { translation: en } } as const;

function isLang(value: string | null | undefined): value is Lang {
  return (LANGS as readonly (string | null | undefined)[]).includes(value);
}

export function storedLanguage(): Lang {
  const stored = readStorage(STORAGE_KEYS.language);
  return isLang(stored) ? stored : DEFAULT_LANG;
}

/** Language used for the UI and sent as x-lang. */
export function getLanguage(): Lang {
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
}

function applyLanguage(lang: Lang): void {
  dayjs.locale(lang === 'zh' ? 'zh-cn' : 'en');
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}

export async function setLanguage(lang: Lang): Promise<void> {
  writeStorage(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

i18n.on('languageChanged', (lang) => {
  if (isLang(lang)) applyLanguage(lang);
});

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export { i18n };
