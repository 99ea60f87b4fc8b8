/**
 * 用户管理 (ADR 031, menu component `admin/users`): the tenant's users with search, filters by
 * role and state, and paging; a new user, edits, disable/enable, a new password, unlock, roles and
 * enterprises. The server refuses all of it on one's own account, with a message.
 */
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { USER_STATES, type AdminUser, type UserQuery } from '@portal/contracts';
import { Button, Dropdown, Input, Select, Space, Tag, Tooltip, type MenuProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useSession } from '../../../lib/session';
import { idPath, post, useChange, usePaged } from '../api/admin';
import {
  ConsolePage,
  formatTime,
  Named,
  QueryTable,
  TAG,
  TagList,
  Toolbar,
  useConfirm,
  useNameOf,
} from '../components/console';
import { useRoles } from '../components/pickers';
import { MembershipDialog, PasswordDialog, UserDrawer } from './user-dialogs';

type UserState = (typeof USER_STATES)[number];
const stateOf = (u: AdminUser): UserState => (u.disabled ? 'disabled' : u.locked ? 'locked' : 'active');
const STATE_COLOR: Record<UserState, string> = { active: TAG.good, disabled: 'default', locked: TAG.bad };

type Dialog = { kind: 'create' } | { kind: 'edit' | 'password' | 'roles' | 'enterprises'; user: AdminUser } | null;

