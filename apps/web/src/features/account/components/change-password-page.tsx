import { LIMITS } from '@portal/contracts';
import { Button, Form, Input, Result, notification } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { encryptPassword } from '../../../lib/api/password';
import type { HumanCheck } from '../../../lib/human-check';
import { useTranslation } from '../../../lib/i18n';
import { passwordRule, repeatRule, required } from '../../../components/form-rules';
import { PasswordStrength } from '../../../components/password-strength';
import { useHumanProof } from '../../../components/use-human-proof';
import { changePassword } from '../api/account';
import { AccountCard } from './account-card';

interface Values {
  username: string;
  oldPwd: string;
  password: string;
  repeat: string;
  imgCode?: string;
}

/**
 * Change password (`/user/register-result`) without a session: the account and its current
 * password, proven like a login (same captcha, same one message for any refusal); every session of
 * the account ends, and the login follows after 3 s.
 */
export function ChangePasswordPage({
  tenantCode,
  humanCheck,
  loginUrl,
  forgotUrl,
  languageToggle,
}: {
  tenantCode: string;
  humanCheck: HumanCheck | undefined;
  loginUrl: string;
  forgotUrl: string;
  languageToggle?: ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState(false);
  const [left, setLeft] = useState<number | null>(null);
  const human = useHumanProof(humanCheck, 'login');
  const password = Form.useWatch('password', form) ?? '';

  useEffect(() => {
    if (left === null) return;
    if (left <= 0) return void window.location.assign(loginUrl);
    const timer = setTimeout(() => setLeft((n) => (n ?? 1) - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, loginUrl]);

  const submit = async (v: Values) => {
    const p = await human.proveWith(form, 'imgCode');
    if (!p) return;
    setPending(true);
    try {
      await changePassword({
        tenantCode,
        username: v.username.trim(),
        oldPwd: await encryptPassword(v.oldPwd),
        newPwd: await encryptPassword(v.password),
        ...(human.imageMode ? { imgvercode: p.answer, captchaKey: p.key } : { captchaVerification: p.answer }),
      });
      setLeft(LIMITS.redirectAfterRegisterSeconds);
    } catch (err) {
      notification.error({
        message: t('forms.error'),
        description: err instanceof Error ? err.message : String(err),
        duration: 4,
      });
    } finally {
      setPending(false);
      if (human.imageMode) {
        form.setFieldValue('imgCode', '');
        human.refresh();
      }
    }
  };

  return (
    <AccountCard title={t('account.changeTitle')} tools={languageToggle}>
      {left !== null ? (
        <Result
          status="success"
          title={t('account.changed')}
          subTitle={t('account.changedText', { seconds: Math.max(left, 0) })}
          extra={
            <Button type="primary" href={loginUrl}>
              {t('account.toLogin')}
            </Button>
          }
        />
      ) : (
        <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={(v) => void submit(v)}>
          <Form.Item name="username" label={t('account.username')} rules={[required('forms.usernameRequired')]}>
            <Input maxLength={64} autoComplete="username" />
          </Form.Item>
          <Form.Item name="oldPwd" label={t('account.oldPassword')} rules={[required('account.oldRequired')]}>
            <Input.Password maxLength={64} autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('account.newPassword')}
            extra={password ? <PasswordStrength password={password} /> : t('forms.passwordHint')}
            rules={[passwordRule(() => form.getFieldValue('username') as string)]}
          >
            <Input.Password maxLength={64} autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="repeat"
            label={t('account.repeat')}
            dependencies={['password']}
            rules={[repeatRule(() => form.getFieldValue('password') as string)]}
          >
            <Input.Password maxLength={64} autoComplete="new-password" />
          </Form.Item>
          {human.imageInput ? (
            <Form.Item name="imgCode" label={t('forms.imageCaptcha')} rules={[required('forms.imageCaptchaRequired')]}>
              {human.imageInput}
            </Form.Item>
          ) : null}
          <Button type="primary" htmlType="submit" block size="large" loading={pending} disabled={!human.ready}>
            {t('account.submit')}
          </Button>
          <div className="acct-links">
            <a href={forgotUrl}>{t('account.forgot')}</a> · <a href={loginUrl}>{t('account.toLogin')}</a>
          </div>
        </Form>
      )}
      {human.dialog}
    </AccountCard>
  );
}
