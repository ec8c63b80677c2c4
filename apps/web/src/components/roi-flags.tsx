import { ClearOutlined, FireOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { ROI_FLAG_RULES, type RoiFlag } from '@ipp/contracts';
import { Flex, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const ICONS: Record<RoiFlag, ReactNode> = {
  wiper: <ClearOutlined />,
  uvc: <ThunderboltOutlined />,
  temperature: <FireOutlined />,
};
const COLORS: Record<RoiFlag, string> = { wiper: 'blue', uvc: 'purple', temperature: 'volcano' };

/** What a flag says in full (tooltips, the detail panes). */
export function useFlagText() {
  const { t } = useTranslation();
  const range = ROI_FLAG_RULES.temperatureC;
  return (flag: RoiFlag) => t(`roiFlags.long.${flag}`, { min: range.min, max: range.max });
}

/**
 * The instrument's state when an image was captured (issue 23): a tag per flag, or, `compact`, just their icons (the
 * grid's thumbnails; the full text is their title and accessible name). Nothing when the image has none.
 */
export function RoiFlags({ flags, compact = false, testId }: { flags: readonly RoiFlag[]; compact?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const text = useFlagText();
  if (flags.length === 0) return compact ? null : <span data-testid={testId}>{t('roiFlags.none')}</span>;
  if (compact)
    return (
      <Flex gap={2} data-testid={testId} role="list" aria-label={t('roiFlags.label')}>
        {flags.map((flag) => (
          <span
            key={flag}
            role="listitem"
            title={text(flag)}
            aria-label={text(flag)}
            style={{
              background: 'rgba(0,0,0,0.6)',
              color: '#fff',
              borderRadius: 3,
              padding: '0 3px',
              fontSize: 11,
              lineHeight: '16px',
            }}
          >
            {ICONS[flag]}
          </span>
        ))}
      </Flex>
    );
  return (
    <Flex wrap gap={4} data-testid={testId}>
      {flags.map((flag) => (
        <Tag key={flag} color={COLORS[flag]} icon={ICONS[flag]} title={text(flag)} style={{ marginInlineEnd: 0 }}>
          {t(`roiFlags.short.${flag}`)}
        </Tag>
      ))}
    </Flex>
  );
}
