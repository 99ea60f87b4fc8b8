/**
 * 角色权限 (ADR 031, menu component `admin/roles`): the tenant's roles (code, titles, the default
 * role of new users) with the permission codes each holds, and the permission codes themselves
 * (docs/product/permissions.md#action-codes: type 1 an action, 2 ignored by the page guard; status 1 enforced, 0 shown to everyone).
 */
import { PlusOutlined } from '@ant-design/icons';
import {
  PERMISSION_CODE,
  ROLE_CODE,
  isOperatorCode,
  type AdminPermission,
  type AdminRole,
  type PermissionInput,
  type RoleInput,
} from '@portal/contracts';
import { Alert, Button, Checkbox, Form, Input, Radio, Switch, Tabs, Tag } from 'antd';
import { useSession } from '../../../lib/session';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { idPath, patch, post, put, useAdminQuery, useChange } from '../api/admin';
import { ConsolePage, Failed, FormDrawer, Named, QueryTable, Toolbar, useNameOf } from '../components/console';
import { maxLength, pattern, requiredText } from '../components/rules';

const ROLES = '/api/admin/roles';
const PERMISSIONS = '/api/admin/permissions';

export function RolesPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage className="admin-roles">
      <Tabs
        items={[
          { key: 'roles', label: t('admin.roles.roles'), children: <RolesTab /> },
          { key: 'permissions', label: t('admin.roles.permissions'), children: <PermissionsTab /> },
        ]}
      />
    </ConsolePage>
  );
}

function RolesTab() {
  const { t } = useTranslation();
  const roles = useAdminQuery<AdminRole[]>(ROLES);
  const [editing, setEditing] = useState<AdminRole | 'new' | null>(null);
  const [granting, setGranting] = useState<AdminRole | null>(null);
  const columns: ColumnsType<AdminRole> = [
    { title: t('admin.roles.code'), dataIndex: 'code' },
    { title: t('admin.roles.title'), key: 'title', render: (_, r) => <Named name={r.title} en={r.titleEn} /> },
    {
      title: t('admin.roles.isDefault'),
      dataIndex: 'isDefault',
      render: (v: boolean) => (v ? <Tag color="blue">{t('admin.roles.default')}</Tag> : '-'),
    },
    { title: t('admin.roles.users'), dataIndex: 'users' },
    { title: t('admin.roles.permissionCount'), key: 'count', render: (_, r) => r.permissionIds.length },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) => (
        <>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            {t('admin.edit')}
          </Button>
          <Button type="link" size="small" onClick={() => setGranting(r)}>
            {t('admin.roles.grant')}
          </Button>
        </>
      ),
    },
  ];
  return (
    <div className="admin-stack">
      <Toolbar
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('admin.roles.create')}
          </Button>
        }
      />
      <QueryTable<AdminRole> query={roles} columns={columns} dataSource={roles.data} pagination={false} />
      <RoleDrawer role={editing} onClose={() => setEditing(null)} />
      <GrantDrawer role={granting} onClose={() => setGranting(null)} />
    </div>
  );
}

/** The tag of a code that administers the tenant (contracts OPERATOR_CODES, ADR 036). */
function OperatorTag() {
  const { t } = useTranslation();
  return (
    <Tag color="orange" title={t('admin.roles.operatorHelp')}>
      {t('admin.roles.operator')}
    </Tag>
  );
}

