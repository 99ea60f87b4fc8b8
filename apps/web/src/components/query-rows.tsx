import { Empty, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';

/**
 * A widget's list from one query, in place: a skeleton while it loads, `failed` when it could not,
 * `empty` when there is nothing, else `children` of the rows (the drag pages' and the workbench's
 * data widgets).
 */
export function QueryRows<T>({
  query,
  empty,
  failed,
  loadingRows = 3,
  children,
}: {
  query: { isPending: boolean; isError: boolean; data?: { rows: T[] } };
  empty: string;
  failed: string;
  loadingRows?: number;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending) return <Skeleton active paragraph={{ rows: loadingRows }} />;
  if (query.isError || !query.data) return <Typography.Text type="danger">{failed}</Typography.Text>;
  if (query.data.rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  return <>{children(query.data.rows)}</>;
}
