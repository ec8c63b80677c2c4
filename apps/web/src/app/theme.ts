import type { ThemeConfig } from 'antd';

/**
 * The console's colours, chosen for WCAG AA contrast (4.5:1 for text) on white and on the layout's #f5f5f5
 * (issue 37): antd's defaults give white on the primary blue 4.1:1, grey secondary text 3.3:1, the success green
 * 2.2:1 on its tag and placeholders, suffixes and empty text 1.8:1. Every page takes them from here, not page by page.
 */
export const THEME_TOKENS = {
  // White on it 6.2:1, as a link on white 6.2:1 (antd's blue-7).
  colorPrimary: '#0958d9',
  // Links and info take this seed's colour.
  colorInfo: '#0958d9',
  // On its tag's background #f6ffed 5.4:1 (green-8); the light shades stay antd's (a dark seed would grey them).
  colorSuccess: '#237804',
  colorSuccessBg: '#f6ffed',
  colorSuccessBgHover: '#d9f7be',
  colorSuccessBorder: '#b7eb8f',
  colorSuccessBorderHover: '#95de64',
  // On its tag's background 5.1:1, white on a danger button 5.6:1 (red-7).
  colorError: '#cf1322',
  // On its tag's background #fffbe6 6.5:1 (gold-9), the light shades antd's.
  colorWarning: '#874d00',
  colorWarningBg: '#fffbe6',
  colorWarningBgHover: '#fff1b8',
  colorWarningBorder: '#ffe58f',
  colorWarningBorderHover: '#ffd666',
  // Descriptions, hints, statistic titles, icons: 5.3:1 on #f5f5f5.
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  // Placeholders, suffixes, empty text: 4.5:1 on #f5f5f5.
  colorTextQuaternary: 'rgba(0, 0, 0, 0.56)',
  // Disabled controls stay faint, so that they do not read as enabled (WCAG leaves disabled controls out).
  colorTextDisabled: 'rgba(0, 0, 0, 0.25)',
} as const;

/**
 * antd's preset tag colours write their text in shade 7 over shade 1: where that is under 4.5:1, the next shade that
 * is not. Each palette has two names (orange7, orange-7) and both become the one CSS variable: both are set.
 */
const TAG_TEXT: Record<string, string> = {
  cyan: '#006d75',
  green: '#237804',
  orange: '#ad4e00',
  yellow: '#876800',
  volcano: '#ad2102',
  gold: '#874d00',
  lime: '#3f6600',
};
const TAG_TEXT_TOKENS = Object.fromEntries(
  Object.entries(TAG_TEXT).flatMap(([color, value]) => [
    [`${color}7`, value],
    [`${color}-7`, value],
  ]),
);

/** Not disabled, only empty: a table's "no data" reads like a description. */
const COMPONENTS: ThemeConfig['components'] = {
  Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
} as const;

export const THEME: ThemeConfig = { token: { ...THEME_TOKENS, ...TAG_TEXT_TOKENS }, components: COMPONENTS };
/** With the user's "reduce motion": antd's animations off (hooks/use-reduced-motion.ts). */
export const THEME_NO_MOTION: ThemeConfig = {
  token: { ...THEME_TOKENS, ...TAG_TEXT_TOKENS, motion: false },
  components: COMPONENTS,
};
