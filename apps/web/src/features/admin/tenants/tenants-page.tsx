/**
 * 租户管理 (ADR 031, menu component `admin/tenants`; platform operators only): every tenant, a new
 * one with its first operator, names and home address edited, disabled or enabled again, its portal
 * opened, and 管理 — which makes it the tenant the other console pages act on (see api/scope.ts).
 */
import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import {
  TENANT_CODE,
  type AdminPageQuery,
  type AdminTenant,
  type TenantCreate,
  type TenantPatch,
} from '@portal/contracts';
import { Button, Divider, Dropdown, Form, Input, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { encryptPassword } from '../../../lib/api/password';
import { basename } from '../../../lib/config';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useSession } from '../../../lib/session';
import { personNameRule, usernameRule } from '../../../components/form-rules';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { TemporaryField } from '../components/temporary-field';
import { adminCall, idPath, useChange, usePaged } from '../api/admin';
import { chooseTenant, useScope } from '../api/scope';
import {
  ConsolePage,
  formatTime,
  FormDrawer,
  Named,
  QueryTable,
  TAG,
  Toolbar,
  useConfirm,
  useNameOf,
  usePhone,
} from '../components/console';
import { maxLength, optionalUrl, pattern, requiredText } from '../components/rules';

const TENANTS = '/api/admin/tenants';
/** The portal of a tenant: its login page, which names it. */
export const portalOf = (code: string) =>
  `${basename() === '/' ? '' : basename()}/login?tc=${encodeURIComponent(code)}`;

