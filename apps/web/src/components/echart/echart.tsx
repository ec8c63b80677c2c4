import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyWidgetFrame } from '@/components/lazy-widget/lazy-widget-frame';
import { onceLoader, useLazyWidget } from '@/components/lazy-widget/use-lazy-widget';
import { countPoints, legendFit, type ChartOption } from '@/lib/chart-option';
import type * as EChartsModule from '@/lib/echarts';

/** One download of the chart code for the whole session; a failed one may be tried again. */
const loadECharts = onceLoader<typeof EChartsModule>(() => import('@/lib/echarts'));

export interface EChartProps {
  option: ChartOption;
  /** What the chart shows, in words: its accessible name (a canvas says nothing to a screen reader). */
  label: string;
  testId?: string;
  height?: number;
}

/**
 * An Apache ECharts chart that follows its container's size and the interface language. The chart code
 * loads on first use; the instance is disposed when the component unmounts or its page is hidden.
 */
export function EChart({ option, label, testId, height = 280 }: EChartProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === 'en' ? 'EN' : 'ZH';
  // The px added under a legend that wraps onto more rows than its band (legendFit): the plot keeps its height.
  const [extra, setExtra] = useState(0);
  const { container, widget, version, failed, retry } = useLazyWidget(
    loadECharts,
    ({ init, chartLayout }, element) => {
      const chart = init(element, undefined, { locale });
      let drawn: ChartOption | null = null;
      let added = 0;
      /** Draws the option (or, with none, the last one at the new size) with room for its legend's rows. */
      const draw = (next: ChartOption | null) => {
        if (next) {
          drawn = next;
          added = 0;
          chart.setOption(next, { notMerge: true });
        } else chart.resize();
        if (!drawn) return;
        const fit = legendFit(drawn, chartLayout(chart), added);
        if (fit.extra !== added) chart.setOption(fit.fitted ?? drawn, { notMerge: true });
        added = fit.extra;
        setExtra(fit.extra);
      };
      // What the chart drew, for the browser suites (e2e/truncation.e2e.ts), as echarts.getInstanceByDom would give.
      Object.assign(element, { ippChart: { option: () => chart.getOption(), layout: () => chartLayout(chart) } });
      return { draw, resize: () => draw(null), destroy: () => chart.dispose() };
    },
    [locale],
  );

  useEffect(() => {
    if (version > 0) widget.current?.draw(option);
  }, [option, version, widget]);

  return (
    <LazyWidgetFrame
      height={height + extra}
      loading={version === 0}
      failed={failed}
      failedText={t('chart.loadFailed')}
      onRetry={retry}
    >
      <div
        ref={container}
        role="img"
        aria-label={label}
        data-testid={testId}
        data-points={countPoints(option)}
        data-chart
        style={{ width: '100%', height: '100%' }}
      />
    </LazyWidgetFrame>
  );
}
