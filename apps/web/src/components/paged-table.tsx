import { Table, type TableProps } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import type { Paging } from '@/hooks/use-paging';
import { PAGE_SIZE_OPTIONS } from '@/lib/paging';
import { LoadFailed } from './load-failed';

/** The parts of a list query the table reads: one page of rows and the total the server counts. */
export interface PageQuery<T> {
  data: { items: readonly T[]; total: number } | undefined;
  error: Error | null;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

type PagedTableProps<T> = Omit<TableProps<T>, 'dataSource' | 'loading' | 'pagination' | 'onRow'> & {
  query: PageQuery<T>;
  paging: Paging;
  pageSizeOptions?: number[];
  /** Test id of each row (`data-testid` on the `<tr>`). */
  rowTestId?: (row: T) => string;
};

/**
 * A list paged by the server: the page of rows, the pager with page sizes and the total, the spinner while a page
 * loads, and Retry when the first answer failed. Rows already shown stay when a later refresh fails.
 */
export function PagedTable<T extends object>({
  query,
  paging,
  pageSizeOptions = PAGE_SIZE_OPTIONS,
  rowTestId,
  ...table
}: PagedTableProps<T>) {
  const { t } = useTranslation();
  if (query.isError && !query.data) return <LoadFailed error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <Table<T>
      {...table}
      dataSource={query.data?.items}
      loading={query.isFetching}
      onRow={rowTestId && ((row) => ({ 'data-testid': rowTestId(row) }) as HTMLAttributes<HTMLElement>)}
      pagination={{
        current: paging.page,
        pageSize: paging.limit,
        total: query.data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions,
        showTotal: (total) => t('common.total', { count: total }),
        onChange: paging.change,
      }}
    />
  );
}
