/**
 * 企业审核 (ADR 031, menu component `admin/enterprises`): the review queue of the
 * enterprises, by state (docs/product/behaviour.md#enterprise-status: 待审核 0, 已通过 1, 未通过 2), with search and paging.
 * Each application opens in a drawer with all it registered (enterprise-detail.tsx), where it is
 * passed, or not passed with a reason its members are shown. The list keeps to what tells the rows
 * apart, so that it fits a 1440 px screen in both languages with nothing under the pinned column.
 */
import type { AdminEnterprise, AdminEnterpriseDetail, EnterpriseQuery, EnterpriseReview } from '@portal/contracts';
import { Button, Form, Input, Modal, Segmented, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { idPath, post, useChange, usePaged } from '../api/admin';
import { ConsolePage, formatTime, Named, QueryTable, TAG, Toolbar, useNameOf, usePhone } from '../components/console';
import { maxLength, requiredText } from '../components/rules';
import { EnterpriseDetail } from './enterprise-detail';

const ENTERPRISES = '/api/admin/enterprises';
const STATES = [0, 1, 2] as const;
const COLOR = [TAG.waiting, TAG.good, TAG.bad] as const;

/** What a review names: the enterprise's id and its name. */
type Reviewed = Pick<AdminEnterprise, 'id' | 'name' | 'nameEn'>;

export function EnterprisesPage() {
  const { t, i18n } = useTranslation();
  const nameOf = useNameOf();
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
  const [open, setOpen] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Reviewed | null>(null);
  const { busy, run } = useChange();

  const review = (e: Reviewed, body: EnterpriseReview) =>
    run(
      () => post(idPath(ENTERPRISES, e.id, 'review'), body),
      t(body.estatus === 1 ? 'admin.enterprises.passedDone' : 'admin.enterprises.rejectedDone', {
        name: nameOf(e.name, e.nameEn),
      }),
    );
  const time = (v: string | null) => <span className="admin-nowrap">{formatTime(v, i18n.language)}</span>;

  const columns: ColumnsType<AdminEnterprise> = [
    {
      title: t('admin.enterprises.name'),
      key: 'name',
      render: (_, e) => (
        <span className="admin-enterprise-name">
          <Named name={e.name} en={e.nameEn} />
        </span>
      ),
    },
    {
      title: t('admin.enterprises.creditCode'),
      dataIndex: 'creditCode',
      render: (v: string | null) => <span className="admin-nowrap">{v ?? '-'}</span>,
    },
    {
      title: t('admin.enterprises.contacts'),
      key: 'contacts',
      render: (_, e) => (e.contacts ? <Named name={e.contacts} en={e.contactsEn} /> : '-'),
    },
    {
      title: t('admin.enterprises.state'),
      dataIndex: 'estatus',
      render: (v: number, e) => (
        <>
          <Tag color={COLOR[v] ?? 'default'}>{t(`admin.enterprises.states.${v}`)}</Tag>
          {e.reviewReason ? (
            <div className="admin-secondary admin-enterprise-reason" title={e.reviewReason}>
              {e.reviewReason}
            </div>
          ) : null}
        </>
      ),
    },
    {
      title: <span className="admin-nowrap">{t('admin.enterprises.createdAt')}</span>,
      dataIndex: 'createdAt',
      render: time,
    },
    {
      title: <span className="admin-nowrap">{t('admin.enterprises.reviewedAt')}</span>,
      dataIndex: 'reviewedAt',
      render: time,
    },
    {
      title: t('admin.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, e) => (
        <Button
          type="link"
          size="small"
          onClick={() => setOpen(e.id)}
          aria-label={`${t('admin.enterprises.view')} ${nameOf(e.name, e.nameEn)}`}
        >
          {t('admin.enterprises.view')}
        </Button>
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
      <EnterpriseDetail
        id={open}
        busy={busy}
        onClose={() => setOpen(null)}
        onPass={(e: AdminEnterpriseDetail) => void review(e, { estatus: 1 })}
        onReject={(e: AdminEnterpriseDetail) => setRejecting(e)}
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
  enterprise: Reviewed | null;
  busy: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  const { t } = useTranslation();
  const nameOf = useNameOf();
  const phone = usePhone();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={enterprise !== null}
      title={t('admin.enterprises.rejectTitle', { name: enterprise ? nameOf(enterprise.name, enterprise.nameEn) : '' })}
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
