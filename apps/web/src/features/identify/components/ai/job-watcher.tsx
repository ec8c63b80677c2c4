import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useJob } from '../../api/get-job';
import { useRefreshAfterJob } from '../../hooks/use-refresh-after-job';
import { isJobActive } from '../../utils/jobs';

/**
 * Follows a submitted re-identification after its dialog is closed (it shares the dialog's polling while both are
 * there): when the job ends, the page's lists, trees and counts are refreshed and a notification says how it ended.
 * Renders nothing.
 */
export function JobWatcher({ jobId, onEnded }: { jobId: number; onEnded: (jobId: number) => void }) {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const job = useJob(jobId).data;
  const refresh = useRefreshAfterJob();
  const ended = useRef(false);

  useEffect(() => {
    if (!job || isJobActive(job) || ended.current) return;
    ended.current = true;
    void refresh(job);
    const key = `job-${job.id}`;
    const props = { 'data-testid': 'job-ended-notice', 'data-status': job.status } as Record<string, string>;
    if (job.status === 'done') {
      notification.success({ key, props, title: t('identify.reidentify.finished', { count: job.changed }) });
    } else if (job.status === 'failed') {
      notification.error({ key, props, title: t('identify.reidentify.failedJob', { error: job.error ?? '' }) });
    } else {
      notification.info({ key, props, title: t('identify.reidentify.cancelledJob', { count: job.changed }) });
    }
    onEnded(job.id);
  }, [job, refresh, notification, onEnded, t]);

  return null;
}
