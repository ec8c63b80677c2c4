import type { CorrectedCounts } from '@ipp/contracts';
import { Card, Skeleton, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useFormatCount } from '@/hooks/use-format-count';
import { formatSignificant } from '@/lib/format';
import { useCorrectedCounts } from '../api/get-corrected-counts';

type Item = CorrectedCounts['items'][number];

const fixed = (v: number | null, digits = 1) => (v === null ? '—' : v.toFixed(digits));
/** Per litre: three significant figures (real concentrations are 0.001-0.1 ind/L). */
const perLitre = (v: number | null) => (v === null ? '—' : formatSignificant(v));

/**
 * Corrected abundance (docs/recognition.md): per class, the count as labelled and the count corrected for the team
 * models' cross-validated confusions, with its 95% interval, and both per litre.
 */
export function CorrectedCountsCard({ devId, start, end }: { devId: string; start: number; end: number }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const counts = useCorrectedCounts(devId, start, end);
  const name = (item: Item) => item.class_name ?? t('detail.corrected.unidentified');
  const columns: TableColumnsType<Item> = [
    { key: 'class', title: t('detail.corrected.class'), render: (_, item) => name(item), ellipsis: true },
    {
      key: 'raw',
      title: t('detail.corrected.raw'),
      align: 'right',
      width: 110,
      render: (_, item) => (
        <Tooltip
          title={t('detail.corrected.breakdown', {
            human: formatCount(item.human),
            model: formatCount(item.model_raw),
            other: formatCount(item.other),
          })}
        >
          <span data-testid={`corrected-raw-${item.class_id ?? 0}`}>{formatCount(item.raw)}</span>
        </Tooltip>
      ),
    },
    {
      key: 'model',
      title: <Tooltip title={t('detail.corrected.modelHint')}>{t('detail.corrected.model')}</Tooltip>,
      align: 'right',
      width: 110,
      render: (_, item) => formatCount(item.model_raw),
    },
    {
      key: 'corrected',
      title: t('detail.corrected.corrected'),
      align: 'right',
      width: 190,
      render: (_, item) => (
        <span data-testid={`corrected-value-${item.class_id ?? 0}`}>
          {fixed(item.corrected)}{' '}
          <Typography.Text type="secondary">
            ({fixed(item.low)}–{fixed(item.high)})
          </Typography.Text>
        </span>
      ),
    },
    {
      key: 'conc-raw',
      title: t('detail.corrected.concentrationRaw'),
      align: 'right',
      width: 130,
      render: (_, item) => perLitre(item.concentration_raw),
    },
    {
      key: 'conc-corrected',
      title: t('detail.corrected.concentrationCorrected'),
      align: 'right',
      width: 200,
      render: (_, item) =>
        item.concentration_corrected === null ? (
          '—'
        ) : (
          <span data-testid={`corrected-concentration-${item.class_id ?? 0}`}>
            {perLitre(item.concentration_corrected)}{' '}
            <Typography.Text type="secondary">
              ({perLitre(item.concentration_low)}–{perLitre(item.concentration_high)})
            </Typography.Text>
          </span>
        ),
    },
  ];
  let content;
  if (counts.isPending) content = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (counts.isError && !counts.data) content = <LoadFailed error={counts.error} onRetry={() => void counts.refetch()} />;
  else
    content = (
      <>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('detail.corrected.explain')}
          {counts.data.uncorrectable > 0 && ` ${t('detail.corrected.uncorrectable', { count: counts.data.uncorrectable })}`}
        </Typography.Paragraph>
        <Table<Item>
          rowKey={(item) => item.class_id ?? 0}
          size="small"
          columns={columns}
          dataSource={counts.data.items}
          pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
          data-testid="corrected-counts"
        />
      </>
    );
  return (
    <Card size="small" title={t('detail.corrected.title')} data-testid="corrected-counts-card">
      {content}
    </Card>
  );
}