export function TenantsPage() {
  const { t, i18n } = useTranslation();
  const nameOf = useNameOf();
  const phone = usePhone();
  const { page, pagination, toFirst } = usePaging();
  const [q, setQ] = useState('');
  const query: AdminPageQuery = { page: page.current, limit: page.size, q: q || undefined };
  const list = usePaged<AdminTenant>(TENANTS, query, { own: true });
  const scoped = useScope((s) => s.tenant?.code);
  const own = useSession((s) => s.userInfo?.tenantCode);
  const [editing, setEditing] = useState<AdminTenant | 'new' | null>(null);
  const { busy, run } = useChange();
  const { confirm, holder } = useConfirm();

  const toggle = (tenant: AdminTenant) =>
    confirm({
      title: t(tenant.disabled ? 'admin.tenants.enableConfirm' : 'admin.tenants.disableConfirm', {
        name: nameOf(tenant.name, tenant.nameEn),
      }),
      content: tenant.disabled ? undefined : t('admin.tenants.disableHint'),
      okText: t(tenant.disabled ? 'admin.tenants.enable' : 'admin.tenants.disable'),
      okButtonProps: tenant.disabled ? undefined : { danger: true },
      onOk: () =>
        run(
          () =>
            adminCall(idPath(TENANTS, tenant.id), { method: 'PATCH', body: { disabled: !tenant.disabled }, own: true }),
          t(tenant.disabled ? 'admin.tenants.enabled' : 'admin.tenants.disabled'),
        ),
    });

  const manage = (tenant: AdminTenant) => {
    chooseTenant({ code: tenant.code, name: tenant.name, nameEn: tenant.nameEn });
    toast('success', t('admin.tenants.managing', { name: nameOf(tenant.name, tenant.nameEn) }));
  };

  const columns: ColumnsType<AdminTenant> = [
    { title: t('admin.tenants.code'), dataIndex: 'code', render: (v: string) => <code>{v}</code> },
    {
      title: t('admin.tenants.name'),
      key: 'name',
      render: (_, r) => (
        <>
          <Named name={r.name} en={r.nameEn} />
          {r.platform ? <Tag color="purple">{t('admin.tenants.platform')}</Tag> : null}
          {r.code === own ? <Tag>{t('admin.tenants.yours')}</Tag> : null}
          {r.code === scoped ? <Tag color={TAG.notice}>{t('admin.tenants.managed')}</Tag> : null}
        </>
      ),
    },
    {
      title: t('admin.tenants.state'),
      dataIndex: 'disabled',
      render: (v: boolean) =>
        v ? (
          <Tag>{t('admin.tenants.states.disabled')}</Tag>
        ) : (
          <Tag color={TAG.good}>{t('admin.tenants.states.active')}</Tag>
        ),
    },
    { title: t('admin.tenants.users'), dataIndex: 'users' },
    {
      title: t('admin.tenants.homeUrl'),
      dataIndex: 'homeUrl',
      render: (v: string | null) => (v ? <span className="admin-url">{v}</span> : '-'),
    },
    {
      title: t('admin.tenants.createdAt'),
      dataIndex: 'createdAt',
      render: (v: string) => formatTime(v, i18n.language),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) => {
        const manageButton = (
          <Button type="link" size="small" onClick={() => manage(r)} disabled={r.code === (scoped ?? own)}>
            {t('admin.tenants.manage')}
          </Button>
        );
        const others = [
          { key: 'edit', label: t('admin.edit'), onClick: () => setEditing(r) },
          {
            key: 'portal',
            label: t('admin.tenants.portal'),
            onClick: () => window.open(portalOf(r.code), '_blank', 'noopener'),
          },
          ...(r.platform
            ? []
            : [
                {
                  key: 'toggle',
                  label: t(r.disabled ? 'admin.tenants.enable' : 'admin.tenants.disable'),
                  danger: !r.disabled,
                  onClick: () => toggle(r),
                },
              ]),
        ];
        // A phone keeps the column narrow: 管理, then the rest in a drop-down.
        if (phone)
          return (
            <Space size={0}>
              {manageButton}
              <Dropdown
                trigger={['click']}
                menu={{
                  items: others.map(({ onClick: _, ...item }) => item),
                  onClick: ({ key }) => others.find((o) => o.key === key)?.onClick(),
                }}
              >
                <Button type="link" size="small" aria-label={t('admin.moreFor', { name: nameOf(r.name, r.nameEn) })}>
                  {t('admin.more')} <DownOutlined />
                </Button>
              </Dropdown>
            </Space>
          );
        return (
          <Space size={0}>
            {manageButton}
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('admin.edit')}
            </Button>
            <Button type="link" size="small" href={portalOf(r.code)} target="_blank" rel="noopener noreferrer">
              {t('admin.tenants.portal')}
            </Button>
            {r.platform ? null : (
              <Button type="link" size="small" danger={!r.disabled} disabled={busy} onClick={() => toggle(r)}>
                {t(r.disabled ? 'admin.tenants.enable' : 'admin.tenants.disable')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  return (
    <ConsolePage className="admin-tenants">
      <Toolbar
        filters={
          <Input.Search
            allowClear
            aria-label={t('admin.tenants.search')}
            placeholder={t('admin.tenants.search')}
            onSearch={(v) => {
              setQ(v.trim());
              toFirst();
            }}
          />
        }
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('admin.tenants.create')}
          </Button>
        }
      />
      <QueryTable<AdminTenant>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
      />
      <TenantDrawer editing={editing} onClose={() => setEditing(null)} />
      {holder}
    </ConsolePage>
  );
}

interface Values {
  code: string;
  name: string;
  nameEn?: string;
  homeUrl?: string;
  username: string;
  operatorName: string;
  password: string;
  repeat: string;
  temporary: boolean;
}

function TenantDrawer({ editing, onClose }: { editing: AdminTenant | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const [form] = Form.useForm<Values>();
  const { busy, run } = useChange();
  const existing = editing && editing !== 'new' ? editing : null;
  useEffect(() => {
    if (existing) form.setFieldsValue({ ...existing, homeUrl: existing.homeUrl ?? '' });
  }, [existing, form]);

  async function save(v: Values) {
    const fields = { name: v.name.trim(), nameEn: v.nameEn?.trim() ?? '', homeUrl: v.homeUrl?.trim() || null };
    const done = existing
      ? await run(
          () =>
            adminCall(idPath(TENANTS, existing.id), { method: 'PATCH', body: fields satisfies TenantPatch, own: true }),
          t('admin.saved'),
        )
      : await run(
          async () =>
            adminCall<string>(TENANTS, {
              method: 'POST',
              own: true,
              body: {
                code: v.code.trim(),
                ...fields,
                operator: {
                  username: v.username.trim(),
                  name: v.operatorName.trim(),
                  password: await encryptPassword(v.password),
                  temporary: v.temporary,
                },
              } satisfies TenantCreate,
            }),
          t('admin.tenants.created', { code: v.code.trim() }),
        );
    if (done) onClose();
  }

  return (
    <FormDrawer
      open={editing !== null}
      title={
        existing ? t('admin.tenants.edit', { name: nameOf(existing.name, existing.nameEn) }) : t('admin.tenants.create')
      }
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<Values> form={form} layout="vertical" preserve={false} onFinish={(v) => void save(v)}>
        <Form.Item
          name="code"
          label={t('admin.tenants.code')}
          extra={existing ? t('admin.codeFixed') : t('admin.tenants.codeHelp')}
          rules={
            existing ? [] : [requiredText('admin.codeRequired'), pattern(TENANT_CODE, 'admin.tenants.codeInvalid')]
          }
        >
          <Input disabled={!!existing} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('admin.tenants.name')}
          rules={[requiredText('admin.nameRequired'), maxLength(100)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="nameEn" label={t('admin.nameEn')} rules={[maxLength(100)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="homeUrl"
          label={t('admin.tenants.homeUrl')}
          extra={t('admin.tenants.homeUrlHelp')}
          rules={[optionalUrl, maxLength(1024)]}
        >
          <Input inputMode="url" autoComplete="off" />
        </Form.Item>
        {existing ? null : (
          <>
            <Divider orientation="left" plain>
              {t('admin.tenants.operator')}
            </Divider>
            <Form.Item
              name="username"
              label={t('admin.users.username')}
              rules={[requiredText('forms.usernameRequired'), usernameRule]}
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="operatorName"
              label={t('admin.users.name')}
              rules={[requiredText('admin.users.nameRequired'), maxLength(64), personNameRule()]}
            >
              <Input />
            </Form.Item>
            <NewPasswordFields
              form={form}
              label={t('admin.users.password')}
              repeatLabel={t('admin.users.repeat')}
              username={() => form.getFieldValue('username') as string | undefined}
            />
            <TemporaryField />
          </>
        )}
      </Form>
    </FormDrawer>
  );
}
