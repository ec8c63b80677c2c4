import { Button, Flex } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LazyPage } from '@/lib/lazy-with-retry';
import { ErrorBoundary } from './error-boundary';
import { ErrorResult } from './error-result';
import { PageLoading } from './page-loading';

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <ErrorResult
      title={t('errors.pageLoadFailed')}
      subTitle={t('errors.pageLoadFailedHint')}
      data-testid="page-load-failed"
      extra={
        <Flex gap="small" justify="center">
          <Button type="primary" onClick={onRetry} data-testid="page-retry">
            {t('common.retry')}
          </Button>
          <Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>
        </Flex>
      }
    />
  );
}

/** A code-split page: spinner while its chunk loads, a Retry result if it still fails after the retries. */
export function LazyRoute<P extends object>({
  page,
  props,
  fullscreen = false,
}: {
  page: LazyPage<P>;
  props: P;
  fullscreen?: boolean;
}) {
  const [attempt, setAttempt] = useState(0);
  const { Component } = page;
  const retry = () => {
    page.reset();
    setAttempt((n) => n + 1);
  };
  return (
    <ErrorBoundary key={attempt} fallback={() => <LoadFailed onRetry={retry} />}>
      <Suspense fallback={<PageLoading fullscreen={fullscreen} />}>
        <Component {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
