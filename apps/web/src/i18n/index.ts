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

// i18next extends the resource objects it is given in place; overrides must never reach the bundled originals.
const pristine = structuredClone(resources);

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

/** The site's default language (system configuration) applies only until the user picks one. */
export async function applySiteDefaultLanguage(lang: Lang): Promise<void> {
  if (isLang(readStorage(STORAGE_KEYS.language)) || getLanguage() === lang) return;
  await i18n.changeLanguage(lang);
}

type StringTree = { [key: string]: string | StringTree };

/** Every leaf of a string tree as "a.b.c" → text: the keys the translation table lists. */
export function flattenStrings(tree: StringTree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flattenStrings(value, path));
  }
  return out;
}

/** The strings shipped in this build, flattened, before any server override. */
export const BUNDLED_STRINGS: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  zh: flattenStrings(zh),
  en: flattenStrings(en),
};

function setPath(tree: StringTree, key: string, text: string): void {
  const parts = key.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object') return;
    node = next;
  }
  node[parts[parts.length - 1] ?? ''] = text;
}

/**
 * Puts the server's overrides of one language over the bundled strings. The whole bundle is written
 * again each time, so an override removed on the server falls back to the bundled text. Keys this build
 * does not use are skipped: they could only clash with a group of keys of the same name.
 */
export function applyOverrides(lang: Lang, entries: readonly { key: string; text: string }[]): void {
  const tree = structuredClone(pristine[lang].translation) as StringTree;
  for (const { key, text } of entries) {
    if (text !== '' && BUNDLED_STRINGS[lang][key] !== undefined) setPath(tree, key, text);
  }
  i18n.addResourceBundle(lang, 'translation', tree, true, true);
}

i18n.on('languageChanged', (lang) => {
  if (isLang(lang)) applyLanguage(lang);
});

void i18n.use(initReactI18next).init({
  resources: structuredClone(resources),
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  // Server overrides arrive after start (addResourceBundle); components re-render when they do.
  react: { bindI18nStore: 'added' },
});

export { i18n };
