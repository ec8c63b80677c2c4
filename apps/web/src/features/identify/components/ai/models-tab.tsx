import { ExperimentOutlined } from '@ant-design/icons';
import type { Model } from '@ipp/contracts';
import {
  App,
  Badge,
  Button,
  Card,
  Empty,
  Flex,
  Table,
  Tag,
  Tooltip,
  Typography,
  type ButtonProps,
  type TableColumnsType,
} from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useFormatCount } from '@/hooks/use-format-count';
import { useActivateModel } from '../../api/activate-model';
import { useJob } from '../../api/get-job';
import { useJobs } from '../../api/get-jobs';
import { useModels } from '../../api/get-models';
import { useTrainModel } from '../../api/train-model';
import { isJobActive } from '../../utils/jobs';
import { JobProgress } from './job-progress';
import { ModelReportModal } from './model-report-modal';
import { TimeText } from '@/components/time-text';

const STATUS_COLORS = { training: 'processing', ready: 'success', failed: 'error' } as const;
const percent = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(1)} %`);

/** The team's classifier versions: train a new one (progress followed live), make a ready one the active one. */
export function ModelsTab({ groupId, readOnly }: { groupId?: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const formatCount = useFormatCount();
  const { message, modal } = App.useApp();
  const models = useModels(groupId);
  const train = useTrainModel();
  const activate = useActivateModel();
  // A training started earlier (or elsewhere) and still under way is followed too.
  const lastTraining = useJobs({ group_id: groupId, kind: 'train', limit: 1 });
  const [startedJob, setStartedJob] = useState<number | null>(null);
  const [reportOf, setReportOf] = useState<number | null>(null);
  const running = lastTraining.data?.[0];
  const followedJob = startedJob ?? (running && isJobActive(running) ? running.id : null);
  const followed = useJob(followedJob);
  const trainingNow = followedJob !== null && (!followed.data || isJobActive(followed.data));

  const startTraining = () =>
    modal.confirm({
      title: t('identify.models.train'),
      content: t('identify.models.trainConfirm'),
      okText: t('identify.models.trainStart'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () =>
        train.mutateAsync(groupId).then(
          (result) => {
            setStartedJob(result.job_id);
            void message.success(t('identify.models.trainStarted'));
          },
          () => undefined,
        ),
    });

  const askActivate = (model: Model) =>
    modal.confirm({
      title: t('identify.models.activate'),
      content: t('identify.models.activateConfirm', { version: model.version }),
      okText: t('identify.models.activate'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () =>
        activate.mutateAsync(model.id).then(
          () => void message.success(t('identify.models.activated', { version: model.version })),
          () => undefined,
        ),
    });

  const columns: TableColumnsType<Model> = [
    {
      key: 'version',
      title: t('identify.models.version'),
      render: (_, model) => (
        <Flex vertical gap={2}>
          <Typography.Text strong>v{model.version}</Typography.Text>
          {model.active && <Badge status="success" text={t('identify.models.active')} data-testid="model-active" />}
        </Flex>
      ),
    },
    {
      key: 'status',
      title: t('identify.models.status'),
      render: (_, model) => (
        <Tag color={STATUS_COLORS[model.status]} data-testid="model-status" data-status={model.status}>
          {t(`identify.models.statuses.${model.status}`)}
        </Tag>
      ),
    },
    { key: 'train_size', title: t('identify.models.trainSize'), dataIndex: 'train_size', align: 'right' },
    { key: 'classes', title: t('identify.models.classes'), dataIndex: 'classes', align: 'right' },
    {
      key: 'cv_balanced_accuracy',
      title: <Tooltip title={t('identify.models.cvHint')}>{t('identify.models.balancedAccuracy')}</Tooltip>,
      align: 'right',
      render: (_, model) => percent(model.cv_balanced_accuracy),
    },
    {
      key: 'cv_accuracy',
      title: <Tooltip title={t('identify.models.cvHint')}>{t('identify.models.accuracy')}</Tooltip>,
      align: 'right',
      render: (_, model) => percent(model.cv_accuracy),
    },
    {
      key: 'labels',
      title: <Tooltip title={t('identify.models.labelsHint')}>{t('identify.models.labels')}</Tooltip>,
      align: 'right',
      render: (_, model) => (
        <span data-testid={`model-labels-${model.id}`}>
          {formatCount(model.labels_accepted)} / {formatCount(model.labels_review)}
        </span>
      ),
    },
    {
      key: 'created',
      title: t('common.createdAt'),
      render: (_, model) => (
        <Flex vertical>
          <TimeText at={model.created_at} />
          {model.created_by && <Typography.Text type="secondary">{model.created_by}</Typography.Text>}
        </Flex>
      ),
    },
    {
      key: 'error',
      title: t('identify.models.error'),
      render: (_, model) =>
        model.error ? (
          <Typography.Text type="danger" ellipsis={{ tooltip: model.error }} style={{ maxWidth: 160 }}>
            {model.error}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, model) => (
        <Flex gap="small">
          {model.status === 'ready' && (
            <Button size="small" onClick={() => setReportOf(model.id)} data-testid={`model-report-${model.version}`}>
              {t('identify.models.report.button')}
            </Button>
          )}
          {model.status === 'ready' && !model.active && !readOnly && (
            <Button size="small" onClick={() => askActivate(model)} data-testid={`model-activate-${model.version}`}>
              {t('identify.models.activate')}
            </Button>
          )}
        </Flex>
      ),
    },
  ];

  const items = models.data?.items ?? [];

  return (
    <Flex vertical gap="middle" data-testid="models-tab">
      <Flex justify="space-between" align="center" gap="small" wrap>
        <Typography.Text type="secondary">{t('identify.models.intro')}</Typography.Text>
        {!readOnly && (
          <Button
            type="primary"
            icon={<ExperimentOutlined />}
            loading={train.isPending}
            disabled={trainingNow}
            onClick={startTraining}
            data-testid="model-train"
          >
            {t('identify.models.train')}
          </Button>
        )}
      </Flex>
      {followedJob !== null && (
        <Card size="small" title={t('identify.models.trainingProgress')}>
          <JobProgress jobId={followedJob} testId="model-train-job" />
        </Card>
      )}
      {models.isError && !models.data ? (
        <LoadFailed error={models.error} onRetry={() => void models.refetch()} />
      ) : (
        <Table<Model>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={items}
          loading={models.isPending}
          pagination={false}
          scroll={{ x: 'max-content' }}
          onRow={(model) => ({ 'data-testid': `model-row-${model.version}` }) as HTMLAttributes<HTMLElement>}
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('identify.models.empty')} data-testid="models-empty" />
            ),
          }}
        />
      )}
      {reportOf !== null && <ModelReportModal modelId={reportOf} onClose={() => setReportOf(null)} />}
    </Flex>
  );
}
