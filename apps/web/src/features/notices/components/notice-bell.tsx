import { BellOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { startLiveNotices, useLiveNotices } from '../live/unread';

// What opens on a click comes with the first click: the header stays light.
const BellList = lazy(async () => ({ default: (await import('./bell-list')).BellList }));
const NoticeDrawer = lazy(async () => ({ default: (await import('./notice-drawer')).NoticeDrawer }));

/**
 * The header's bell (docs/product/screens.md#header; runtime `noticeEnabled`, permission `messageIndex`): the
 * live unread count, and a popover with the 3 newest unread notices and a link to the message page.
 */
export function NoticeBell() {
  const { t } = useTranslation();
  const unread = useLiveNotices((s) => s.unread);
  const [open, setOpen] = useState(false);
  const [noticeId, setNoticeId] = useState<string | null>(null);
  useEffect(() => startLiveNotices(), []);
  return (
    <>
      <Popover
        trigger="click"
        placement="bottom"
        open={open}
        onOpenChange={setOpen}
        title={t('notices.title')}
        content={
          <Suspense>
            <BellList
              onOpen={(id) => {
                setOpen(false);
                setNoticeId(id);
              }}
              onMore={() => setOpen(false)}
            />
          </Suspense>
        }
      >
        <Button type="text" className="notice-bell" aria-label={t('notices.bell', { count: unread ?? 0 })}>
          <Badge count={unread ?? 0} size="small" overflowCount={99}>
            <BellOutlined />
          </Badge>
        </Button>
      </Popover>
      {noticeId !== null ? (
        <Suspense>
          <NoticeDrawer id={noticeId} onClose={() => setNoticeId(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
