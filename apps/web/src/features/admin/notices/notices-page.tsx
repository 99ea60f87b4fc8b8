/**
 * 通知公告 (menu component `admin/notices`, permission notice:publish): the tenant's notices, newest
 * first, with whom each went to, its validity and how far its recipients have got; publishing one
 * (with a preview as a member sees it); a notice's recipients one by one; withdrawing one, which
 * takes it out of every recipient's list and bell at once and leaves it here marked withdrawn.
 */
import { PlusOutlined } from '@ant-design/icons';
import type { AdminNotice } from '@portal/contracts';
import { Alert, Button, Input, Segmented, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useChange } from '../api/admin';
import { useScope } from '../api/scope';
import { ConsolePage, QueryTable, TAG, Toolbar, useConfirm } from '../components/console';
import { useNotices, withdrawNotice } from './api';
import { NoticeDetail } from './notice-detail';
import { Clipped, minutes, useAudienceText, useTitleOf } from './parts';
import { PublishDrawer } from './publish-drawer';
import './messages';
import './notices.css';

type Filter = 'all' | 'active' | 'withdrawn';

export function NoticesPage() {
  const { t } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [filter, setFilter] = useState<Filter>('all');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const list = useNotices({
    page: page.current,
    limit: page.size,
    q: q || undefined,
    state: filter === 'all' ? undefined : filter,
  });
  const { busy, run } = useChange();
  const { confirm, holder } = useConfirm();
  const audienceText = useAudienceText();
  const titleOf = useTitleOf();
  const otherTenant = useScope((s) => s.tenant);

  const withdraw = (n: AdminNotice) =>
    confirm({
      title: t('consoleNotices.withdrawConfirm', { title: titleOf(n) }),
      content: t('consoleNotices.withdrawHint'),
      okText: t('consoleNotices.withdraw'),
      okButtonProps: { danger: true },
      onOk: () => run(() => withdrawNotice(n.id), t('consoleNotices.withdrawn')),
    });

  if (open) {
    return (
      <ConsolePage className="admin-notices admin-notice-detail">
        <NoticeDetail id={open} onBack={() => setOpen(null)} onWithdraw={withdraw} />
        {holder}
      </ConsolePage>
    );
  }

  const columns: ColumnsType<AdminNotice> = [
    {
      title: t('consoleNotices.title'),
      key: 'title',
      width: 240,
      render: (_, n) => (
        <>
          <Button type="link" className="notice-title-link" onClick={() => setOpen(n.id)} title={titleOf(n)}>
            <span className="notice-cell">{titleOf(n)}</span>
          </Button>
          <div className="admin-secondary">{t(`consoleNotices.replyWays.${n.replyWay}`)}</div>
        </>
      ),
    },
    {
      title: t('consoleNotices.audience'),
      key: 'audience',
      width: 170,
      render: (_, n) => <Clipped text={audienceText(n.audience)} />,
    },
    { title: t('consoleNotices.pushTime'), dataIndex: 'pushTime', width: 150, render: (v: string) => minutes(v) },
    {
      title: t('consoleNotices.validity'),
      dataIndex: 'validityTime',
      width: 150,
      render: (v: string | null) => (v ? minutes(v) : t('consoleNotices.noLimit')),
    },
    {
      title: t('consoleNotices.progressTitle'),
      key: 'progress',
      width: 150,
      render: (_, n) => (
        <>
          <div>{t('consoleNotices.readOf', { count: n.read, all: n.recipients })}</div>
          <div>
            {t(n.replyWay === 0 ? 'consoleNotices.confirmedOf' : 'consoleNotices.repliedOf', {
              count: n.replyWay === 0 ? n.confirmed : n.replied,
              all: n.recipients,
            })}
          </div>
        </>
      ),
    },
    {
      title: t('consoleNotices.state'),
      key: 'state',
      width: 110,
      render: (_, n) =>
        n.withdrawnAt ? (
          <Tag
            color={TAG.bad}
            title={t('consoleNotices.withdrawnAt', { time: minutes(n.withdrawnAt), name: n.withdrawnBy ?? '-' })}
          >
            {t('consoleNotices.withdrawnTag')}
          </Tag>
        ) : (
          <Tag color={TAG.good}>{t('consoleNotices.standing')}</Tag>
        ),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      width: 130,
      render: (_, n) => (
        <>
          <Button type="link" size="small" onClick={() => setOpen(n.id)}>
            {t('consoleNotices.details')}
          </Button>
          {n.withdrawnAt ? null : (
            <Button type="link" size="small" danger disabled={busy} onClick={() => withdraw(n)}>
              {t('consoleNotices.withdraw')}
            </Button>
          )}
        </>
      ),
    },
  ];

  return (
    <ConsolePage className="admin-notices">
      {otherTenant ? <Alert type="info" showIcon message={t('consoleNotices.ownTenant')} /> : null}
      <Toolbar
        filters={
          <>
            <Segmented<Filter>
              aria-label={t('consoleNotices.filter')}
              value={filter}
              options={(['all', 'active', 'withdrawn'] as const).map((s) => ({
                value: s,
                label: t(`consoleNotices.states.${s}`),
              }))}
              onChange={(v) => {
                setFilter(v);
                toFirst();
              }}
            />
            <Input.Search
              allowClear
              aria-label={t('consoleNotices.search')}
              placeholder={t('consoleNotices.search')}
              onSearch={(v) => {
                setQ(v.trim());
                toFirst();
              }}
            />
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setPublishing(true)}>
            {t('consoleNotices.publish')}
          </Button>
        }
      />
      <QueryTable<AdminNotice>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
        tableLayout="fixed"
        scroll={{ x: 1100 }}
        rowClassName={(n) => (n.withdrawnAt ? 'notice-withdrawn' : '')}
      />
      <PublishDrawer
        open={publishing}
        onClose={() => setPublishing(false)}
        onPublished={() => {
          setPublishing(false);
          toFirst();
        }}
      />
      {holder}
    </ConsolePage>
  );
}
