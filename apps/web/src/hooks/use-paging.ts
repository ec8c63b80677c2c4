import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '@/lib/paging';

export interface Paging {
  /** 1-based. */
  page: number;
  limit: number;
  /** Back to the first page: a new search or filter. */
  toFirst: () => void;
  /** The table's pager: a new page size starts again from page 1. */
  change: (page: number, limit: number) => void;
  /** After a row was removed: removing the last row of a page shows the page before it, not an empty one. */
  removed: (rowsOnPage: number | undefined) => void;
}

/** Page and page size of a list, and the rules of moving between pages that every list keeps. */
export function usePaging(initialLimit: number = DEFAULT_PAGE_SIZE): Paging {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(initialLimit);
  return {
    page,
    limit,
    toFirst: () => setPage(1),
    change: (nextPage, nextLimit) => {
      setPage(nextLimit === limit ? nextPage : 1);
      setLimit(nextLimit);
    },
    removed: (rowsOnPage) => {
      if (rowsOnPage === 1 && page > 1) setPage(page - 1);
    },
  };
}
