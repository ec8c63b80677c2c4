import type { Lang } from '@ipp/contracts';
import en from './en.json';
import { flattenStrings } from './strings';
import zh from './zh.json';

/**
 * The strings shipped in this build, both languages, flattened, before any server override: for the translation
 * page. The console itself loads only the language in use (index.ts).
 */
export const BUNDLED_STRINGS: Readonly<Record<Lang, Readonly<Record<string, string>>>> = {
  zh: flattenStrings(zh),
  en: flattenStrings(en),
};
