import type { ModelReport } from '@ipp/contracts';
import { Descriptions, Flex, Modal, Progress, Skeleton, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useModelReport } from '../../api/get-model-report';

type ClassRow = ModelReport['classes'][number];
type ConfusionRow = ModelReport['confusions'][number];
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/**
 * A model version's evaluation, as measured by the cross-validation run when it was trained: balanced accuracy first
 * (the mean of the classes' recalls), top-1 and calibration error beside it, the backbone's held-out card, each
 * class's recall and precision (weakest first, so what needs more examples is on top) and the frequent confusions.
 */
export function ModelReportModal({ modelId, onClose }: { modelId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const report = useModelReport(modelId);
  const data = report.data;

  const classColumns: TableColumnsType<ClassRow> = [
    { key: 'class', title: t('identify.models.report.class'), dataIndex: 'class_name', ellipsis: true },
    {
      key: 'support',
      title: t('identify.models.report.support'),
      dataIndex: 'support',
      align: 'right',
      sorter: (a, b) => a.support - b.support,
    },
    {
      key: 'recall',
      title: t('identify.models.report.recall'),
      align: 'right',
      width: 150,
      defaultSortOrder: 'ascend',
      sorter: (a, b) => a.recall - b.recall,
      render: (_, row) => (
        <Flex align="center" gap="small" justify="flex-end">
          <Progress percent={Math.round(row.recall * 100)} size="small" showInfo={false} style={{ width: 60, margin: 0 }} />
          <span>{pct(row.recall)}</span>
        </Flex>
      ),
    },
    {
      key: 'precision',
      title: t('identify.models.report.precision'),
      align: 'right',
      sorter: (a, b) => a.precision - b.precision,
      render: (_, row) => pct(row.precision),
    },
  ];
  const confusionColumns: TableColumnsType<ConfusionRow> = [
    { key: 'true', title: t('identify.models.report.trueClass'), dataIndex: 'true_class_name', ellipsis: true },
    { key: 'predicted', title: t('identify.models.report.predictedAs'), dataIndex: 'predicted_class_name', ellipsis: true },
    { key: 'count', title: t('identify.models.report.count'), dataIndex: 'count', align: 'right' },
  ];

  return (
    <Modal
      open
      width={760}
      title={data ? t('identify.models.report.title', { version: data.version }) : t('identify.models.report.button')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {report.isError ? (
        <LoadFailed error={report.error} onRetry={() => void report.refetch()} />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <Flex vertical gap="middle" data-testid="model-report" data-accuracy={data.accuracy}>
          <Typography.Text type="secondary">
            {t('identify.models.report.intro', { folds: data.folds, n: data.n })}
          </Typography.Text>
          <Descriptions size="small" column={3} bordered data-testid="model-report-figures">
            <Descriptions.Item label={t('identify.models.balancedAccuracy')}>
              <Typography.Text strong data-testid="model-report-balanced">
                {pct(data.balanced_accuracy)}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('identify.models.accuracy')}>{pct(data.accuracy)}</Descriptions.Item>
            <Descriptions.Item label={<span title={t('identify.models.report.eceHint')}>{t('identify.models.report.ece')}</span>}>
              {data.ece === null ? '—' : pct(data.ece)}
            </Descriptions.Item>
          </Descriptions>
          {data.backbone && (
            <Typography.Paragraph type="secondary" style={{ margin: 0 }} data-testid="model-report-backbone">
              {t(
                data.backbone.held_out_images > 0 ? 'identify.models.report.backbone' : 'identify.models.report.backboneNatural',
                {
                  version: data.backbone.version,
                  balanced: data.backbone.balanced_accuracy === null ? '—' : pct(data.backbone.balanced_accuracy),
                  top1: data.backbone.top1 === null ? '—' : pct(data.backbone.top1),
                  images: data.backbone.held_out_images,
                  naturalTop1: data.backbone.natural_top1 === null ? '—' : pct(data.backbone.natural_top1),
                  naturalImages: data.backbone.natural_images,
                },
              )}
            </Typography.Paragraph>
          )}
          <Table<ClassRow>
            rowKey="class_id"
            size="small"
            columns={classColumns}
            dataSource={data.classes}
            pagination={data.classes.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
            data-testid="model-report-classes"
          />
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('identify.models.report.confusions')}
          </Typography.Title>
          <Table<ConfusionRow>
            rowKey={(row) => `${row.true_class_id}-${row.predicted_class_id}`}
            size="small"
            columns={confusionColumns}
            dataSource={data.confusions}
            pagination={false}
            locale={{ emptyText: t('identify.models.report.noConfusions') }}
            data-testid="model-report-confusions"
          />
        </Flex>
      )}
    </Modal>
  );
}
