import { StopOutlined } from '@ant-design/icons';
import type { Job } from '@ipp/contracts';
import { Button, Flex, Progress, Table, Typography, type TableColumnsType } from 'antd';
import { useEffect, useRef, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '@/components/load-failed';
import { useJobs } from '../../api/get-jobs';
import { useRefreshAfterJob } from '../../hooks/use-refresh-after-job';
import { isJobActive, jobPercent } from '../../utils/jobs';
import { JobStatusTag } from './job-status-tag';
import { useCancelJobConfirm } from './use-cancel-job-confirm';
import { TimeText } from '@/components/time-text';

export const JOBS_LIMIT = 50;

/** The team's recent recognition jobs, refreshed while any is under way; queued and running ones can be cancelled. */
export function JobsTab({ groupId, readOnly }: { groupId?: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const jobs = useJobs({ group_id: groupId, limit: JOBS_LIMIT });
  const cancel = useCancelJobConfirm();
  const refresh = useRefreshAfterJob();

  // A job seen under way that has now finished has changed labels or models: refresh what shows them.
  const wasActive = useRef(new Set<number>());
  useEffect(() => {
    for (const job of jobs.data ?? []) {
      if (isJobActive(job)) wasActive.current.add(job.id);
      else if (wasActive.current.delete(job.id)) void refresh(job);
    }
  }, [jobs.data, refresh]);

  const columns: TableColumnsType<Job> = [
    { key: 'kind', title: t('identify.jobs.kind'), render: (_, job) => t(`identify.jobs.kinds.${job.kind}`) },
    { key: 'station', title: t('monitor.station'), render: (_, job) => job.dev_id ?? '—' },
    {
      key: 'class',
      title: t('identify.reidentify.class'),
      render: (_, job) => job.class_name ?? (job.kind === 'reidentify' ? t('identify.reidentify.classAll') : '—'),
    },
    {
      key: 'range',
      title: t('identify.reidentify.range'),
      render: (_, job) =>
        job.start_at === null && job.end_at === null ? (
          '—'
        ) : (
          <Flex vertical style={{ fontSize: 12 }}>
            <TimeText at={job.start_at} />
            <TimeText at={job.end_at} />
          </Flex>
        ),
    },
    { key: 'status', title: t('identify.jobs.statusLabel'), render: (_, job) => <JobStatusTag status={job.status} /> },
    {
      key: 'progress',
      title: t('identify.jobs.progress'),
      render: (_, job) => (
        <Flex vertical style={{ minWidth: 140 }}>
          <Progress
            percent={jobPercent(job)}
            size="small"
            status={job.status === 'failed' ? 'exception' : job.status === 'running' ? 'active' : undefined}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('identify.jobs.count', { done: job.done, total: job.total })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'changed',
      title: t('identify.jobs.changedLabel'),
      align: 'right',
      render: (_, job) => (job.kind === 'reidentify' ? job.changed : '—'),
    },
    { key: 'created', title: t('common.createdAt'), render: (_, job) => <TimeText at={job.created_at} /> },
    { key: 'user', title: t('identify.jobs.user'), render: (_, job) => job.user_name ?? '—' },
    {
      key: 'actions',
      title: t('common.actions'),
      render: (_, job) =>
        isJobActive(job) && !readOnly ? (
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            onClick={() => cancel.ask(job.id)}
            data-testid={`job-cancel-${job.id}`}
          >
            {t('identify.jobs.cancel')}
          </Button>
        ) : job.error ? (
          <Typography.Text type="danger" ellipsis={{ tooltip: job.error }} style={{ maxWidth: 160 }}>
            {job.error}
          </Typography.Text>
        ) : null,
    },
  ];

  if (jobs.isError && !jobs.data) return <LoadFailed error={jobs.error} onRetry={() => void jobs.refetch()} />;
  return (
    <Table<Job>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={jobs.data}
      loading={jobs.isPending}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('identify.jobs.empty') }}
      onRow={(job) => ({ 'data-testid': `job-row-${job.id}`, 'data-status': job.status }) as HTMLAttributes<HTMLElement>}
      data-testid="jobs-tab"
    />
  );
}
