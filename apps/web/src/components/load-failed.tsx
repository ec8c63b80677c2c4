import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** Error state of a screen whose data did not load: what failed, and a way to try again. */
export function LoadFailed({ error, onRetry }: { error: Error | null; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t('common.loadFailed')}
      subTitle={error?.message}
      data-testid="load-failed"
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
