import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import type { TimeFormats } from '@/lib/chart-time';
import { roi24Fixture, roi30Fixture } from '@/test/monitoring-fixtures';
import { roi24IsEmpty, roi24Option, roi24Total, temp30IsEmpty, temp30Option } from './overview-charts';

const FORMATS: TimeFormats = { hour: 'HH:mm', dayHour: 'MMM D HH:mm', day: 'MMM D', date: 'YYYY-MM-DD' };
type Series = { name: string; type: string; stack?: string; data: (number | null)[] }[];

beforeEach(async () => {
  await setLanguage('en');
});
afterEach(async () => {
  await i18n.changeLanguage('zh');
});

describe('24-hour chart', () => {
  it('stacks one bar series per station, in the order the server gives (followed first), over hour labels', () => {
    const data = roi24Fixture();
    const option = roi24Option(data, FORMATS, 'ROIs');
    const series = option.series as Series;
    expect(series.map((s) => [s.name, s.type, s.stack])).toEqual([
      ['Fjord (21006)', 'bar', 'rois'],
      ['Yellow Sea buoy (21005)', 'bar', 'rois'],
    ]);
    expect(series[0]?.data).toEqual(data.stations[0]?.counts);
    const labels = (option.xAxis as { data: string[] }).data;
    expect(labels).toHaveLength(24);
    expect([labels[0], labels[23]]).toEqual(['00:00', '23:00']);
  });

  it('counts the ROIs and knows when nothing was captured', () => {
    const data = roi24Fixture();
    expect(roi24Total(data)).toBe(4 * 4 + 4 * 1);
    expect(roi24IsEmpty(data)).toBe(false);
    expect(roi24IsEmpty(roi24Fixture({ stations: [{ ...data.stations[0]!, counts: Array(24).fill(0) }] }))).toBe(true);
    expect(roi24IsEmpty(roi24Fixture({ stations: [] }))).toBe(true);
  });
});

describe('30-day temperature chart', () => {
  it('draws the daily mean per station over day labels, leaving days without samples as gaps', () => {
    const option = temp30Option(roi30Fixture(), FORMATS, '°C');
    const series = option.series as (Series[number] & { connectNulls: boolean })[];
    expect(series).toHaveLength(1);
    expect(series[0]?.data[3]).toBeNull();
    expect(series[0]?.connectNulls).toBe(false);
    const labels = (option.xAxis as { data: string[] }).data;
    expect(labels).toHaveLength(30);
    expect(labels.at(-1)).toBe('Mar 5');
  });

  it('is empty when no station reported a temperature', () => {
    const data = roi30Fixture();
    expect(temp30IsEmpty(data)).toBe(false);
    const station = { ...data.stations[0]!, temperature_c: Array(30).fill(null) };
    expect(temp30IsEmpty(roi30Fixture({ stations: [station] }))).toBe(true);
  });
});
