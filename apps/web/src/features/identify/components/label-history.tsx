import type { LabelEvent } from '@ipp/contracts';
import { Empty, Skeleton, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TimeText } from '@/components/time-text';
import { useLabelHistory } from '../api/get-label-history';
import { useActionLabel } from '../hooks/use-action-label';

/** Sources of a label change that are not bulk action codes (server: label-source.ts). */
const OTHER_SOURCES = ['reidentify', 'set-label', 'to-hi', 'undo', 'system'] as const;

/** The ROI's label history (issue 25): how it arrived, then each change, who or which model made it, from → to. */
export function LabelHistory({ roiId }: { roiId: number }) {
  const { t } = useTranslation();
  const actionLabel = useActionLabel();
  const history = useLabelHistory(roiId);
  if (history.isPending) return <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  if (history.isError) {
    return <Typography.Text type="secondary">{t('identify.history.failed')}</Typography.Text>;
  }
  const { events, dev_id: devId, received_at: receivedAt } = history.data;
  const label = (classId: number | null, name: string | null, hi: number) =>
    classId === null ? (
      <Tag style={{ marginInlineEnd: 0 }}>{t('monitor.unclassified')}</Tag>
    ) : (
      <Tag color={hi === 1 ? 'green' : 'blue'} style={{ marginInlineEnd: 0 }}>
        {name ?? `#${classId}`} · {hi === 1 ? 'HI' : 'AI'}
      </Tag>
    );
  const who = (e: LabelEvent) =>
    e.model_id !== null
      ? t('identify.detail.labelledByModel', { version: e.model_version ?? '?' })
      : e.user_id !== null
        ? (e.user_name ?? t('identify.history.removedUser'))
        : t('identify.history.system');
  const how = (action: string) =>
    (OTHER_SOURCES as readonly string[]).includes(action) ? t(`identify.history.source.${action}`) : actionLabel(action);
  return (
    <div data-testid="identify-history" data-count={events.length}>
      <Timeline
        items={[
          {
            key: 'arrived',
            content: (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('identify.history.arrived', { station: devId })} · <TimeText at={receivedAt} />
              </Typography.Text>
            ),
          },
          ...events.map((e) => ({
            key: e.id,
            color: e.action === 'undo' ? 'gray' : e.to_hi === 1 ? 'green' : 'blue',
            content: (
              <div style={{ fontSize: 12 }} data-testid={`identify-history-${e.id}`}>
                <div>
                  <Typography.Text strong style={{ fontSize: 12 }}>
                    {who(e)}
                  </Typography.Text>{' '}
                  · {how(e.action)}
                </div>
                <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center', margin: '2px 0' }}>
                  {label(e.from_class_id, e.from_class_name, e.from_hi)} → {label(e.to_class_id, e.to_class_name, e.to_hi)}
                </div>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  <TimeText at={e.at} />
                </Typography.Text>
              </div>
            ),
          })),
        ]}
      />
      {events.length === 0 && (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.history.none')} style={{ margin: 0 }} />
      )}
    </div>
  );
}
