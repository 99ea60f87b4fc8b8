import { Breadcrumb, Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { storage } from '../../../lib/storage';
import { findByPath, resolveUrl } from '../menu';

/**
 * The page of a menu entry: its title and trail, and the embedded page when the entry points at a
 * URL. Business pages of each entry arrive with their own features; until then the frame says so.
 */
export function MenuPage({ path, notFound }: { path: string; notFound: React.ReactNode }) {
  const { t } = useTranslation();
  const { menu } = useSession();
  const found = findByPath(menu?.menu ?? [], path);
  if (!found) return <>{notFound}</>;
  const { item, trail } = found;
  const url =
    item.meta.url && !item.meta.internalOrExternal ? resolveUrl(item.meta.url, storage.get('workbenchCode')) : null;
  return (
    <Card variant="borderless">
      <Breadcrumb items={trail.map((m) => ({ title: m.meta.title }))} />
      <Typography.Title level={4} style={{ marginTop: 12 }}>
        {item.meta.title}
      </Typography.Title>
      {url ? (
        <iframe
          title={item.meta.title}
          src={url}
          className="menu-page-frame"
          style={{ width: '100%', minHeight: '70vh', border: 0 }}
        />
      ) : (
        <Empty description={t('shell.pageEmpty')} />
      )}
    </Card>
  );
}
