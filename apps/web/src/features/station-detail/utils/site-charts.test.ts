import { PERIODS } from '@ipp/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import { completeAxis, type TimeFormats } from '@/lib/chart-time';
import { LOCAL_DAY, siteBuckets, siteRoiFixture } from '@/test/monitoring-fixtures';
import { exportFilename, progressPercent } from './export';
import { needsConfirmation, PERIOD_POINTS } from './periods';
import { concentrationOption, hasConcentration, histogramOption, meanConcentration, siteBucketLabels } from './site-charts';

const HOUR = 3_600_000;
const FORMATS: TimeFormats = { hour: 'HH:mm', dayHour: 'MMM D HH:mm', day: 'MMM D', date: 'YYYY-MM-DD' };
type Series = { data: (number | null)[]; connectNulls?: boolean }[];

beforeEach(async () => {
  await setLanguage('en');
});
afterEach(async () => {
  await i18n.changeLanguage('zh');
});

describe('bucket labels', () => {
  it('are hours for 24 hours, day and hour for a week, days for months, dates beyond a year', () => {
    expect(siteBucketLabels(siteRoiFixture(), FORMATS).slice(0, 2)).toEqual(['00:00', '01:00']);
    const week = { buckets: siteBuckets(42, LOCAL_DAY, 4 * HOUR), bucket_ms: 4 * HOUR };
    expect(siteBucketLabels(week, FORMATS).slice(5, 7)).toEqual(['Mar 5 20:00', 'Mar 6 00:00']);
    const quarter = { buckets: siteBuckets(90, LOCAL_DAY, 24 * HOUR), bucket_ms: 24 * HOUR };
    expect(siteBucketLabels(quarter, FORMATS)[1]).toBe('Mar 6');
    const years = { buckets: siteBuckets(120, LOCAL_DAY, 7 * 24 * HOUR), bucket_ms: 7 * 24 * HOUR };
    expect(siteBucketLabels(years, FORMATS)[0]).toBe('2026-03-05');
  });
});

describe('histogram and concentration', () => {
  it('plot the count and the concentration of each bucket; buckets without water are gaps', () => {
    const buckets = siteBuckets(3, LOCAL_DAY, HOUR);
    buckets[1] = { ...buckets[1]!, count: 0, volume_l: 0, concentration_per_l: null };
    expect((histogramOption(completeAxis(['a', 'b', 'c']), buckets, 'ROIs').series as Series)[0]?.data).toEqual([10, 0, 10]);
    const concentration = (
      concentrationOption(completeAxis(['a', 'b', 'c']), buckets, 'Concentration', 'ROIs/L').series as Series
    )[0];
    expect(concentration?.data).toEqual([5, null, 5]);
    expect(concentration?.connectNulls).toBe(false);
    expect(hasConcentration(buckets)).toBe(true);
    expect(hasConcentration(buckets.map((b) => ({ ...b, concentration_per_l: null })))).toBe(false);
  });

  it('add a zoom slider only when the bars get too thin to read', () => {
    expect(histogramOption(completeAxis([]), siteBuckets(24, LOCAL_DAY, HOUR), 'ROIs').dataZoom).toEqual([]);
    expect((histogramOption(completeAxis([]), siteBuckets(120, LOCAL_DAY, HOUR), 'ROIs').dataZoom as unknown[]).length).toBe(2);
  });

  it('give the mean concentration of the period, none without water', () => {
    expect(meanConcentration({ total: 240, volume_l: 48 })).toBe(5);
    expect(meanConcentration({ total: 12, volume_l: 0 })).toBeNull();
  });
});

describe('periods', () => {
  it('have chart points within the server limits for every period, and ask before "all"', () => {
    for (const period of PERIODS) {
      expect(PERIOD_POINTS[period]).toBeGreaterThanOrEqual(2);
      expect(PERIOD_POINTS[period]).toBeLessThanOrEqual(400);
      expect(needsConfirmation(period)).toBe(period === 'all');
    }
  });
});

describe('export', () => {
  it('names the file after the station, period and time, and turns bytes into percent', () => {
    expect(exportFilename('21005', '7d', new Date(2026, 2, 5, 9, 8, 7).getTime())).toBe('21005-7d-20260305-090807.csv');
    expect(progressPercent({ loaded: 50, total: 200 })).toBe(25);
    expect(progressPercent({ loaded: 300, total: 200 })).toBe(100);
    expect(progressPercent({ loaded: 50, total: null })).toBeNull();
  });
});
