import type { PaginationProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from './i18n';

/**
 * A paged table's page (docs/product/limits.md#lists: 10 a page unless said otherwise) and antd's pagination for it:
 * the total in the reader's language, and a new page size starting again at the first page.
 */
export function usePaging(size = 10) {
  const { t } = useTranslation();
  const [page, setPage] = useState({ current: 1, size });
  const pagination = (total: number, more: PaginationProps = {}): PaginationProps => ({
    current: page.current,
    pageSize: page.size,
    total,
    showTotal: (n) => t('switching.total', { total: n }),
    onChange: (current, pageSize) => setPage({ current: pageSize === page.size ? current : 1, size: pageSize }),
    ...more,
  });
  /** Back to the first page (after a change that puts the newest row there). */
  const toFirst = () => setPage((p) => ({ ...p, current: 1 }));
  return { page, pagination, toFirst };
}
