import { describe, expect, it } from 'vitest';
import { completeAxis } from '@/lib/chart-time';
import { roi30Fixture } from '@/test/monitoring-fixtures';
import { dailyRoisOption, environmentOption, hasEnvironment, hasRois, hasVolume, volumeOption } from './preview-charts';

const station = roi30Fixture().stations[0]!;
const labels = Array.from({ length: 30 }, (_, day) => `d${day}`);
const axis = completeAxis(labels);
const NAMES = { mean: 'Mean', min: 'Lowest', max: 'Highest', humidity: 'Humidity', celsius: '°C', percent: '%RH' };
type Series = { name: string; data: (number | null)[]; yAxisIndex?: number }[];

describe('station preview charts', () => {
  it('show ROIs per day', () => {
    const option = dailyRoisOption(axis, station, 'ROIs');
    expect((option.series as Series)[0]?.data).toEqual(station.rois);
    expect((option.xAxis as { data: string[] }).data).toBe(labels);
  });

  it('show temperature mean, lowest and highest on the left axis and humidity on the right', () => {
    const series = environmentOption(axis, station, NAMES).series as Series;
    expect(series.map((s) => [s.name, s.yAxisIndex])).toEqual([
      ['Mean', 0],
      ['Lowest', 0],
      ['Highest', 0],
      ['Humidity', 1],
    ]);
    expect(series[0]?.data).toEqual(station.temperature_c);
  });

  it('show the water sampled per day', () => {
    expect((volumeOption(axis, station, 'Water', 'L').series as Series)[0]?.data).toEqual(station.volume_l);
  });

  it('know which charts have nothing to draw', () => {
    expect([hasRois(station), hasEnvironment(station), hasVolume(station)]).toEqual([true, true, true]);
    const quiet = {
      ...station,
      rois: station.rois.map(() => 0),
      temperature_c: station.rois.map(() => null),
      humidity_pct: station.rois.map(() => null),
      volume_l: station.rois.map(() => 0),
    };
    expect([hasRois(quiet), hasEnvironment(quiet), hasVolume(quiet)]).toEqual([false, false, false]);
  });
});