function RoleDrawer({ role, onClose }: { role: AdminRole | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const [form] = Form.useForm<RoleInput>();
  const { busy, run } = useChange();
  const existing = role && role !== 'new' ? role : null;
  const permissions = useAdminQuery<AdminPermission[]>(PERMISSIONS, {}, { enabled: existing !== null });
  // A role holding a code that administers is never the default one (the server answers 409): said here first.
  const operatorCodes = (permissions.data ?? [])
    .filter((p) => existing?.permissionIds.includes(p.id) && isOperatorCode(p.code))
    .map((p) => p.code);
  const blocked = operatorCodes.length > 0 && !existing?.isDefault;
  useEffect(() => {
    if (existing) form.setFieldsValue(existing);
  }, [existing, form]);
  async function save(v: RoleInput) {
    const fields = { title: v.title.trim(), titleEn: v.titleEn?.trim() ?? '', isDefault: v.isDefault ?? false };
    const done = existing
      ? await run(() => patch(idPath(ROLES, existing.id), fields), t('admin.saved'))
      : await run(() => post<string>(ROLES, { code: v.code.trim(), ...fields }), t('admin.created'));
    if (done) onClose();
  }
  return (
    <FormDrawer
      open={role !== null}
      title={
        existing ? t('admin.roles.edit', { name: nameOf(existing.title, existing.titleEn) }) : t('admin.roles.create')
      }
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<RoleInput> form={form} layout="vertical" preserve={false} onFinish={(v) => void save(v)}>
        <Form.Item
          name="code"
          label={t('admin.roles.code')}
          extra={existing ? t('admin.codeFixed') : t('admin.roles.codeHelp')}
          rules={existing ? [] : [requiredText('admin.codeRequired'), pattern(ROLE_CODE, 'admin.roles.codeInvalid')]}
        >
          <Input disabled={!!existing} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('admin.roles.title')}
          rules={[requiredText('admin.titleRequired'), maxLength(64)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="titleEn" label={t('admin.titleEn')} rules={[maxLength(64)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="isDefault"
          label={t('admin.roles.isDefault')}
          extra={
            blocked
              ? t('admin.roles.defaultBlocked', { codes: operatorCodes.join(', ') })
              : t('admin.roles.defaultHelp')
          }
          valuePropName="checked"
        >
          <Switch disabled={blocked} />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}

/** The permission codes a role holds: a checklist of every code of the tenant. */
function GrantDrawer({ role, onClose }: { role: AdminRole | null; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const permissions = useAdminQuery<AdminPermission[]>(PERMISSIONS, {}, { enabled: role !== null });
  const [checked, setChecked] = useState<string[]>([]);
  const { busy, run } = useChange();
  useEffect(() => {
    if (role) setChecked(role.permissionIds);
  }, [role]);
  const all = useMemo(() => permissions.data ?? [], [permissions.data]);
  // The server refuses to change the role one acts in (a slip would lock one out): said before, not after.
  const current = useSession((s) => s.userInfo?.roleId) === role?.id;
  return (
    <FormDrawer
      open={role !== null}
      title={t('admin.roles.grantTitle', { name: role ? nameOf(role.title, role.titleEn) : '' })}
      busy={busy}
      saveDisabled={current}
      onClose={onClose}
      onSave={async () => {
        const done = await run(
          () => put(idPath(ROLES, role!.id, 'permissions'), { permissionIds: checked }),
          t('admin.saved'),
        );
        if (done) onClose();
      }}
    >
      {permissions.isError ? <Failed error={permissions.error} retry={() => void permissions.refetch()} /> : null}
      {current ? <Alert className="admin-grant-own" type="info" showIcon message={t('admin.roles.ownRole')} /> : null}
      {role?.isDefault ? (
        <Alert className="admin-grant-own" type="warning" showIcon message={t('admin.roles.defaultNoOperator')} />
      ) : null}
      <Checkbox
        className="admin-check-all"
        disabled={current}
        indeterminate={checked.length > 0 && checked.length < all.length}
        checked={all.length > 0 && checked.length === all.length}
        onChange={(e) =>
          setChecked(
            e.target.checked ? all.filter((p) => !role?.isDefault || !isOperatorCode(p.code)).map((p) => p.id) : [],
          )
        }
      >
        {t('admin.roles.all', { count: checked.length, total: all.length })}
      </Checkbox>
      <Checkbox.Group className="admin-checklist" disabled={current} value={checked} onChange={(v) => setChecked(v)}>
        {all.map((p) => (
          <Checkbox
            key={p.id}
            value={p.id}
            disabled={role?.isDefault && isOperatorCode(p.code) && !checked.includes(p.id)}
          >
            <code>{p.code}</code> <span className="admin-secondary">{p.describe}</span>{' '}
            {isOperatorCode(p.code) ? <OperatorTag /> : null}
          </Checkbox>
        ))}
      </Checkbox.Group>
    </FormDrawer>
  );
}

function PermissionsTab() {
  const { t } = useTranslation();
  const permissions = useAdminQuery<AdminPermission[]>(PERMISSIONS);
  const [editing, setEditing] = useState<AdminPermission | 'new' | null>(null);
  const columns: ColumnsType<AdminPermission> = [
    {
      title: t('admin.roles.permissionCode'),
      dataIndex: 'code',
      render: (v: string) => (
        <>
          <code>{v}</code> {isOperatorCode(v) ? <OperatorTag /> : null}
        </>
      ),
    },
    { title: t('admin.roles.describe'), dataIndex: 'describe' },
    {
      title: t('admin.roles.type'),
      dataIndex: 'type',
      render: (v: number) => (v === 2 ? t('admin.roles.type2') : t('admin.roles.type1')),
    },
    {
      title: t('admin.roles.status'),
      dataIndex: 'status',
      render: (v: number) =>
        v === 1 ? <Tag color="blue">{t('admin.roles.enforced')}</Tag> : <Tag>{t('admin.roles.open')}</Tag>,
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, p) => (
        <Button type="link" size="small" onClick={() => setEditing(p)}>
          {t('admin.edit')}
        </Button>
      ),
    },
  ];
  return (
    <div className="admin-stack">
      <Toolbar
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('admin.roles.createPermission')}
          </Button>
        }
      />
      <QueryTable<AdminPermission>
        query={permissions}
        columns={columns}
        dataSource={permissions.data}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <PermissionDrawer permission={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

function PermissionDrawer({
  permission,
  onClose,
}: {
  permission: AdminPermission | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PermissionInput>();
  const { busy, run } = useChange();
  const existing = permission && permission !== 'new' ? permission : null;
  useEffect(() => {
    if (existing) form.setFieldsValue(existing as PermissionInput);
  }, [existing, form]);
  // A code that administers stays enforced, type 1 and status 1 (the server refuses anything else).
  const code = Form.useWatch('code', form) ?? existing?.code ?? '';
  const fixed = isOperatorCode(code.trim());
  useEffect(() => {
    if (fixed) form.setFieldsValue({ type: 1, status: 1 });
  }, [fixed, form]);
  async function save(v: PermissionInput) {
    const fields = { describe: v.describe.trim(), type: v.type ?? 1, status: v.status ?? 1 };
    const done = existing
      ? await run(() => patch(idPath(PERMISSIONS, existing.id), fields), t('admin.saved'))
      : await run(() => post<string>(PERMISSIONS, { code: v.code.trim(), ...fields }), t('admin.created'));
    if (done) onClose();
  }
  return (
    <FormDrawer
      open={permission !== null}
      title={existing ? t('admin.roles.editPermission', { name: existing.code }) : t('admin.roles.createPermission')}
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<PermissionInput>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ type: 1, status: 1 }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item
          name="code"
          label={t('admin.roles.permissionCode')}
          extra={existing ? t('admin.codeFixed') : t('admin.roles.permissionCodeHelp')}
          rules={
            existing
              ? []
              : [requiredText('admin.codeRequired'), pattern(PERMISSION_CODE, 'admin.roles.permissionCodeInvalid')]
          }
        >
          <Input disabled={!!existing} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="describe"
          label={t('admin.roles.describe')}
          rules={[requiredText('admin.roles.describeRequired'), maxLength(100)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="type" label={t('admin.roles.type')} extra={fixed ? t('admin.roles.operatorHelp') : undefined}>
          <Radio.Group
            disabled={fixed}
            options={[
              { value: 1, label: t('admin.roles.type1') },
              { value: 2, label: t('admin.roles.type2') },
            ]}
          />
        </Form.Item>
        <Form.Item name="status" label={t('admin.roles.status')} extra={t('admin.roles.statusHelp')}>
          <Radio.Group
            disabled={fixed}
            options={[
              { value: 1, label: t('admin.roles.enforced') },
              { value: 0, label: t('admin.roles.open') },
            ]}
          />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
