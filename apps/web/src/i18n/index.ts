import type { Lang } from '@ipp/contracts';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANG, LANGS } from '@/lib/contract-constants';
import { loadWithRetry } from '@/lib/lazy-with-retry';
import { STORAGE_KEYS } from '@/lib/storage-keys';
import { readStorage, writeStorage } from '@/lib/storage';
import { flattenStrings, type StringTree } from './strings';

// One language's strings per chunk: the console downloads only the language in use.
const LOADERS: Record<Lang, () => Promise<StringTree>> = {
  zh: () => import('./zh.json').then((m) => m.default),
  en: () => import('./en.json').then((m) => m.default),
};

/** The bundled strings of each language loaded so far, as shipped (i18next extends the objects it is given in place). */
const pristine: Partial<Record<Lang, StringTree>> = {};
const bundledKeys: Partial<Record<Lang, Readonly<Record<string, string>>>> = {};
const loading: Partial<Record<Lang, Promise<void>>> = {};

function isLang(value: string | null | undefined): value is Lang {
  return (LANGS as readonly (string | null | undefined)[]).includes(value);
}

/** Fetches a language's bundled strings once and hands them to i18next; a failed load is tried again next time. */
export function loadLanguage(lang: Lang): Promise<void> {
  loading[lang] ??= loadWithRetry(LOADERS[lang]).then(
    (tree) => {
      pristine[lang] = tree;
      bundledKeys[lang] = flattenStrings(tree);
      i18n.addResourceBundle(lang, 'translation', structuredClone(tree), true, true);
    },
    (error: unknown) => {
      delete loading[lang];
      throw error;
    },
  );
  return loading[lang];
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

/** Switches the UI once the language's strings are here; rejects (and keeps the language) if they cannot be loaded. */
export async function setLanguage(lang: Lang): Promise<void> {
  await loadLanguage(lang);
  writeStorage(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

/**
 * A language picked on the sign-in page (signed out). That choice wins over the one saved to the account: the sign-in
 * that follows saves it there (takePickedBeforeSignIn), instead of switching to the account's (issue 37).
 */
let pickedBeforeSignIn: Lang | null = null;

export function notePickedBeforeSignIn(lang: Lang): void {
  pickedBeforeSignIn = lang;
}

/** The language picked on the sign-in page since it opened, if any; asking forgets it. */
export function takePickedBeforeSignIn(): Lang | null {
  const picked = pickedBeforeSignIn;
  pickedBeforeSignIn = null;
  return picked;
}

/** The site's default language (system configuration) applies only until the user picks one. */
export async function applySiteDefaultLanguage(lang: Lang): Promise<void> {
  if (isLang(readStorage(STORAGE_KEYS.language)) || getLanguage() === lang) return;
  await loadLanguage(lang);
  await i18n.changeLanguage(lang);
}

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
 * does not use are skipped: they could only clash with a group of keys of the same name. A language whose
 * strings are not loaded is left alone: it is loaded before the UI switches to it, and its overrides follow.
 */
export function applyOverrides(lang: Lang, entries: readonly { key: string; text: string }[]): void {
  const original = pristine[lang];
  const keys = bundledKeys[lang];
  if (!original || !keys) return;
  const tree = structuredClone(original);
  for (const { key, text } of entries) {
    if (text !== '' && keys[key] !== undefined) setPath(tree, key, text);
  }
  i18n.addResourceBundle(lang, 'translation', tree, true, true);
}

i18n.on('languageChanged', (lang) => {
  if (isLang(lang)) applyLanguage(lang);
});

void i18n.use(initReactI18next).init({
  resources: {},
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  // Strings and server overrides arrive after start (addResourceBundle); components re-render when they do.
  react: { bindI18nStore: 'added' },
});

/** Resolves once the starting language's strings are loaded: the app renders after it, so no key ever shows. */
export const i18nReady: Promise<void> = loadLanguage(storedLanguage());

export { i18n };
