import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorResult } from '@/components/error-result';

/** Last-resort screen for an error no page handled. */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <ErrorResult
        title={t('errors.unexpected')}
        subTitle={t('errors.unexpectedHint')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('common.reload')}
          </Button>
        }
      />
    </Flex>
  );
}
