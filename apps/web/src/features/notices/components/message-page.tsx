import type { Notice } from '@portal/contracts';
import { Input, List, Segmented, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useNoticePage, type NoticeFilter } from '../api/notices';
import { useLiveNotices } from '../live/unread';
import { NoticeDrawer } from './notice-drawer';
import './notices.css';

type Read = 'all' | 'unread' | 'read';
type Answered = 'all' | 'answered' | 'open';

/**
 * 我的消息 (the menu's `message/index`): every notice of the user, newest first, filtered by read
 * and answer state and searched by title; a notice opens in the drawer. Follows the live count.
 */
export function MessagePage() {
  const { t } = useTranslation();
  const [read, setRead] = useState<Read>('all');
  const [answered, setAnswered] = useState<Answered>('all');
  const [title, setTitle] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const { page, pagination, toFirst } = usePaging();
  const version = useLiveNotices((s) => s.version);
  const filter: NoticeFilter = {
    ...(read !== 'all' && { readStatus: read === 'read' ? 1 : 0 }),
    ...(answered !== 'all' && { answerStatus: answered === 'answered' ? 1 : 0 }),
    ...(title && { title }),
  };
  const list = useNoticePage(filter, page.current, page.size, version);
  const tags = (n: Notice) => (
    <Space size={4} wrap>
      {n.readStatus === 0 ? <Tag color="processing">{t('notices.unread')}</Tag> : null}
      <Tag color={n.answerStatus ? 'success' : 'default'}>
        {t(n.answerStatus ? (n.replyWay === 0 ? 'notices.confirmed' : 'notices.answered') : 'notices.open')}
      </Tag>
    </Space>
  );
  return (
    <div className="message-page">
      <div className="message-filters">
        <Segmented<Read>
          value={read}
          onChange={(v) => {
            setRead(v);
            toFirst();
          }}
          options={[
            { value: 'all', label: t('notices.all') },
            { value: 'unread', label: t('notices.unread') },
            { value: 'read', label: t('notices.read') },
          ]}
        />
        <Select<Answered>
          value={answered}
          aria-label={t('notices.answerFilter')}
          onChange={(v) => {
            setAnswered(v);
            toFirst();
          }}
          options={[
            { value: 'all', label: t('notices.allAnswers') },
            { value: 'open', label: t('notices.open') },
            { value: 'answered', label: t('notices.answered') },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={t('notices.search')}
          aria-label={t('notices.search')}
          onSearch={(v) => {
            setTitle(v.trim());
            toFirst();
          }}
          className="message-search"
        />
      </div>
      <List<Notice>
        className="message-list"
        loading={list.isFetching}
        dataSource={list.data?.rows}
        locale={{ emptyText: list.error ? list.error.message : t('notices.none') }}
        pagination={list.data?.total ? pagination(list.data.total) : false}
        renderItem={(n) => (
          <List.Item actions={[tags(n)]}>
            <button type="button" className="message-item" onClick={() => setOpen(n.id)}>
              <Typography.Text strong={n.readStatus === 0} className="message-item-title">
                {n.title}
              </Typography.Text>
              <Typography.Text type="secondary">{n.pushTime.slice(0, 11)}</Typography.Text>
            </button>
          </List.Item>
        )}
      />
      {open !== null ? <NoticeDrawer id={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}
