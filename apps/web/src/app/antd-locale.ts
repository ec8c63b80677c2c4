import type { Lang } from '@ipp/contracts';
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/es/locale/en_US';

/**
 * antd's Chinese strings sit in a chunk of their own, out of the shell's budget (issue 37 made room there for the
 * theme): main.tsx starts loading them with the console's strings and, in zh, the first render waits for both.
 */
let zhCN: Locale | null = null;
let loading: Promise<void> | null = null;

export function loadAntdLocale(): Promise<void> {
  loading ??= import('antd/es/locale/zh_CN').then(
    (module) => {
      zhCN = module.default;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** antd's strings for a language: English until the Chinese ones have arrived. */
export const antdLocale = (lang: Lang | string): Locale => (lang === 'zh' && zhCN ? zhCN : enUS);
export const antdLocaleLoaded = (lang: Lang | string): boolean => lang !== 'zh' || zhCN !== null;
