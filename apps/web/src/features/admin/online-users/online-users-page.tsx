/**
 * 在线用户 (menu component `admin/online-users`): who is signed in now in the tenant the console acts
 * on — each live sign-in (a sign-on session with the systems it signed into, or a portal sign-in),
 * with device, address, when it began and was last active — filtered by user and address. An
 * operator ends one sign-in (强制下线) or all of a user's (全部下线); both are audited.
 */
import type { OnlineUsersQuery, SignIn, SignInsEnded } from '@portal/contracts';
import { Button, Form, Input, Popconfirm, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { idPath, post, useChange, usePaged } from '../api/admin';
import { ConsolePage, QueryTable, TAG } from '../components/console';

interface Filter {
  user?: string;
  ip?: string;
}

const device = (s: SignIn) => [s.device.browser, s.device.os].filter(Boolean).join(' · ');

/** A time on two lines, the date over the time of day, so that two time columns fit beside the others. */
function When({ at }: { at: string }) {
  const [date, time] = at.split(' ');
  return (
    <span className="admin-nowrap">
      {date}
      {time ? <br /> : null}
      {time}
    </span>
  );
}

export function OnlineUsersPage() {
  const { t, i18n } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [filter, setFilter] = useState<Filter>({});
  const [form] = Form.useForm<Filter>();
  const query: OnlineUsersQuery = { page: page.current, limit: page.size, ...filter };
  const list = usePaged<SignIn>('/api/admin/online-users', query);
  const { busy, run } = useChange();

  const end = (s: SignIn) =>
    void run(() => post(idPath('/api/admin/sign-ins', s.id, 'end')), t('admin.onlineUsers.ended'));
  const endAll = async (s: SignIn) => {
    const r = await run(() => post<SignInsEnded>(idPath('/api/admin/online-users', s.user.id, 'end')));
    if (r) toFirst();
  };

  const columns: ColumnsType<SignIn> = [
    {
      title: t('admin.onlineUsers.user'),
      key: 'user',
      render: (_, s) => (
        <span className="admin-nowrap">
          {s.user.name}
          <div className="admin-secondary">{s.user.username}</div>
        </span>
      ),
    },
    {
      title: t('admin.onlineUsers.device'),
      key: 'device',
      render: (_, s) => (
        <span className="admin-nowrap">
          {device(s) || t('admin.onlineUsers.unknownDevice')}
          {s.current ? (
            <>
              {' '}
              <Tag color={TAG.good}>{t('admin.onlineUsers.yours')}</Tag>
            </>
          ) : null}
        </span>
      ),
    },
    {
      title: t('admin.onlineUsers.ip'),
      dataIndex: 'ip',
      render: (v: string) => <span className="admin-nowrap">{v || '-'}</span>,
    },
    {
      title: t('admin.onlineUsers.kind'),
      dataIndex: 'kind',
      render: (v: SignIn['kind']) => (v === 'sso' ? t('admin.onlineUsers.signOn') : t('admin.onlineUsers.portal')),
    },
    {
      title: t('admin.onlineUsers.startedAt'),
      dataIndex: 'startedAt',
      render: (v: string) => <When at={v} />,
    },
    {
      title: t('admin.onlineUsers.lastSeenAt'),
      dataIndex: 'lastSeenAt',
      render: (v: string) => <When at={v} />,
    },
    {
      title: t('admin.onlineUsers.systems'),
      dataIndex: 'systems',
      render: (v: string[]) => (v.length > 0 ? v.join(i18n.language.startsWith('en') ? ', ' : '、') : '-'),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, s) => (
        <span className="admin-nowrap">
          <Popconfirm
            title={t('admin.onlineUsers.endConfirm', { name: s.user.name })}
            okButtonProps={{ danger: true }}
            onConfirm={() => end(s)}
          >
            <Button type="link" size="small" danger disabled={busy}>
              {t('admin.onlineUsers.end')}
            </Button>
          </Popconfirm>
          <Popconfirm
            title={t('admin.onlineUsers.endAllConfirm', { name: s.user.name })}
            okButtonProps={{ danger: true }}
            onConfirm={() => void endAll(s)}
          >
            <Button type="link" size="small" danger disabled={busy}>
              {t('admin.onlineUsers.endAll')}
            </Button>
          </Popconfirm>
        </span>
      ),
    },
  ];

  const apply = (v: Filter) => {
    setFilter({ user: v.user?.trim() || undefined, ip: v.ip?.trim() || undefined });
    toFirst();
  };

  return (
    <ConsolePage className="admin-online-users">
      <Form<Filter> form={form} layout="inline" className="admin-audit-filter" onFinish={apply}>
        <Form.Item name="user" label={t('admin.onlineUsers.user')}>
          <Input allowClear placeholder={t('admin.onlineUsers.userHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="ip" label={t('admin.onlineUsers.ip')}>
          <Input allowClear placeholder={t('admin.onlineUsers.ipHint')} autoComplete="off" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('admin.onlineUsers.apply')}
          </Button>{' '}
          <Button
            onClick={() => {
              form.resetFields();
              apply({});
            }}
          >
            {t('admin.onlineUsers.reset')}
          </Button>
        </Form.Item>
      </Form>
      <QueryTable<SignIn>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
      />
    </ConsolePage>
  );
}
