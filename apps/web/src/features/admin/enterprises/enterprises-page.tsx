/**
 * 企业审核 (ADR 031, menu component `admin/enterprises`): the review queue of the
 * enterprises, by state (docs/product/behaviour.md#enterprise-status: 待审核 0, 已通过 1, 未通过 2), with search and paging. An enterprise is
 * passed, or not passed with a reason its members are shown.
 */
import type { AdminEnterprise, EnterpriseQuery, EnterpriseReview } from '@portal/contracts';
import { Button, Form, Input, Modal, Popconfirm, Segmented, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { idPath, post, useChange, usePaged } from '../api/admin';
import { ConsolePage, formatTime, Named, QueryTable, TAG, Toolbar, usePhone } from '../components/console';
import { maxLength, requiredText } from '../components/rules';

const ENTERPRISES = '/api/admin/enterprises';
const STATES = [0, 1, 2] as const;
const COLOR = [TAG.waiting, TAG.good, TAG.bad] as const;

export function EnterprisesPage() {
  const { t, i18n } = useTranslation();
  const { page, pagination, toFirst } = usePaging();
  const [estatus, setEstatus] = useState<0 | 1 | 2 | -1>(0);
  const [q, setQ] = useState('');
  const query: EnterpriseQuery = {
    page: page.current,
    limit: page.size,
    q: q || undefined,
    estatus: estatus < 0 ? undefined : estatus,
  };
  const list = usePaged<AdminEnterprise>(ENTERPRISES, query);
  const [rejecting, setRejecting] = useState<AdminEnterprise | null>(null);
  const { busy, run } = useChange();

  const review = (e: AdminEnterprise, body: EnterpriseReview) =>
    run(
      () => post(idPath(ENTERPRISES, e.id, 'review'), body),
      t(body.estatus === 1 ? 'admin.enterprises.passedDone' : 'admin.enterprises.rejectedDone', { name: e.name }),
    );

  const columns: ColumnsType<AdminEnterprise> = [
    { title: t('admin.enterprises.name'), key: 'name', render: (_, e) => <Named name={e.name} en={e.nameEn} /> },
    { title: t('admin.enterprises.creditCode'), dataIndex: 'creditCode', render: (v: string | null) => v ?? '-' },
    { title: t('admin.enterprises.contacts'), dataIndex: 'contacts', render: (v: string | null) => v ?? '-' },
    { title: t('admin.enterprises.members'), dataIndex: 'members' },
    {
      title: t('admin.enterprises.state'),
      dataIndex: 'estatus',
      render: (v: number) => <Tag color={COLOR[v] ?? 'default'}>{t(`admin.enterprises.states.${v}`)}</Tag>,
    },
    {
      title: t('admin.enterprises.reason'),
      dataIndex: 'reviewReason',
      render: (v: string | null) => (v ? <span className="admin-reason">{v}</span> : '-'),
    },
    {
      title: t('admin.enterprises.createdAt'),
      dataIndex: 'createdAt',
      render: (v: string) => formatTime(v, i18n.language),
    },
    {
      title: t('admin.enterprises.reviewedAt'),
      dataIndex: 'reviewedAt',
      render: (v: string | null) => formatTime(v, i18n.language),
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, e) => (
        <>
          {e.estatus !== 1 ? (
            <Popconfirm
              title={t('admin.enterprises.passConfirm', { name: e.name })}
              okText={t('admin.enterprises.pass')}
              onConfirm={() => review(e, { estatus: 1 })}
            >
              <Button type="link" size="small" disabled={busy}>
                {t('admin.enterprises.pass')}
              </Button>
            </Popconfirm>
          ) : null}
          {e.estatus !== 2 ? (
            <Button type="link" size="small" danger disabled={busy} onClick={() => setRejecting(e)}>
              {t('admin.enterprises.reject')}
            </Button>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <ConsolePage className="admin-enterprises">
      <Toolbar
        filters={
          <>
            <Segmented<number>
              aria-label={t('admin.enterprises.state')}
              value={estatus}
              options={[
                ...STATES.map((s) => ({ value: s, label: t(`admin.enterprises.states.${s}`) })),
                { value: -1, label: t('admin.all') },
              ]}
              onChange={(v) => {
                setEstatus(v as 0 | 1 | 2 | -1);
                toFirst();
              }}
            />
            <Input.Search
              allowClear
              aria-label={t('admin.enterprises.search')}
              placeholder={t('admin.enterprises.search')}
              onSearch={(v) => {
                setQ(v.trim());
                toFirst();
              }}
            />
          </>
        }
      />
      <QueryTable<AdminEnterprise>
        query={list}
        columns={columns}
        dataSource={list.data?.records}
        pagination={pagination(list.data?.total ?? 0)}
        locale={{ emptyText: estatus === 0 ? t('admin.enterprises.queueEmpty') : undefined }}
      />
      <RejectDialog
        enterprise={rejecting}
        busy={busy}
        onClose={() => setRejecting(null)}
        onReject={async (reason) => {
          if (rejecting && (await review(rejecting, { estatus: 2, reason }))) setRejecting(null);
        }}
      />
    </ConsolePage>
  );
}

/** Not passed: the reason is required, and the enterprise's members are shown it. */
function RejectDialog({
  enterprise,
  busy,
  onClose,
  onReject,
}: {
  enterprise: AdminEnterprise | null;
  busy: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={enterprise !== null}
      title={t('admin.enterprises.rejectTitle', { name: enterprise?.name ?? '' })}
      okText={t('admin.enterprises.reject')}
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
      width={phone ? '100%' : 520}
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => onReject(v.reason.trim())}>
        <Form.Item
          name="reason"
          label={t('admin.enterprises.reason')}
          extra={t('admin.enterprises.reasonHelp')}
          rules={[requiredText('admin.enterprises.reasonRequired'), maxLength(500)]}
        >
          <Input.TextArea rows={4} showCount maxLength={500} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
