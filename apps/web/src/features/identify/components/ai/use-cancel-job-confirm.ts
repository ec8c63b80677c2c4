import { App, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCancelJob } from '../../api/cancel-job';

/** Cancel a job after a confirmation; what it already did stays done. */
export function useCancelJobConfirm() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const cancel = useCancelJob();
  const ask = (jobId: number) =>
    modal.confirm({
      title: t('identify.jobs.cancel'),
      content: t('identify.jobs.cancelConfirm'),
      okText: t('identify.jobs.cancel'),
      cancelText: t('identify.jobs.keepRunning'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () =>
        cancel.mutateAsync(jobId).then(
          () => void message.success(t('identify.jobs.cancelled')),
          () => undefined,
        ),
    });
  return { ask, pending: cancel.isPending };
}
