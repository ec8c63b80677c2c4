import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyWidgetFrame } from '@/components/lazy-widget/lazy-widget-frame';
import { onceLoader, useLazyWidget } from '@/components/lazy-widget/use-lazy-widget';
import { countPoints, type ChartOption } from '@/lib/chart-option';
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
  const { container, widget, version, failed, retry } = useLazyWidget(
    loadECharts,
    ({ init }, element) => {
      const chart = init(element, undefined, { locale });
      return { chart, resize: () => chart.resize(), destroy: () => chart.dispose() };
    },
    [locale],
  );

  useEffect(() => {
    if (version > 0) widget.current?.chart.setOption(option, { notMerge: true });
  }, [option, version, widget]);

  return (
    <LazyWidgetFrame height={height} loading={version === 0} failed={failed} failedText={t('chart.loadFailed')} onRetry={retry}>
      <div
        ref={container}
        role="img"
        aria-label={label}
        data-testid={testId}
        data-points={countPoints(option)}
        style={{ width: '100%', height: '100%' }}
      />
    </LazyWidgetFrame>
  );
}
