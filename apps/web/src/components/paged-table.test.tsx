import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider, createQueryClient } from '@/app/provider';
import type { Paging } from '@/hooks/use-paging';
import { setLanguage } from '@/i18n';
import { PagedTable, type PageQuery } from './paged-table';

interface Row {
  id: number;
  name: string;
}

const COLUMNS = [{ title: 'Name', dataIndex: 'name' }];

function query(overrides: Partial<PageQuery<Row>> = {}): PageQuery<Row> {
  return {
    data: { items: [{ id: 1, name: 'North' }], total: 41 },
    error: null,
    isError: false,
    isFetching: false,
    refetch: vi.fn(),
    ...overrides,
  };
}

function paging(overrides: Partial<Paging> = {}): Paging {
  return { page: 1, limit: 20, toFirst: vi.fn(), change: vi.fn(), removed: vi.fn(), ...overrides };
}

function show(q: PageQuery<Row>, p: Paging = paging(), locale?: { emptyText: string }) {
  return render(
    <AppProvider client={createQueryClient()}>
      <PagedTable<Row>
        query={q}
        paging={p}
        rowKey="id"
        columns={COLUMNS}
        locale={locale}
        rowTestId={(row) => `row-${row.name}`}
        data-testid="table"
      />
    </AppProvider>,
  );
}

beforeEach(async () => {
  await setLanguage('en');
});

describe('PagedTable', () => {
  it("shows the page's rows with their test ids and the server's total", () => {
    show(query());
    expect(screen.getByTestId('row-North').getAttribute('data-row-key')).toBe('1');
    expect(screen.getByText('41 in total')).toBeTruthy();
    // 41 rows at 20 a page: three pages.
    expect(screen.getByTitle('3')).toBeTruthy();
    expect(screen.queryByTitle('4')).toBeNull();
  });

  it('calls back with the page picked and with a new page size', async () => {
    const p = paging();
    show(query(), p);
    const user = userEvent.setup();
    await user.click(screen.getByTitle('3'));
    expect(p.change).toHaveBeenLastCalledWith(3, 20);

    await user.click(screen.getByRole('combobox'));
    await user.click(await screen.findByTitle('50 / page'));
    await waitFor(() => expect(p.change).toHaveBeenLastCalledWith(1, 50));
  });

  it('shows the empty text when the page has no rows', () => {
    const { unmount } = show(query({ data: { items: [], total: 0 } }));
    expect(screen.getByTestId('table').querySelector('.ant-empty-description')?.textContent).toBe('No data');
    unmount();
    show(query({ data: { items: [], total: 0 } }), paging(), { emptyText: 'No teams yet' });
    expect(screen.getByText('No teams yet')).toBeTruthy();
  });

  it('shows a spinner while a page loads, over the rows it had', () => {
    show(query({ isFetching: true }));
    expect(document.querySelector('.ant-spin-spinning')).not.toBeNull();
    expect(screen.getByTestId('row-North')).toBeTruthy();
  });

  it('offers Retry when the first page failed, and keeps the rows when a later refresh failed', async () => {
    const failed = query({ data: undefined, isError: true, error: new Error('Server unreachable') });
    const { unmount } = show(failed);
    expect(screen.getByTestId('load-failed').textContent).toContain('Server unreachable');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(failed.refetch).toHaveBeenCalledTimes(1);
    unmount();

    show(query({ isError: true, error: new Error('Server unreachable') }));
    expect(screen.getByTestId('row-North')).toBeTruthy();
    expect(screen.queryByTestId('load-failed')).toBeNull();
  });
});
