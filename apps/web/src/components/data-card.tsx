import type { UseQueryResult } from '@tanstack/react-query';
import { Card, Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from './load-failed';

interface DataCardProps<T> {
  title: ReactNode;
  query: UseQueryResult<T>;
  /** True when there is nothing to draw: the card then says "No data sampled" (or `emptyText`). */
  isEmpty?: (data: T) => boolean;
  emptyText?: string;
  extra?: ReactNode;
  testId?: string;
  children: (data: T) => ReactNode;
}

/** A card over one query: skeleton while it loads, the error with Retry, the empty text, or the content. */
export function DataCard<T>({ title, query, isEmpty, emptyText, extra, testId, children }: DataCardProps<T>) {
  const { t } = useTranslation();
  let body: ReactNode;
  if (query.isPending) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (query.isError && query.data === undefined)
    body = <LoadFailed error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data === undefined || isEmpty?.(query.data))
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText ?? t('monitor.noData')} />;
  else body = children(query.data);
  return (
    <Card title={title} extra={extra} size="small" style={{ height: '100%' }} data-testid={testId} aria-busy={query.isFetching}>
      {body}
    </Card>
  );
}
