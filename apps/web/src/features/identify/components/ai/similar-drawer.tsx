import type { SimilarItem } from '@ipp/contracts';
import { Drawer, Empty, Flex, Spin, Tag, theme, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { imageUrl } from '@/api/client';
import { LoadFailed } from '@/components/load-failed';
import { formatTime } from '@/lib/format';
import { useSimilar } from '../../api/get-similar';

const THUMB = 110;

interface SimilarDrawerProps {
  roiId: number;
  onClose: () => void;
  /** Shows the chosen neighbour in the detail pane. */
  onOpen: (roiId: number) => void;
}

/** "More like this": the team's ROIs nearest to the focused one by feature vector, nearest first. */
export function SimilarDrawer({ roiId, onClose, onOpen }: SimilarDrawerProps) {
  const { t } = useTranslation();
  const similar = useSimilar(roiId);

  const body = () => {
    if (similar.isPending) {
      return (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin description={t('common.loading')} data-testid="similar-loading" />
        </Flex>
      );
    }
    if (similar.isError) return <LoadFailed error={similar.error} onRetry={() => void similar.refetch()} />;
    if (similar.data.items.length === 0) {
      return (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.ai.similarEmpty')} data-testid="similar-empty" />
      );
    }
    return (
      <Flex vertical gap="small">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('identify.ai.similarHint')}
        </Typography.Text>
        <div
          role="list"
          aria-label={t('identify.ai.similar')}
          style={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${THUMB + 16}px, 1fr))`, gap: 8 }}
          data-testid="similar-grid"
        >
          {similar.data.items.map((item) => (
            <SimilarCell key={item.id} item={item} onOpen={() => onOpen(item.id)} />
          ))}
        </div>
      </Flex>
    );
  };

  return (
    <Drawer
      open
      title={t('identify.ai.similarTitle', { id: roiId })}
      size={560}
      onClose={onClose}
      destroyOnHidden
      data-testid="similar-drawer"
    >
      {body()}
    </Drawer>
  );
}

function SimilarCell({ item, onOpen }: { item: SimilarItem; onOpen: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [broken, setBroken] = useState(false);
  const className = item.class_name ?? t('monitor.unclassified');
  const distance = t('identify.ai.distance', { value: item.distance.toFixed(3) });
  return (
    <div role="listitem">
      <button
        type="button"
        onClick={onOpen}
        aria-label={`${className} · ${distance} · ${formatTime(item.roi_time)}`}
        style={{
          padding: 4,
          border: `1px solid ${token.colorBorderSecondary}`,
          borderRadius: 6,
          background: token.colorFillQuaternary,
          cursor: 'pointer',
          textAlign: 'left',
          width: '100%',
        }}
        data-testid={`similar-${item.id}`}
        data-distance={item.distance}
      >
        {broken ? (
          <Flex align="center" justify="center" style={{ height: THUMB, fontSize: 12, color: token.colorTextTertiary }}>
            {t('monitor.noImage')}
          </Flex>
        ) : (
          <img
            src={imageUrl(item.thumb_url)}
            alt={className}
            loading="lazy"
            onError={() => setBroken(true)}
            style={{
              display: 'block',
              width: '100%',
              height: THUMB,
              objectFit: 'contain',
              background: '#1f1f1f',
              borderRadius: 4,
            }}
          />
        )}
        <Typography.Text ellipsis style={{ display: 'block', fontSize: 12, marginTop: 4 }}>
          {className}
        </Typography.Text>
        <Flex justify="space-between" align="center" gap={4}>
          <Typography.Text type="secondary" style={{ fontSize: 11 }}>
            {distance}
          </Typography.Text>
          <Tag style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', paddingInline: 4 }}>{item.type.toUpperCase()}</Tag>
        </Flex>
      </button>
    </div>
  );
}
