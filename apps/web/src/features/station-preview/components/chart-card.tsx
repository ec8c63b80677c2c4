import { Card, Empty } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A chart in a card, or "No data sampled" in its place when the period holds nothing to draw. */
export function ChartCard({ title, empty, children }: { title: string; empty: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title} style={{ height: '100%' }}>
      {empty ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('monitor.noData')} /> : children}
    </Card>
  );
}
