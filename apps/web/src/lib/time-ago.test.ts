import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { timeAgo } from './time-ago';

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

const NOW = Date.UTC(2026, 10, 29, 12);
const MIN = 60_000;

describe('how long ago', () => {
  it('counts whole minutes, hours and days, in the interface language', async () => {
    await setLanguage('en');
    let t = i18n.t.bind(i18n);
    expect(timeAgo(t, NOW - 59_000, NOW)).toBe('just now');
    expect(timeAgo(t, NOW - MIN, NOW)).toBe('1 min ago');
    expect(timeAgo(t, NOW - 59 * MIN, NOW)).toBe('59 min ago');
    expect(timeAgo(t, NOW - 60 * MIN, NOW)).toBe('1 h ago');
    expect(timeAgo(t, NOW - (24 * 60 - 1) * MIN, NOW)).toBe('23 h ago');
    expect(timeAgo(t, NOW - 41_193 * MIN, NOW)).toBe('28 d ago');
    // A clock a little ahead of the viewer's is not "in the future".
    expect(timeAgo(t, NOW + 5 * MIN, NOW)).toBe('just now');
    await setLanguage('zh');
    t = i18n.t.bind(i18n);
    expect(timeAgo(t, NOW - 3 * 60 * MIN, NOW)).toBe('3 小时前');
    expect(timeAgo(t, NOW - 10_000, NOW)).toBe('刚刚');
  });
});