export function UsersPage() {
  const { t, i18n } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [q, setQ] = useState('');
  const [roleId, setRoleId] = useState<string | undefined>();
  const [state, setState] = useState<UserState | undefined>();
  const query: UserQuery = { page: page.current, limit: page.size, q: q || undefined, roleId, state };
  const list = usePaged<AdminUser>('/api/admin/users', query);
  const roles = useRoles();
  const nameOf = useNameOf();
  const [dialog, setDialog] = useState<Dialog>(null);
  const { run } = useChange();
  const { confirm, holder } = useConfirm();
  const me = useSession((st) => st.userInfo?.userId);
  const close = () => setDialog(null);

  const act = (user: AdminUser, action: 'disable' | 'enable' | 'unlock' | 'resetFactors') => {
    const path = action === 'resetFactors' ? 'factors/reset' : action;
    const go = () => run(() => post(idPath('/api/admin/users', user.id, path)), t(`admin.users.${action}Done`));
    if (action === 'unlock') return void go();
    const danger = action === 'disable' || action === 'resetFactors';
    confirm({
      title: t(`admin.users.${action}Confirm`, { name: user.username }),
      content: danger ? t(`admin.users.${action}Hint`) : undefined,
      okText: t(`admin.users.${action}`),
      okButtonProps: danger ? { danger: true } : undefined,
      onOk: go,
    });
  };

  const more = (user: AdminUser): MenuProps['items'] => [
    { key: 'roles', label: t('admin.users.editRoles') },
    { key: 'enterprises', label: t('admin.users.editEnterprises') },
    { key: 'password', label: t('admin.users.resetPassword') },
    ...(user.locked ? [{ key: 'unlock', label: t('admin.users.unlock') }] : []),
    ...(user.id === me ? [] : [{ key: 'resetFactors', label: t('admin.users.resetFactors') }]),
    user.disabled
      ? { key: 'enable', label: t('admin.users.enable') }
      : { key: 'disable', label: t('admin.users.disable'), danger: true },
  ];
  const onMore = (user: AdminUser, key: string) => {
    if (key === 'disable' || key === 'enable' || key === 'unlock' || key === 'resetFactors') act(user, key);
    else setDialog({ kind: key as 'roles' | 'enterprises' | 'password', user });
  };

  const columns: ColumnsType<AdminUser> = [
    {
      title: t('admin.users.username'),
      dataIndex: 'username',
      render: (v: string, u) => (
        <span className="admin-nowrap">
          {v}
          {u.id === me ? <Tag className="admin-self-tag">{t('admin.users.you')}</Tag> : null}
        </span>
      ),
    },
    { title: t('admin.users.name'), key: 'name', render: (_, u) => <Named name={u.name} en={u.nameEn} /> },
    { title: t('admin.users.mobile'), dataIndex: 'mobile', render: (v: string | null) => v ?? '-' },
    {
      title: t('admin.users.roles'),
      key: 'roles',
      render: (_, u) => <TagList items={u.roles} />,
    },
    {
      title: t('admin.users.enterprises'),
      key: 'enterprises',
      render: (_, u) => <TagList items={u.enterprises} max={2} />,
    },
    {
      title: t('admin.users.state'),
      key: 'state',
      render: (_, u) => {
        const s = stateOf(u);
        const due = u.secondFactor;
        return (
          <>
            <Tag color={STATE_COLOR[s]}>{t(`admin.users.states.${s}`)}</Tag>
            {due ? (
              // What the sign-in will do (the server's own rule): blocked past the grace, else the days left.
              <Tooltip title={t('admin.users.factorDueHint')}>
                <Tag className="admin-factor-due" color={due.over ? TAG.bad : TAG.notice} tabIndex={0}>
                  {due.over
                    ? t('admin.users.factorOver')
                    : due.daysLeft === 1
                      ? t('admin.users.factorDueOne')
                      : t('admin.users.factorDue', { count: due.daysLeft })}
                </Tag>
              </Tooltip>
            ) : null}
          </>
        );
      },
    },
    {
      title: t('admin.users.lastLogin'),
      dataIndex: 'lastLoginAt',
      render: (v: string | null) => formatTime(v, i18n.language),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, u) =>
        // The server refuses every change to one's own account (a slip would lock one out).
        u.id === me ? (
          <span className="admin-secondary admin-self">{t('admin.users.selfHint')}</span>
        ) : (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', user: u })}>
              {t('admin.edit')}
            </Button>
            <Dropdown trigger={['click']} menu={{ items: more(u), onClick: ({ key }) => onMore(u, key) }}>
              <Button type="link" size="small" aria-label={t('admin.moreFor', { name: u.username })}>
                {t('admin.more')} <DownOutlined />
              </Button>
            </Dropdown>
          </Space>
        ),
    },
  ];

  return (
    <ConsolePage className="admin-users">
      <Toolbar
        filters={
          <>
            <Input.Search
              allowClear
              aria-label={t('admin.users.search')}
              placeholder={t('admin.users.search')}
              onSearch={(v) => {
                setQ(v.trim());
                toFirst();
              }}
            />
            <Select
              allowClear
              aria-label={t('admin.users.role')}
              placeholder={t('admin.users.role')}
              value={roleId}
              loading={roles.isPending}
              options={(roles.data ?? []).map((r) => ({ value: r.id, label: nameOf(r.title, r.titleEn) }))}
              onChange={(v: string | undefined) => {
                setRoleId(v);
                toFirst();
              }}
            />
            <Select
              allowClear
              aria-label={t('admin.users.state')}
              placeholder={t('admin.users.state')}
              value={state}
              options={USER_STATES.map((s) => ({ value: s, label: t(`admin.users.states.${s}`) }))}
              onChange={(v: UserState | undefined) => {
                setState(v);
                toFirst();
              }}
            />
          </>
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create' })}>
            {t('admin.users.create')}
          </Button>
        }
      />
      <QueryTable<AdminUser>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
      />
      <UserDrawer
        open={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        user={dialog?.kind === 'edit' ? dialog.user : null}
        onClose={close}
      />
      <PasswordDialog user={dialog?.kind === 'password' ? dialog.user : null} onClose={close} />
      <MembershipDialog
        kind={dialog?.kind === 'enterprises' ? 'enterprises' : 'roles'}
        user={dialog?.kind === 'roles' || dialog?.kind === 'enterprises' ? dialog.user : null}
        onClose={close}
      />
      {holder}
    </ConsolePage>
  );
}
