import { StopOutlined } from '@ant-design/icons';
import type { Job } from '@ipp/contracts';
import { Alert, Button, Flex, Progress, Skeleton, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useJob } from '../../api/get-job';
import { useRefreshAfterJob } from '../../hooks/use-refresh-after-job';
import { isJobActive, jobPercent } from '../../utils/jobs';
import { JobStatusTag } from './job-status-tag';
import { useCancelJobConfirm } from './use-cancel-job-confirm';

const PROGRESS_STATUS = {
  queued: 'normal',
  running: 'active',
  done: 'success',
  cancelled: 'normal',
  failed: 'exception',
} as const;

/** A job followed live (polled every second while under way): progress, status, Cancel; what it changed, once done. */
export function JobProgress({ jobId, testId = 'job-progress' }: { jobId: number; testId?: string }) {
  const { t } = useTranslation();
  const query = useJob(jobId);
  const job = query.data;
  const refresh = useRefreshAfterJob();
  const cancel = useCancelJobConfirm();

  // Once per job, whether it finished while watched or was already finished at the first answer.
  const refreshedFor = useRef<number | null>(null);
  useEffect(() => {
    if (!job || isJobActive(job) || refreshedFor.current === job.id) return;
    refreshedFor.current = job.id;
    void refresh(job);
  }, [job, refresh]);

  const retry = query.isError && (
    <Alert
      type="error"
      title={query.error.message}
      action={
        <Button size="small" onClick={() => void query.refetch()}>
          {t('common.retry')}
        </Button>
      }
      data-testid={`${testId}-failed`}
    />
  );
  if (!job) return retry || <Skeleton active title={false} paragraph={{ rows: 2 }} data-testid={testId} />;
  const active = isJobActive(job);

  return (
    <Flex vertical gap="small" data-testid={testId} data-job={job.id} data-status={job.status}>
      <Flex align="center" justify="space-between" gap="small">
        <Flex align="center" gap="small">
          <JobStatusTag status={job.status} />
          <Typography.Text data-testid={`${testId}-count`}>
            {t('identify.jobs.count', { done: job.done, total: job.total })}
          </Typography.Text>
        </Flex>
        {active && (
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            loading={cancel.pending}
            onClick={() => cancel.ask(job.id)}
            data-testid={`${testId}-cancel`}
          >
            {t('identify.jobs.cancel')}
          </Button>
        )}
      </Flex>
      <Progress
        percent={jobPercent(job)}
        status={PROGRESS_STATUS[job.status]}
        aria-label={t('identify.jobs.progress')}
        data-testid={`${testId}-bar`}
      />
      <JobOutcome job={job} testId={testId} />
      {retry}
    </Flex>
  );
}

function JobOutcome({ job, testId }: { job: Job; testId: string }) {
  const { t } = useTranslation();
  const changed = job.kind === 'reidentify' ? t('identify.jobs.changed', { count: job.changed }) : t('identify.jobs.trained');
  if (job.status === 'done') return <Alert type="success" showIcon title={changed} data-testid={`${testId}-outcome`} />;
  if (job.status === 'failed') {
    return (
      <Alert type="error" showIcon title={job.error ?? t('identify.jobs.status.failed')} data-testid={`${testId}-outcome`} />
    );
  }
  if (job.status === 'cancelled') {
    const text =
      job.kind === 'reidentify' ? `${t('identify.jobs.status.cancelled')} · ${changed}` : t('identify.jobs.status.cancelled');
    return <Alert type="warning" showIcon title={text} data-testid={`${testId}-outcome`} />;
  }
  return null;
}
