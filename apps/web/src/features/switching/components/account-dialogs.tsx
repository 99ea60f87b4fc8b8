import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, message, Modal, Tag, Typography } from 'antd';
import { useState } from 'react';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { personNameRule, required } from '../../../components/form-rules';
import { SmsCodeField } from '../../../components/sms-code-button';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { getOwnMobile, proveOwnMobile, sendOwnMobileCode, updateNickName, updatePassword } from '../api/account';
import { warn } from './warn';
import '../../../components/forms.css';
import './switching.css';

export function PasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ oldPwd: string; password: string; repeat: string }>();
  const [pending, setPending] = useState(false);
  const user = useSession((s) => s.userInfo);
  return (
    <Modal
      open
      title={t('switching.password')}
      onCancel={onClose}
      okButtonProps={{ loading: pending }}
      onOk={async () => {
        // docs/product/errors.md#dialogs: the dialog warns when no user is known.
        if (!user) return void message.warning(t('switching.noUser'));
        const v = await form.validateFields().catch(() => null);
        if (!v) return;
        setPending(true);
        try {
          await updatePassword(v.oldPwd, v.password);
          void message.success(t('switching.passwordChanged'));
          onClose();
        } catch (err) {
          warn(err);
        } finally {
          setPending(false);
        }
      }}
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="oldPwd" label={t('account.oldPassword')} rules={[required('account.oldRequired')]}>
          <Input.Password maxLength={64} autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields
          form={form}
          label={t('account.newPassword')}
          repeatLabel={t('account.repeat')}
          username={() => user?.username}
        />
      </Form>
    </Modal>
  );
}

export function NicknameDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.userInfo);
  const [form] = Form.useForm<{ nickName: string }>();
  const [pending, setPending] = useState(false);
  return (
    <Modal
      open
      title={t('switching.accountSetting')}
      onCancel={onClose}
      okButtonProps={{ loading: pending }}
      onOk={async () => {
        const v = await form.validateFields().catch(() => null);
        if (!v || !user) return;
        setPending(true);
        try {
          await updateNickName(user.userId, v.nickName.trim());
          void message.success(t('switching.saved'));
          onClose();
        } catch (err) {
          warn(err);
        } finally {
          setPending(false);
        }
      }}
    >
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ nickName: user?.name ?? '' }}>
        <Form.Item
          name="nickName"
          label={t('switching.nickname')}
          rules={[required('switching.nicknameRequired'), personNameRule(32)]}
        >
          <Input maxLength={32} />
        </Form.Item>
      </Form>
      <OwnMobileSection />
    </Modal>
  );
}

/**
 * The account's mobile number and whether it is verified. Enterprise invitations go to a number,
 * and only a number proven by a text message to it is taken up (ADR 023), so an unverified one
 * says so and offers the code. It never says whether an invitation exists: whoever typed in
 * someone else's number must not learn that an enterprise invited it.
 */
function OwnMobileSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const own = useQuery({ queryKey: ['own-mobile'], queryFn: getOwnMobile });
  const [form] = Form.useForm<{ smsCode: string }>();
  const [pending, setPending] = useState(false);
  if (!own.data) return null;
  const { mobile, verified } = own.data;
  const send = async () => {
    try {
      await sendOwnMobileCode();
      void message.success(t('forms.smsSent'));
      return true;
    } catch (err) {
      warn(err);
      return false;
    }
  };
  const prove = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setPending(true);
    try {
      await proveOwnMobile(v.smsCode.trim());
      void message.success(t('switching.mobileVerifiedDone'));
      await queryClient.invalidateQueries({ queryKey: ['own-mobile'] });
    } catch (err) {
      warn(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <section className="own-mobile" aria-label={t('switching.mobile')}>
      <div className="own-mobile-head">
        <span className="own-mobile-label">{t('switching.mobile')}</span>
        {mobile ? (
          <>
            <span className="own-mobile-number">{mobile}</span>
            <Tag color={verified ? 'success' : 'warning'}>
              {t(verified ? 'switching.mobileVerified' : 'switching.mobileUnverified')}
            </Tag>
          </>
        ) : (
          <Typography.Text type="secondary">{t('switching.mobileNone')}</Typography.Text>
        )}
      </div>
      {mobile && !verified && (
        <>
          <Typography.Paragraph type="secondary" className="own-mobile-hint">
            {t('switching.mobileHint')}
          </Typography.Paragraph>
          <Form form={form} layout="vertical" requiredMark={false} onFinish={prove}>
            <SmsCodeField label={t('switching.mobileCode')} send={send} />
            <Button htmlType="submit" loading={pending}>
              {t('switching.mobileVerify')}
            </Button>
          </Form>
        </>
      )}
    </section>
  );
}
