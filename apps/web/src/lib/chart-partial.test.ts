import { afterEach, describe, expect, it } from 'vitest';
import { roi24Option, temp30Option } from '@/features/home/utils/overview-charts';
import { dailyRoisOption, dayAxis, environmentOption, volumeOption } from '@/features/station-preview/utils/preview-charts';
import { concentrationOption, histogramOption, shownEnd, siteBucketAxis } from '@/features/station-detail/utils/site-charts';
import { i18n, setLanguage } from '@/i18n';
import { LOCAL_DAY, roi24Fixture, roi30Fixture, siteBuckets } from '@/test/monitoring-fixtures';
import type { ChartOption } from './chart-option';
import { partialBucketIndex, type TimeFormats } from './chart-time';
import { viewerOffsetLabel } from './time-zones';

// Issue 20: "live demo temperatures step from ~18 °C to ~21 °C at the end of every chart". The last day bucket is
// today so far (for a UTC viewer, only the warm daytime of stations in China): it must say so and look different,
// and a count or volume so far must not read as a drop.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = LOCAL_DAY + 14 * HOUR + 32 * 60_000; // 14:32 local on the fixtures' last day
const NAMES = { mean: 'Mean', min: 'Lowest', max: 'Highest', humidity: 'Humidity', celsius: '°C', percent: '%RH' };

function formats(): TimeFormats {
  return {
    hour: i18n.t('chart.format.hour'),
    dayHour: i18n.t('chart.format.dayHour'),
    day: i18n.t('chart.format.day'),
    date: i18n.t('chart.format.date'),
    partial: {
      today: i18n.t('chart.partial.today'),
      soFar: (label, time) => i18n.t('chart.partial.soFar', { label, time }),
    },
  };
}

type Item = number | null | { value: number | null; itemStyle?: { opacity?: number; decal?: unknown }; symbol?: string };
type Series = {
  name: string;
  type: string;
  data: Item[];
  lineStyle?: { type?: string; opacity?: number };
  tooltip?: { show?: boolean };
}[];
type Axis = { data: string[]; axisLabel?: { formatter?: (value: string, index: number) => string } };

const seriesOf = (option: ChartOption) => option.series as Series;
const xAxisOf = (option: ChartOption) => option.xAxis as Axis;
const value = (item: Item | undefined) => (item !== null && typeof item === 'object' ? item.value : item);
/** What the axis writes under each bucket. */
const axisText = (option: ChartOption) => {
  const axis = xAxisOf(option);
  return axis.data.map((label, index) => axis.axisLabel?.formatter?.(label, index) ?? label);
};
/** Bars drawn lighter (the partial look). */
const lightBars = (option: ChartOption) =>
  seriesOf(option).flatMap((series) =>
    series.data.flatMap((item, index) =>
      item !== null && typeof item === 'object' && (item.itemStyle?.opacity ?? 1) < 1 ? [index] : [],
    ),
  );

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

