import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage } from '@/i18n';
import type { ChartOption } from '@/lib/chart-option';
import { EChart } from './echart';

interface FakeChart {
  element: HTMLElement;
  locale: string;
  setOption: ReturnType<typeof vi.fn>;
  resize: ReturnType<typeof vi.fn>;
  dispose: ReturnType<typeof vi.fn>;
}

const charts = vi.hoisted(() => [] as FakeChart[]);

vi.mock('@/lib/echarts', () => ({
  chartLayout: () => ({ width: 0, height: 0, legends: [], plots: [] }),
  init: (element: HTMLElement, _theme: unknown, options: { locale: string }) => {
    const chart = { element, locale: options.locale, setOption: vi.fn(), resize: vi.fn(), dispose: vi.fn(), getOption: vi.fn() };
    charts.push(chart);
    return chart;
  },
}));

const OriginalResizeObserver = window.ResizeObserver;
let resizeCallbacks: (() => void)[] = [];
let disconnects = 0;

const bars = (data: number[]): ChartOption => ({
  xAxis: { type: 'category', data: data.map(String) },
  yAxis: { type: 'value' },
  series: [{ type: 'bar', data }],
});

beforeEach(async () => {
  await setLanguage('zh');
  charts.length = 0;
  resizeCallbacks = [];
  disconnects = 0;
  // setup.ts installs a non-configurable stand-in, so it is replaced by assignment (and restored after).
  window.ResizeObserver = class {
    constructor(callback: () => void) {
      resizeCallbacks.push(callback);
    }
    observe() {}
    unobserve() {}
    disconnect() {
      disconnects += 1;
    }
  } as unknown as typeof ResizeObserver;
});

afterEach(async () => {
  window.ResizeObserver = OriginalResizeObserver;
  await i18n.changeLanguage('zh');
});

describe('EChart', () => {
  it('draws the option into its own element, in the interface language, with its data in words', async () => {
    render(<EChart option={bars([1, 2, 3])} label="ROIs per hour: 6" testId="chart" />);
    // The chart is made, then given its option in a later effect: wait for both (a loaded CI machine once read between).
    await waitFor(() => expect(charts[0]?.setOption).toHaveBeenCalled());
    const element = screen.getByTestId('chart');
    expect(charts[0]?.element).toBe(element);
    expect(charts[0]?.locale).toBe('ZH');
    expect(charts[0]?.setOption).toHaveBeenCalledWith(bars([1, 2, 3]), { notMerge: true });
    expect(element.getAttribute('role')).toBe('img');
    expect(element.getAttribute('aria-label')).toBe('ROIs per hour: 6');
    expect(element.dataset.points).toBe('3');
  });

  it('redraws a new option, follows the container size and disposes on unmount', async () => {
    const view = render(<EChart option={bars([1])} label="one" testId="chart" />);
    await waitFor(() => expect(charts).toHaveLength(1));
    const chart = charts[0] as FakeChart;
    view.rerender(<EChart option={bars([4, 5])} label="two" testId="chart" />);
    expect(chart.setOption).toHaveBeenLastCalledWith(bars([4, 5]), { notMerge: true });
    expect(screen.getByTestId('chart').dataset.points).toBe('2');

    act(() => resizeCallbacks.forEach((callback) => callback()));
    expect(chart.resize).toHaveBeenCalledTimes(1);

    view.unmount();
    expect(chart.dispose).toHaveBeenCalledTimes(1);
    expect(disconnects).toBe(1);
  });

  it('starts again in the new language when the user switches', async () => {
    render(<EChart option={bars([1, 2])} label="x" testId="chart" />);
    await waitFor(() => expect(charts).toHaveLength(1));
    await act(() => setLanguage('en'));
    await waitFor(() => expect(charts).toHaveLength(2));
    expect(charts[0]?.dispose).toHaveBeenCalled();
    expect(charts[1]?.locale).toBe('EN');
    expect(charts[1]?.setOption).toHaveBeenCalledWith(bars([1, 2]), { notMerge: true });
  });
});
