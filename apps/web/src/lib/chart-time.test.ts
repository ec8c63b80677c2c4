import { afterEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { bucketLabels, bucketStarts, labelFormat, type TimeFormats } from './chart-time';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FORMATS: TimeFormats = { hour: 'HH:mm', dayHour: 'MMM D HH:mm', day: 'MMM D', date: 'YYYY-MM-DD' };
const ZH_FORMATS: TimeFormats = { hour: 'HH:mm', dayHour: 'M月D日 HH:mm', day: 'M月D日', date: 'YYYY-MM-DD' };
const START = new Date(2026, 2, 5).getTime();

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

describe('chart bucket labels', () => {
  it('split a range evenly into the buckets (spec §9)', () => {
    expect(bucketStarts(START, 2 * HOUR, 3)).toEqual([START, START + 2 * HOUR, START + 4 * HOUR]);
  });

  it('say only as much as the range needs', () => {
    expect(labelFormat(HOUR, DAY, FORMATS)).toBe('HH:mm');
    expect(labelFormat(2 * HOUR, 3 * DAY, FORMATS)).toBe('MMM D HH:mm');
    expect(labelFormat(DAY, 30 * DAY, FORMATS)).toBe('MMM D');
    expect(labelFormat(3 * DAY, 400 * DAY, FORMATS)).toBe('YYYY-MM-DD');
  });

  it('write hours of one day and days of a month in local time', async () => {
    await setLanguage('en');
    expect(bucketLabels(bucketStarts(START, HOUR, 24), HOUR, FORMATS).slice(0, 3)).toEqual(['00:00', '01:00', '02:00']);
    expect(bucketLabels(bucketStarts(START, 6 * HOUR, 12), 6 * HOUR, FORMATS).slice(3, 5)).toEqual([
      'Mar 5 18:00',
      'Mar 6 00:00',
    ]);
    expect(bucketLabels(bucketStarts(START, DAY, 30), DAY, FORMATS).slice(0, 2)).toEqual(['Mar 5', 'Mar 6']);
  });

  it('use the interface language', async () => {
    await setLanguage('zh');
    expect(bucketLabels(bucketStarts(START, DAY, 30), DAY, ZH_FORMATS)[0]).toBe('3月5日');
    await setLanguage('en');
    expect(bucketLabels(bucketStarts(START, DAY, 400), DAY, FORMATS)[0]).toBe('2026-03-05');
  });
});
