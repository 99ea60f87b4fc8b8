/**
 * 单点登录 (ADR 031, menu component `admin/sign-on`): the services the sign-on server issues
 * tickets for (ADR 007), by URL pattern, and the external systems among them (a system code, an
 * entry address, a logout address); each enabled or not, or deleted.
 */
import { PlusOutlined } from '@ant-design/icons';
import { NAMED_CODE, type AdminSsoService, type SsoServiceInput } from '@portal/contracts';
import { Button, Form, Input, Popconfirm, Switch } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { idPath, patch, post, remove, useAdminQuery, useChange } from '../api/admin';
import { ConsolePage, FormDrawer, Named, QueryTable, Toolbar, useNameOf } from '../components/console';
import { maxLength, pattern, requiredText, serviceAddress } from '../components/rules';

const SERVICES = '/api/admin/sso-services';

export function SignOnPage() {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const list = useAdminQuery<AdminSsoService[]>(SERVICES);
  const [editing, setEditing] = useState<AdminSsoService | 'new' | null>(null);
  const { busy, run } = useChange();
  const columns: ColumnsType<AdminSsoService> = [
    { title: t('admin.signOn.name'), key: 'name', render: (_, s) => <Named name={s.name} en={s.nameEn} /> },
    {
      title: t('admin.signOn.pattern'),
      dataIndex: 'pattern',
      render: (v: string) => <code className="admin-url">{v}</code>,
    },
    { title: t('admin.signOn.sysCode'), dataIndex: 'sysCode', render: (v: string | null) => v ?? '-' },
    {
      title: t('admin.signOn.entryUrl'),
      dataIndex: 'entryUrl',
      render: (v: string | null) => (v ? <span className="admin-url">{v}</span> : '-'),
    },
    {
      title: t('admin.signOn.state'),
      dataIndex: 'enabled',
      render: (v: boolean, s) => (
        <Switch
          size="small"
          checked={v}
          disabled={busy}
          aria-label={t('admin.signOn.enabledFor', { name: nameOf(s.name, s.nameEn) })}
          checkedChildren={t('admin.signOn.on')}
          unCheckedChildren={t('admin.signOn.off')}
          onChange={(enabled) =>
            void run(
              () => patch(idPath(SERVICES, s.id), { enabled }),
              t(enabled ? 'admin.signOn.enabledDone' : 'admin.signOn.disabledDone', { name: nameOf(s.name, s.nameEn) }),
            )
          }
        />
      ),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, s) => (
        <>
          <Button type="link" size="small" onClick={() => setEditing(s)}>
            {t('admin.edit')}
          </Button>
          <Popconfirm
            title={t('admin.signOn.deleteConfirm', { name: nameOf(s.name, s.nameEn) })}
            description={t('admin.signOn.deleteHint')}
            okText={t('admin.delete')}
            okButtonProps={{ danger: true }}
            onConfirm={() => run(() => remove(idPath(SERVICES, s.id)), t('admin.deleted'))}
          >
            <Button type="link" size="small" danger>
              {t('admin.delete')}
            </Button>
          </Popconfirm>
        </>
      ),
    },
  ];
  return (
    <ConsolePage className="admin-sign-on">
      <Toolbar
        filters={<span className="admin-secondary">{t('admin.signOn.intro')}</span>}
        actions={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('admin.signOn.create')}
          </Button>
        }
      />
      <QueryTable<AdminSsoService>
        query={list}
        columns={columns}
        dataSource={list.data}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <ServiceDrawer editing={editing} onClose={() => setEditing(null)} />
    </ConsolePage>
  );
}

interface Values {
  name: string;
  nameEn?: string;
  pattern: string;
  sysCode?: string;
  entryUrl?: string;
  logoutUrl?: string;
  enabled?: boolean;
}

function ServiceDrawer({ editing, onClose }: { editing: AdminSsoService | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const [form] = Form.useForm<Values>();
  const { busy, run } = useChange();
  const existing = editing && editing !== 'new' ? editing : null;
  useEffect(() => {
    if (existing)
      form.setFieldsValue({
        ...existing,
        sysCode: existing.sysCode ?? '',
        entryUrl: existing.entryUrl ?? '',
        logoutUrl: existing.logoutUrl ?? '',
      });
  }, [existing, form]);
  async function save(v: Values) {
    const fields = {
      name: v.name.trim(),
      nameEn: v.nameEn?.trim() ?? '',
      pattern: v.pattern.trim(),
      sysCode: v.sysCode?.trim() || null,
      entryUrl: v.entryUrl?.trim() || null,
      logoutUrl: v.logoutUrl?.trim() || null,
      enabled: v.enabled ?? true,
    } satisfies SsoServiceInput;
    const done = existing
      ? await run(() => patch(idPath(SERVICES, existing.id), fields), t('admin.saved'))
      : await run(() => post<string>(SERVICES, fields), t('admin.created'));
    if (done) onClose();
  }
  return (
    <FormDrawer
      open={editing !== null}
      title={
        existing ? t('admin.signOn.edit', { name: nameOf(existing.name, existing.nameEn) }) : t('admin.signOn.create')
      }
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ enabled: true }}
        onFinish={(v) => void save(v)}
      >
        <Form.Item
          name="name"
          label={t('admin.signOn.name')}
          rules={[requiredText('admin.nameRequired'), maxLength(100)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="nameEn" label={t('admin.nameEn')} rules={[maxLength(100)]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="pattern"
          label={t('admin.signOn.pattern')}
          extra={t('admin.signOn.patternHelp')}
          rules={[requiredText('admin.signOn.patternRequired'), serviceAddress(false), maxLength(1024)]}
        >
          <Input autoComplete="off" placeholder="https://app.example.com/" />
        </Form.Item>
        <Form.Item
          name="sysCode"
          label={t('admin.signOn.sysCode')}
          extra={t('admin.signOn.sysCodeHelp')}
          rules={[pattern(`(${NAMED_CODE})|^$`, 'admin.directory.codeInvalid')]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="entryUrl" label={t('admin.signOn.entryUrl')} rules={[serviceAddress(true), maxLength(1024)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="logoutUrl" label={t('admin.signOn.logoutUrl')} rules={[serviceAddress(true), maxLength(1024)]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="enabled" label={t('admin.signOn.state')} valuePropName="checked">
          <Switch checkedChildren={t('admin.signOn.on')} unCheckedChildren={t('admin.signOn.off')} />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
