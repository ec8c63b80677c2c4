import { Button, Flex, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '@/lib/redirect';

interface ErrorPageProps {
  status: '403' | '404';
  titleKey: string;
  messageKey: string;
}

/** React Router keeps the history index in history.state; 0 means there is no page to go back to. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

export function ErrorPage({ status, titleKey, messageKey }: ErrorPageProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  useEffect(() => {
    document.title = `${t(titleKey)} · ${t('app.name')}`;
  }, [t, titleKey]);

  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
      <Result
        status={status}
        title={status}
        subTitle={t(messageKey)}
        extra={
          <Flex gap="small" justify="center" wrap>
            <Button type="primary" data-testid="back-home" onClick={() => void navigate(HOME_PATH)}>
              {t('common.backHome')}
            </Button>
            <Button data-testid="back" onClick={() => void (canGoBack() ? navigate(-1) : navigate(HOME_PATH))}>
              {t('common.back')}
            </Button>
          </Flex>
        }
      />
    </Flex>
  );
}
