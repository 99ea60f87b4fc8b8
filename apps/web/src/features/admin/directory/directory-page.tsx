/**
 * 应用与工作台 (ADR 031, menu component `admin/directory`): the tenant's applications (docs/product/permissions.md#action-codes
 * 切换应用) and workbenches (切换工作台), each a code and a name in two languages.
 */
import { PlusOutlined } from '@ant-design/icons';
import { NAMED_CODE, type AdminNamed, type NamedInput } from '@portal/contracts';
import { Button, Form, Input } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { idPath, patch, post, useAdminQuery, useChange } from '../api/admin';
import { ConsolePage, FormDrawer, Named, QueryTable, Toolbar, useNameOf } from '../components/console';
import { maxLength, pattern, requiredText } from '../components/rules';

type Kind = 'applications' | 'workbenches';

export function DirectoryPage() {
  return (
    <ConsolePage className="admin-directory">
      <NamedList kind="applications" />
      <NamedList kind="workbenches" />
    </ConsolePage>
  );
}

function NamedList({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const path = `/api/admin/${kind}`;
  const list = useAdminQuery<AdminNamed[]>(path);
  const [editing, setEditing] = useState<AdminNamed | 'new' | null>(null);
  const columns: ColumnsType<AdminNamed> = [
    { title: t('admin.directory.code'), dataIndex: 'code', render: (v: string) => <code>{v}</code> },
    // This page keeps the names themselves: both languages in either (ADR 047).
    { title: t('admin.directory.name'), key: 'name', render: (_, r) => <Named name={r.name} en={r.nameEn} both /> },
    { title: t('admin.directory.users'), dataIndex: 'users' },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => setEditing(row)}>
          {t('admin.edit')}
        </Button>
      ),
    },
  ];
  return (
    <section className={`admin-named admin-stack admin-${kind}`} aria-labelledby={`admin-${kind}-title`}>
      <Toolbar
        filters={
          <h5 className="admin-section-title" id={`admin-${kind}-title`}>
            {t(`admin.directory.${kind}`)}
          </h5>
        }
        actions={
          <Button icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t(`admin.directory.create.${kind}`)}
          </Button>
        }
      />
      <QueryTable<AdminNamed>
        query={list}
        columns={columns}
        dataSource={list.data}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <NamedDrawer kind={kind} path={path} editing={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

function NamedDrawer({
  kind,
  path,
  editing,
  onClose,
}: {
  kind: Kind;
  path: string;
  editing: AdminNamed | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const [form] = Form.useForm<NamedInput>();
  const { busy, run } = useChange();
  const existing = editing && editing !== 'new' ? editing : null;
  useEffect(() => {
    if (existing) form.setFieldsValue(existing);
  }, [existing, form]);
  async function save(v: NamedInput) {
    const fields = { name: v.name.trim(), nameEn: v.nameEn?.trim() ?? '' };
    const done = existing
      ? await run(() => patch(idPath(path, existing.id), fields), t('admin.saved'))
      : await run(() => post<string>(path, { code: v.code.trim(), ...fields }), t('admin.created'));
    if (done) onClose();
  }
  return (
    <FormDrawer
      open={editing !== null}
      title={
        existing
          ? t('admin.directory.edit', { name: nameOf(existing.name, existing.nameEn) })
          : t(`admin.directory.create.${kind}`)
      }
      busy={busy}
      onClose={onClose}
      onSave={() => form.submit()}
    >
      <Form<NamedInput> form={form} layout="vertical" preserve={false} onFinish={(v) => void save(v)}>
        <Form.Item
          name="code"
          label={t('admin.directory.code')}
          extra={existing ? t('admin.codeFixed') : t('admin.directory.codeHelp')}
          rules={
            existing ? [] : [requiredText('admin.codeRequired'), pattern(NAMED_CODE, 'admin.directory.codeInvalid')]
          }
        >
          <Input disabled={!!existing} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('admin.directory.name')}
          rules={[requiredText('admin.nameRequired'), maxLength(64)]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="nameEn" label={t('admin.nameEn')} rules={[maxLength(64)]}>
          <Input />
        </Form.Item>
      </Form>
    </FormDrawer>
  );
}
