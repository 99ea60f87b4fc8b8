import { LIMITS } from '@portal/contracts';
import { Alert, Button, Form, Input, Result, notification } from 'antd';
import { useState, type ReactNode } from 'react';
import { ownMessage } from '../../../lib/api/client';
import { encryptPassword } from '../../../lib/api/password';
import type { HumanCheck } from '../../../lib/human-check';
import { useTranslation } from '../../../lib/i18n';
import { required } from '../../../components/form-rules';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { useRedirectCountdown } from '../../../components/use-redirect-countdown';
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
  temporaryOf,
}: {
  tenantCode: string;
  humanCheck: HumanCheck | undefined;
  loginUrl: string;
  forgotUrl: string;
  languageToggle?: ReactNode;
  /**
   * The account whose temporary password the sign-on server would not sign in with (ADR 033): the
   * page says why it is here, with the name filled in.
   */
  temporaryOf?: string | undefined;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState(false);
  const human = useHumanProof(humanCheck, 'login');
  const temporary = temporaryOf !== undefined;

  const { left, start } = useRedirectCountdown(loginUrl);

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
      start(LIMITS.redirectAfterRegisterSeconds);
    } catch (err) {
      const text = ownMessage(err);
      if (text) notification.error({ message: t('forms.error'), description: text, duration: 4 });
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
        <Form<Values>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={temporary ? { username: temporaryOf } : undefined}
          onFinish={(v) => void submit(v)}
        >
          {temporary ? (
            <Alert className="acct-notice" type="info" showIcon message={t('account.temporaryNotice')} />
          ) : null}
          <Form.Item name="username" label={t('account.username')} rules={[required('forms.usernameRequired')]}>
            <Input maxLength={64} autoComplete="username" />
          </Form.Item>
          <Form.Item
            name="oldPwd"
            label={t(temporary ? 'account.temporaryPassword' : 'account.oldPassword')}
            rules={[required('account.oldRequired')]}
          >
            <Input.Password maxLength={64} autoComplete="current-password" />
          </Form.Item>
          <NewPasswordFields
            form={form}
            label={t('account.newPassword')}
            repeatLabel={t('account.repeat')}
            username={() => form.getFieldValue('username') as string | undefined}
          />
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
