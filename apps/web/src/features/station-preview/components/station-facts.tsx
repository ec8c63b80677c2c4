import { stationTimeZone } from '@ipp/contracts';
import type { Ipp } from '@ipp/contracts';
import { Badge, Card, Descriptions } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatCount } from '@/hooks/use-format-count';
import { TimeText } from '@/components/time-text';

/** The station's state and data at a glance. */
export function StationFacts({ ipp }: { ipp: Ipp }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const item = (key: string, label: string, children: ReactNode) => ({
    key,
    label,
    children: <span data-testid={`preview-${key}`}>{children}</span>,
  });
  return (
    <Card size="small" title={t('preview.facts')} style={{ height: '100%' }} data-testid="preview-facts">
      <Descriptions
        size="small"
        column={1}
        items={[
          item(
            'online',
            t('monitor.status'),
            <Badge status={ipp.online ? 'success' : 'default'} text={ipp.online ? t('monitor.online') : t('monitor.offline')} />,
          ),
          item('last-online', t('monitor.lastOnline'), <TimeText at={ipp.last_online_at} stationZone={stationTimeZone(ipp)} />),
          item('online-hours', t('monitor.onlineHours'), t('monitor.hours', { value: ipp.online_hours.toFixed(1) })),
          item('today-images', t('monitor.todayImages'), formatCount(ipp.today_images)),
          item('total-images', t('monitor.totalImages'), formatCount(ipp.total_images)),
          item('last-image', t('monitor.lastImage'), <TimeText at={ipp.last_image_at} stationZone={stationTimeZone(ipp)} />),
          item('dev-id', t('monitor.devId'), ipp.dev_id),
          item('team', t('monitor.team'), ipp.group_name ?? '—'),
        ]}
      />
    </Card>
  );
}
