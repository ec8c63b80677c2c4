import { Button, Flex, Progress, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRoiInsight } from '../../api/get-roi-insight';
import { MeasuresList } from './measures-list';
import { formatConfidence } from '@/lib/format';

const percent = formatConfidence;

/** The detail pane's AI section: the label the model gave, its top three classes, and the measured morphology. */
export function AiInsight({ roiId, byDevice = false }: { roiId: number; byDevice?: boolean }) {
  const { t } = useTranslation();
  const insight = useRoiInsight(roiId);

  if (insight.isPending) return <Skeleton active title={false} paragraph={{ rows: 3 }} data-testid="ai-loading" />;
  if (insight.isError) {
    return (
      <Flex align="center" gap="small" data-testid="ai-failed">
        <Typography.Text type="secondary">{t('identify.ai.loadFailed')}</Typography.Text>
        <Button size="small" type="link" onClick={() => void insight.refetch()}>
          {t('common.retry')}
        </Button>
      </Flex>
    );
  }
  const { ai, measures, pixel_size_um: pixelSizeUm } = insight.data;
  const aiClass = ai ? (ai.top.find((each) => each.class_id === ai.class_id)?.class_name ?? `#${ai.class_id}`) : null;

  return (
    <Flex vertical gap={4} data-testid="ai-section" data-roi={roiId}>
      {ai ? (
        <Flex vertical gap={4} data-testid="ai-label">
          <Flex align="center" wrap gap="small">
            <Typography.Text strong data-testid="ai-class">
              {aiClass}
            </Typography.Text>
            <Typography.Text data-testid="ai-confidence">{percent(ai.confidence)}</Typography.Text>
            {ai.low_confidence && (
              <Tooltip title={t('identify.ai.lowConfidenceHint')}>
                <Tag color="warning" style={{ marginInlineEnd: 0 }} data-testid="ai-low-confidence">
                  {t('identify.ai.lowConfidence')}
                </Tag>
              </Tooltip>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="ai-model">
              {t('identify.ai.model', { version: ai.model_version })}
            </Typography.Text>
          </Flex>
          <ul aria-label={t('identify.ai.top')} style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="ai-top">
            {ai.top.map((score) => (
              <li key={score.class_id} data-testid={`ai-top-${score.class_id}`}>
                <Flex align="center" gap="small">
                  <Typography.Text ellipsis style={{ width: '45%', fontSize: 12 }} title={score.class_name}>
                    {score.class_name}
                  </Typography.Text>
                  <Progress
                    percent={Math.round(score.p * 100)}
                    size="small"
                    showInfo={false}
                    style={{ flex: 1, margin: 0 }}
                    aria-label={`${score.class_name} ${percent(score.p)}`}
                  />
                  <Typography.Text style={{ fontSize: 12, width: 52, textAlign: 'right' }}>{percent(score.p)}</Typography.Text>
                </Flex>
              </li>
            ))}
          </ul>
        </Flex>
      ) : (
        <Typography.Text type="secondary" data-testid="ai-none">
          {/* An AI-typed image without a model label was labelled by its instrument: say so, not "no AI label". */}
          {t(byDevice ? 'identify.ai.noneDevice' : 'identify.ai.none')}
        </Typography.Text>
      )}
      {measures ? (
        <MeasuresList measures={measures} pixelSizeUm={pixelSizeUm ?? null} />
      ) : (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="ai-no-measures">
          {t('identify.ai.noMeasures')}
        </Typography.Text>
      )}
    </Flex>
  );
}
