import { Alert, Button, Form, Input, notification } from 'antd';
import { useState, type ReactNode } from 'react';
import { ownMessage } from '../../../lib/api/client';
import { encryptPassword } from '../../../lib/api/password';
import { useTranslation } from '../../../lib/i18n';
import { required } from '../../../components/form-rules';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { updateOwnPassword } from '../api/account';
import { AccountCard } from './account-card';

interface Values {
  oldPwd: string;
  password: string;
  repeat: string;
}

/**
 * `/user/register-result?required=1` with a session whose password someone else set (the
 * bootstrap, an operator; ADR 033): the server lets that session do nothing but this change and a
 * logout. The person types the password they were given and one of their own, then goes on to
 * where they were headed (`onDone`), signed in.
 */
export function OwnPasswordPage({
  onDone,
  signOut,
  languageToggle,
}: {
  onDone: () => void;
  signOut: () => void;
  languageToggle?: ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState(false);

  const submit = async (v: Values) => {
    setPending(true);
    try {
      await updateOwnPassword(await encryptPassword(v.oldPwd), await encryptPassword(v.password));
      onDone();
    } catch (err) {
      const text = ownMessage(err);
      if (text) notification.error({ message: t('forms.error'), description: text, duration: 4 });
      setPending(false);
    }
  };

  return (
    <AccountCard title={t('account.ownTitle')} tools={languageToggle}>
      <Alert className="acct-notice" type="info" showIcon message={t('account.ownNotice')} />
      <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
        <Form.Item name="oldPwd" label={t('account.temporaryPassword')} rules={[required('account.oldRequired')]}>
          <Input.Password maxLength={64} autoComplete="current-password" autoFocus />
        </Form.Item>
        <NewPasswordFields
          form={form}
          label={t('account.newPassword')}
          repeatLabel={t('account.repeat')}
          username={() => undefined}
        />
        <Button type="primary" htmlType="submit" block size="large" loading={pending}>
          {t('account.ownSubmit')}
        </Button>
        <div className="acct-links">
          <Button type="link" size="small" onClick={signOut}>
            {t('account.signOut')}
          </Button>
        </div>
      </Form>
    </AccountCard>
  );
}
