import { describe, expect, it } from 'vitest';
import { concentrationOption } from '@/features/station-detail/utils/site-charts';
import { ecologySeriesOption } from '@/features/station-detail/utils/ecology-charts';
import { legendFit, linearTick, logTick, niceCeil, partialCap, type ChartOption } from './chart-option';

// Issue 37 on Data detail: the hour so far (1.03 ind/L) set the scale, ticks read "1.00e-3" beside "0.01", and
// legends were cut beside their paging arrows.

const axis = (n: number, partial: boolean) => ({
  labels: Array.from({ length: n }, (_, i) => `${i}:00`),
  partial: partial ? { index: n - 1, short: 'now' } : null,
});
const yAxisOf = (option: ChartOption) => (Array.isArray(option.yAxis) ? option.yAxis : [option.yAxis]) as { max?: number }[];
type Item = number | null | { value: number; symbol?: string };
const drawnPartial = (option: ChartOption) => {
  const series = option.series as { data: Item[]; tooltip?: { show?: boolean } }[];
  return series[1]!.data.at(-1);
};

describe('the hour still filling does not set the scale', () => {
  const hours = [0.25, 0.27, 0.43, 0.41, 0.2, 1.03];

  it("ends the axis at the complete hours' nice top and draws the partial value there, marked", () => {
    expect(partialCap(hours, axis(6, true))).toBe(0.5);
    const option = concentrationOption(
      axis(6, true),
      hours.map((c, i) => ({ start: i, count: 1, volume_l: 1, concentration_per_l: c, temperature_c: null, humidity_pct: null })),
      'ROIs/L',
      'ROIs/L',
    );
    expect(yAxisOf(option)[0]!.max).toBe(0.5);
    expect(drawnPartial(option)).toEqual({ value: 0.5, symbol: 'triangle', symbolSize: 9 });
    // The tooltip's own copy keeps the value as measured.
    const tooltipSeries = (option.series as { data: Item[] }[])[2]!;
    expect(tooltipSeries.data.at(-1)).toBe(1.03);
  });

  it('leaves the axis alone when the partial value is within the complete ones, or every hour is complete', () => {
    expect(partialCap([0.25, 0.43, 0.3], axis(3, true))).toBeUndefined();
    expect(partialCap(hours, axis(6, false))).toBeUndefined();
    expect(partialCap([null, null, 1.03], axis(3, true))).toBeUndefined();
    const buckets = [0.25, 0.3, 0.9].map((c, i) => ({
      start: i,
      volume_l: 1,
      count: 1,
      concentration_per_l: c,
      biovolume_mm3: null,
      biovolume_mm3_per_l: null,
    }));
    const names = { concentration: 'c', biovolume: 'b', perLitre: 'ind/L', mm3PerLitre: 'mm³/L' };
    expect(yAxisOf(ecologySeriesOption({ ...axis(3, true) }, buckets, names, false))[0]!.max).toBe(0.5);
    expect(yAxisOf(ecologySeriesOption({ ...axis(3, false) }, buckets, names, false))[0]!.max).toBeUndefined();
  });

  it('rounds an axis top up to 1, 2, 2.5 or 5 × 10ⁿ', () => {
    expect([0.43, 0.5, 0.51, 1.7, 2.2, 3, 7, 0.0012].map(niceCeil)).toEqual([0.5, 0.5, 1, 2, 2.5, 5, 10, 0.002]);
  });
});

describe('one notation for the ticks of an axis', () => {
  it('writes a linear axis in plain decimals to three significant figures', () => {
    expect([0, 0.001, 0.0025, 0.005, 0.0075, 0.01].map(linearTick)).toEqual(['0', '0.001', '0.0025', '0.005', '0.0075', '0.01']);
    expect([0.1, 0.25, 1.5, 20, 1200, 123456].map(linearTick)).toEqual(['0.1', '0.25', '1.5', '20', '1200', '123000']);
    expect(linearTick(-0.002)).toBe('-0.002');
  });

  it('writes a log axis in powers of ten', () => {
    expect([0.0001, 0.001, 0.01, 1, 10, 1000].map(logTick)).toEqual(['10⁻⁴', '10⁻³', '10⁻²', '10⁰', '10¹', '10³']);
    expect(logTick(0.003162)).toBe('3.16×10⁻³');
  });
});

describe('legends wrap, and the plot moves under their rows', () => {
  const option: ChartOption = { grid: { top: 64, bottom: 8 }, series: [{ type: 'line' }, { type: 'pie', top: 28 }] };

  it('changes nothing while the legend keeps to its band', () => {
    expect(legendFit(option, { legends: [{ y: 0, height: 20 }], plots: [{ y: 64 }] }, 0)).toEqual({ extra: 0, fitted: null });
  });

  it('moves the grids and pies down by the rows beyond the band, the same however often it runs', () => {
    const first = legendFit(option, { legends: [{ y: 0, height: 60 }], plots: [{ y: 64 }] }, 0);
    expect(first.extra).toBe(36);
    expect(first.fitted).toEqual({ grid: [{ top: 100, bottom: 8 }], series: [{ type: 'line' }, { type: 'pie', top: 64 }] });
    // Drawn again with the room added: the same answer.
    expect(legendFit(option, { legends: [{ y: 0, height: 60 }], plots: [{ y: 100 }] }, 36)).toEqual(first);
    // The chart grew wider and the legend is one row again: the room goes.
    expect(legendFit(option, { legends: [{ y: 0, height: 20 }], plots: [{ y: 100 }] }, 36)).toEqual({ extra: 0, fitted: null });
  });
});
