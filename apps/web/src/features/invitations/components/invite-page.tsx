import { isValidPhone, type Invitation, type InvitationStatus } from '@portal/contracts';
import { Button, Form, Input, Popconfirm, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ownMessage } from '../../../lib/api/client';
import { runtimeConfig } from '../../../lib/config';
import { toast } from '../../../lib/feedback';
import { useTranslation } from '../../../lib/i18n';
import { usePaging } from '../../../lib/paging';
import { useInvitations, useInvite, useRevokeInvitation } from '../api/invitations';
import './invite-page.css';
import '../messages';

const STATUS_COLOR: Record<InvitationStatus, string> = {
  pending: 'processing',
  joined: 'success',
  expired: 'default',
  revoked: 'default',
};

/**
 * 邀请成员 (docs/product/screens.md#menu-routes `ent/members/invite`, for roles holding `ent:invite`): invite a mobile number
 * into the current enterprise, whose owner joins at their next sign-in or registration; the
 * invitations sent, with those still open revocable.
 */
export function InvitePage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ mobile: string }>();
  const { page, pagination, toFirst } = usePaging();
  const list = useInvitations(page.current, page.size);
  const invite = useInvite();
  const revoke = useRevokeInvitation();

  const onFinish = ({ mobile }: { mobile: string }) =>
    invite.mutate(mobile.trim(), {
      onSuccess: () => {
        toast('success', t('invitations.sent'));
        form.resetFields();
        toFirst();
      },
      onError: (err) => {
        const message = ownMessage(err);
        if (message) form.setFields([{ name: 'mobile', errors: [message] }]);
      },
    });

  const columns: ColumnsType<Invitation> = [
    { title: t('enterprise.mobile'), dataIndex: 'mobile', className: 'invitations-mobile' },
    {
      title: t('invitations.status'),
      dataIndex: 'status',
      render: (s: InvitationStatus) => <Tag color={STATUS_COLOR[s]}>{t(`invitations.status_${s}`)}</Tag>,
    },
    { title: t('invitations.invitedBy'), dataIndex: 'invitedBy', responsive: ['md'], render: (v) => v ?? '-' },
    { title: t('invitations.joinedName'), dataIndex: 'joinedName', responsive: ['lg'], render: (v) => v ?? '-' },
    { title: t('invitations.sentAt'), dataIndex: 'crtTime', responsive: ['md'] },
    { title: t('invitations.expiresAt'), dataIndex: 'expireTime', responsive: ['xl'] },
    {
      title: t('invitations.actions'),
      key: 'actions',
      render: (_, row) =>
        row.status === 'pending' ? (
          <Popconfirm title={t('invitations.revokeConfirm')} onConfirm={() => revoke.mutateAsync(row.id)}>
            <Button type="link" size="small" danger>
              {t('invitations.revoke')}
            </Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <div className="invitations">
      <Form form={form} layout="inline" className="invitations-form" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="mobile"
          label={t('enterprise.mobile')}
          validateTrigger="onSubmit"
          rules={[
            {
              validator: (_, v: string | undefined) =>
                isValidPhone((v ?? '').trim(), runtimeConfig().phonePattern)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('forms.mobileInvalid'))),
            },
          ]}
        >
          <Input inputMode="tel" autoComplete="off" maxLength={20} placeholder={t('invitations.mobilePlaceholder')} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={invite.isPending}>
            {t('invitations.send')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" className="invitations-hint">
        {t('invitations.hint')}
      </Typography.Paragraph>
      <Table<Invitation>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.rows}
        pagination={pagination(list.data?.total ?? 0)}
      />
    </div>
  );
}
