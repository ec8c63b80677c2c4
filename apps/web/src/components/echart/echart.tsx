import { Button, Flex, Spin, Typography } from 'antd';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { countPoints, type ChartOption } from '@/lib/chart-option';
import type * as EChartsModule from '@/lib/echarts';
import { loadWithRetry } from '@/lib/lazy-with-retry';

let loading: Promise<typeof EChartsModule> | null = null;

/** One download of the chart code for the whole session; a failed one may be tried again. */
function loadECharts(): Promise<typeof EChartsModule> {
  loading ??= loadWithRetry(() => import('@/lib/echarts')).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export interface EChartProps {
  option: ChartOption;
  /** What the chart shows, in words: its accessible name (a canvas says nothing to a screen reader). */
  label: string;
  testId?: string;
  height?: number;
}

const OVERLAY: CSSProperties = { position: 'absolute', inset: 0 };

/**
 * An Apache ECharts chart that follows its container's size and the interface language. The chart code
 * loads on first use; the instance is disposed when the component unmounts or its page is hidden.
 */
export function EChart({ option, label, testId, height = 280 }: EChartProps) {
  const { t, i18n } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsModule.ECharts | null>(null);
  // Bumped after every init, so the option is set again on a new instance (language change, page shown again).
  const [instance, setInstance] = useState(0);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const locale = i18n.language === 'en' ? 'EN' : 'ZH';

  useEffect(() => {
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    let created: EChartsModule.ECharts | undefined;
    loadECharts().then(
      ({ init }) => {
        const element = container.current;
        if (cancelled || !element) return;
        created = init(element, undefined, { locale });
        chart.current = created;
        observer = new ResizeObserver(() => created?.resize());
        observer.observe(element);
        setInstance((n) => n + 1);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      created?.dispose();
      chart.current = null;
    };
  }, [locale, attempt]);

  useEffect(() => {
    if (instance > 0) chart.current?.setOption(option, { notMerge: true });
  }, [option, instance]);

  return (
    <div style={{ position: 'relative', height }}>
      <div
        ref={container}
        role="img"
        aria-label={label}
        data-testid={testId}
        data-points={countPoints(option)}
        style={{ width: '100%', height: '100%' }}
      />
      {instance === 0 && !failed && (
        <Flex align="center" justify="center" style={OVERLAY}>
          <Spin />
        </Flex>
      )}
      {failed && (
        <Flex vertical align="center" justify="center" gap="small" style={OVERLAY}>
          <Typography.Text type="secondary">{t('chart.loadFailed')}</Typography.Text>
          <Button
            onClick={() => {
              setFailed(false);
              setAttempt((n) => n + 1);
            }}
          >
            {t('common.retry')}
          </Button>
        </Flex>
      )}
    </div>
  );
}
