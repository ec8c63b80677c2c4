import type { TFunction } from 'i18next';

/** How long ago a time was, in whole minutes, hours or days ("3 h ago", "3 小时前"); "just now" under a minute. */
export function timeAgo(t: TFunction, at: number, now: number = Date.now()): string {
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return t('time.ago.now');
  if (minutes < 60) return t('time.ago.min', { n: minutes });
  if (minutes < 1440) return t('time.ago.hours', { n: Math.floor(minutes / 60) });
  return t('time.ago.days', { n: Math.floor(minutes / 1440) });
}
