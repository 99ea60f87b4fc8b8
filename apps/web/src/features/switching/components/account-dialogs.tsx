import { Form, Input, message, Modal } from 'antd';
import { useState } from 'react';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { personNameRule, required } from '../../../components/form-rules';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { updateNickName, updatePassword } from '../api/account';
import { warn } from './warn';

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
        // §8: the dialog warns when no user is known.
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
    </Modal>
  );
}
