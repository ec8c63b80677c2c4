import type { JobStatus } from '@ipp/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<JobStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  cancelled: 'warning',
  failed: 'error',
};

export function JobStatusTag({ status }: { status: JobStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[status]} style={{ marginInlineEnd: 0 }} data-testid="job-status" data-status={status}>
      {t(`identify.jobs.status.${status}`)}
    </Tag>
  );
}