describe('the bucket that is still filling', () => {
  it('is the last one exactly when the range ends inside it', () => {
    const start = LOCAL_DAY - 29 * DAY;
    expect(partialBucketIndex(start, DAY, 30, NOW)).toBe(29);
    expect(partialBucketIndex(start, DAY, 30, LOCAL_DAY + DAY - 1)).toBe(29);
    // A past range ending at midnight, or read later: every day is whole.
    expect(partialBucketIndex(start, DAY, 30, LOCAL_DAY + DAY)).toBeNull();
    expect(partialBucketIndex(start, DAY, 30, LOCAL_DAY + 5 * DAY)).toBeNull();
    // The last day has only just begun (nothing in it yet), or no data time is known.
    expect(partialBucketIndex(start, DAY, 30, LOCAL_DAY)).toBeNull();
    expect(partialBucketIndex(start, DAY, 30, undefined)).toBeNull();
    expect(partialBucketIndex(start, DAY, 0, NOW)).toBeNull();
  });

  it('is called today, so far, until the time the data was read (en and zh)', async () => {
    await setLanguage('en');
    const en = dayAxis(roi30Fixture(), 30, formats(), NOW);
    expect(en.partial).toEqual({ index: 29, short: 'Today' });
    expect(en.labels.slice(27)).toEqual(['Mar 3', 'Mar 4', 'Today (so far, until 14:32)']);
    await setLanguage('zh');
    const zh = dayAxis(roi30Fixture(), 30, formats(), NOW);
    expect(zh.labels.slice(28)).toEqual(['3月4日', '今天（截至 14:32）']);
    expect(zh.partial?.short).toBe('今天');
  });

  it('keeps an hour its label: the current hour of the 24-hour chart says "14:00 (so far, until 14:32)"', async () => {
    await setLanguage('en');
    const data = roi24Fixture({ start: LOCAL_DAY - 9 * HOUR });
    const option = roi24Option(data, formats(), 'ROIs', NOW);
    expect(xAxisOf(option).data[23]).toBe('14:00 (so far, until 14:32)');
    expect(axisText(option)[23]).toBe('14:00');
    // Every station's bar of the current hour is partial, nothing else.
    expect(lightBars(option)).toEqual([23, 23]);
  });

  it("is the viewer's today on the 30-day temperature: hollow point, dotted segment, each value once in the tooltip", async () => {
    await setLanguage('en');
    const data = roi30Fixture();
    const temperatures = data.stations[0]!.temperature_c;
    const option = temp30Option(data, formats(), '°C', NOW);
    expect(axisText(option).at(-1)).toBe('Today');
    expect(xAxisOf(option).data.at(-1)).toBe('Today (so far, until 14:32)');
    const [whole, tail, tooltip] = seriesOf(option);
    // Solid up to yesterday, no line into today.
    expect(whole!.data.map(value)).toEqual([...temperatures.slice(0, 29), null]);
    expect(whole!.tooltip?.show).toBe(false);
    // Yesterday to today dotted, today a larger hollow point.
    expect(tail!.lineStyle?.type).toBe('dotted');
    expect(tail!.data.map(value)).toEqual([...Array<null>(28).fill(null), temperatures[28], temperatures[29]]);
    expect(tail!.data[29]).toMatchObject({ symbol: 'emptyCircle' });
    expect(tail!.tooltip?.show).toBe(false);
    // The tooltip reads one invisible series with every value; the legend sees one name.
    expect(tooltip!.data.map(value)).toEqual(temperatures);
    expect(tooltip!.lineStyle?.opacity).toBe(0);
    expect(new Set(seriesOf(option).map((series) => series.name)).size).toBe(1);
  });

  it("draws today's count and volume so far lighter on the station preview; temperature and humidity dotted", () => {
    const data = roi30Fixture();
    const station = data.stations[0]!;
    const axis = dayAxis(data, 30, formats(), NOW);
    expect(lightBars(dailyRoisOption(axis, station, 'ROIs'))).toEqual([29]);
    expect(lightBars(volumeOption(axis, station, 'Water', 'L'))).toEqual([29]);
    const env = seriesOf(environmentOption(axis, station, NAMES));
    expect(env.filter((series) => series.lineStyle?.type === 'dotted').map((series) => series.name)).toEqual([
      'Mean',
      'Lowest',
      'Highest',
      'Humidity',
    ]);
  });

  it("marks the period's current day on the data detail charts", () => {
    const buckets = siteBuckets(30, LOCAL_DAY - 29 * DAY, DAY);
    const axis = siteBucketAxis({ buckets, bucket_ms: DAY }, formats(), NOW);
    expect(lightBars(histogramOption(axis, buckets, 'ROIs'))).toEqual([29]);
    expect(seriesOf(concentrationOption(axis, buckets, 'Concentration', 'ROIs/L')).map((s) => s.lineStyle?.type)).toEqual([
      undefined,
      'dotted',
      undefined,
    ]);
  });

  it('ends the data detail time range when the data was read, not at the next hour or midnight', () => {
    const range = { start: LOCAL_DAY - 29 * DAY, end: LOCAL_DAY + DAY };
    expect(shownEnd(range, NOW)).toBe(NOW);
    expect(shownEnd(range, LOCAL_DAY + 3 * DAY)).toBe(range.end);
    expect(shownEnd(range, undefined)).toBe(range.end);
  });

  it('does not exist in a range that is over: a past range ending at midnight draws every bucket alike', () => {
    const data = roi30Fixture();
    const station = data.stations[0]!;
    const midnight = LOCAL_DAY + DAY;
    const axis = dayAxis(data, 30, formats(), midnight);
    expect(axis.partial).toBeNull();
    expect(lightBars(dailyRoisOption(axis, station, 'ROIs'))).toEqual([]);
    expect(lightBars(volumeOption(axis, station, 'Water', 'L'))).toEqual([]);
    const temp = temp30Option(data, formats(), '°C', midnight);
    expect(seriesOf(temp)).toHaveLength(1);
    expect(seriesOf(temp)[0]!.data).toEqual(station.temperature_c);
    expect(axisText(temp)).toEqual(xAxisOf(temp).data);
    const buckets = siteBuckets(30, LOCAL_DAY - 29 * DAY, DAY);
    expect(lightBars(histogramOption(siteBucketAxis({ buckets, bucket_ms: DAY }, formats(), midnight), buckets, 'ROIs'))).toEqual(
      [],
    );
  });
});

describe('a bucket chart names its zone (issue 23)', () => {
  it("titles the tooltip with the bucket's label and the viewer's offset; the axis labels stay short", async () => {
    await setLanguage('en');
    const buckets = siteBuckets(24, LOCAL_DAY - 10 * HOUR, HOUR);
    const axis = siteBucketAxis({ buckets, bucket_ms: HOUR }, formats(), NOW);
    const x = histogramOption(axis, buckets, 'ROIs').xAxis as Axis & {
      axisPointer: { label: { formatter: (p: { value: unknown }) => string } };
    };
    expect(axis.zone).toBe(viewerOffsetLabel(NOW));
    expect(x.axisPointer.label.formatter({ value: x.data[3] })).toBe(`${x.data[3]} (${viewerOffsetLabel(NOW)})`);
    expect(x.data[3]).not.toContain('UTC');
  });
});
