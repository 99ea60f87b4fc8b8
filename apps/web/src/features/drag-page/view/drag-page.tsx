import '../messages';
import { Button, Result, Skeleton, Typography } from 'antd';
import { ApiError } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { usePublishedPage } from '../api/pages';
import { useLocalText } from '../widgets/language';
import { PageGrid } from './page-grid';
import '../drag-page.css';

/** A drag-page view: the published version of the page a menu entry points at (meta.pageId). */
export function DragPage({ code }: { code: string }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const page = usePublishedPage(code);
  if (page.isPending) return <Skeleton active style={{ padding: 24 }} />;
  if (page.isError) {
    const missing = page.error instanceof ApiError && page.error.status === 404;
    return (
      <Result
        status={missing ? '404' : 'warning'}
        title={missing ? page.error.message : t('dragPage.failed')}
        subTitle={missing ? null : page.error.message}
        extra={missing ? null : <Button onClick={() => void page.refetch()}>{t('dragPage.retry')}</Button>}
      />
    );
  }
  const { document } = page.data;
  return (
    <div className="drag-page" data-version={page.data.version}>
      <Typography.Title level={4} className="drag-page-title">
        {text(document.title)}
      </Typography.Title>
      <PageGrid doc={document} />
    </div>
  );
}
