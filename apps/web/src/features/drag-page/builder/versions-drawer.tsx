import { Button, Drawer, List, Popconfirm, Tag, message } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { restorePage, useVersions } from '../api/pages';

/** Every saved version of the page, newest first; an earlier one can be restored (and is published). */
export function VersionsDrawer({
  open,
  code,
  published,
  onClose,
  onRestored,
}: {
  open: boolean;
  code: string;
  published: number | null;
  onClose: () => void;
  onRestored: () => void;
}) {
  const { t } = useTranslation();
  const versions = useVersions(code, open);
  const [busy, setBusy] = useState<number | null>(null);
  return (
    <Drawer open={open} onClose={onClose} title={t('dragPage.versions')} width={Math.min(420, window.innerWidth)}>
      <List
        loading={versions.isPending}
        dataSource={versions.data ?? []}
        renderItem={(v) => (
          <List.Item
            actions={[
              <Popconfirm
                key="restore"
                title={t('dragPage.restoreConfirm', { version: v.version })}
                okText={t('dragPage.restore')}
                onConfirm={async () => {
                  setBusy(v.version);
                  try {
                    const made = await restorePage(code, v.version);
                    void message.success(t('dragPage.restored', { version: v.version, made }));
                    onRestored();
                  } catch (err) {
                    void message.error(err instanceof ApiError ? err.message : t('dragPage.saveFailed'));
                  } finally {
                    setBusy(null);
                  }
                }}
              >
                <Button size="small" loading={busy === v.version} disabled={v.version === published}>
                  {t('dragPage.restore')}
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={
                <>
                  {t('dragPage.version', { version: v.version })} · {v.title}{' '}
                  {v.version === published ? <Tag color="#237804">{t('dragPage.current')}</Tag> : null}
                  {v.restoredFrom ? <Tag>{t('dragPage.restoredFrom', { version: v.restoredFrom })}</Tag> : null}
                </>
              }
              description={`${v.createdAt}${v.createdBy ? ` · ${v.createdBy}` : ''}`}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
