import { describe, expect, it } from 'vitest';
import { roi24Option, temp30Option } from '@/features/home/utils/overview-charts';
import { environmentOption } from '@/features/station-preview/utils/preview-charts';
import { completeAxis, type TimeFormats } from '@/lib/chart-time';
import { roi24Fixture, roi30Fixture } from '@/test/monitoring-fixtures';
import type { ChartOption } from './chart-option';

const FORMATS: TimeFormats = { hour: 'HH:mm', dayHour: 'MMM D HH:mm', day: 'MMM D', date: 'YYYY-MM-DD' };
const NAMES = { mean: 'Mean', min: 'Lowest', max: 'Highest', humidity: 'Humidity', celsius: '°C', percent: '%RH' };

/** The legend band (about 24 px from the top) and the axis names above the plot (about 20 px) must not meet. */
const LEGEND_BAND = 24;
const AXIS_NAME_BAND = 20;

function gridTop(option: ChartOption): number {
  const grid = Array.isArray(option.grid) ? option.grid[0] : option.grid;
  return Number(grid?.top);
}

describe('charts with a legend at the top (issue 20: legends covered "ROIs", "°C", "%RH")', () => {
  const station = roi30Fixture().stations[0]!;
  const cases: [string, ChartOption][] = [
    ['home 24-hour data', roi24Option(roi24Fixture(), FORMATS, 'ROIs')],
    ['home 30-day temperature', temp30Option(roi30Fixture(), FORMATS, '°C')],
    ['station preview temperature and humidity', environmentOption(completeAxis(['a', 'b']), station, NAMES)],
  ];
  it.each(cases)('%s leaves room for the axis names under the legend', (_, option) => {
    const legend = Array.isArray(option.legend) ? option.legend[0] : option.legend;
    expect(legend?.top).toBe(0);
    expect(gridTop(option)).toBeGreaterThanOrEqual(LEGEND_BAND + AXIS_NAME_BAND + 16);
  });
});
