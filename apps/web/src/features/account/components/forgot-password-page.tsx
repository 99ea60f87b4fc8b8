import { maskMobile } from '@portal/contracts';
import { Button, Form, Input, Result, Steps, notification } from 'antd';
import { useState, type ReactNode } from 'react';
import { ApiError, ownMessage } from '../../../lib/api/client';
import { encryptPassword } from '../../../lib/api/password';
import type { HumanCheck } from '../../../lib/human-check';
import { useTranslation } from '../../../lib/i18n';
import { mobileRule, required } from '../../../components/form-rules';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { SmsCodeField } from '../../../components/sms-code-button';
import { useHumanProof } from '../../../components/use-human-proof';
import { finishReset, requestResetCode, verifyResetCode } from '../api/account';
import { AccountCard } from './account-card';

interface Values {
  username: string;
  mobile: string;
  imgCode?: string;
  smsCode: string;
  password: string;
  repeat: string;
}

const fail = (title: string, err: unknown) => {
  const text = ownMessage(err);
  if (text) notification.error({ message: title, description: text, duration: 4 });
};

/**
 * Forgot password (`/user/alteration`): account → SMS verification with a captcha → new password
 * → done. The answers never tell whether the account exists (docs/api.md).
 */
export function ForgotPasswordPage({
  tenantCode,
  humanCheck,
  loginUrl,
  languageToggle,
}: {
  tenantCode: string;
  humanCheck: HumanCheck | undefined;
  loginUrl: string;
  languageToggle?: ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [step, setStep] = useState(0);
  const [grant, setGrant] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const human = useHumanProof(humanCheck, 'register');
  const mobile = Form.useWatch('mobile', form) ?? '';

  const sendCode = async (): Promise<boolean> => {
    try {
      const p = await human.proveWith(form, 'imgCode');
      if (!p) return false;
      await requestResetCode({
        tenantCode,
        username: (form.getFieldValue('username') as string).trim(),
        mobile: (form.getFieldValue('mobile') as string).trim(),
        imageCode: p.answer,
        number: p.key,
      });
      // As the server says: sent only if the pair is an account.
      notification.info({ message: t('account.codeMaybeSent'), duration: 3 });
      return true;
    } catch (err) {
      if (err instanceof ApiError) fail(t('forms.error'), err);
      return false;
    } finally {
      if (human.imageMode) {
        form.setFieldValue('imgCode', '');
        human.refresh();
      }
    }
  };

  const run = async (work: () => Promise<void>) => {
    setPending(true);
    try {
      await work();
    } catch (err) {
      if (err instanceof ApiError) fail(t('forms.error'), err);
    } finally {
      setPending(false);
    }
  };

  const next = () =>
    run(async () => {
      if (step === 0) {
        await form.validateFields(['username', 'mobile']);
        setStep(1);
      } else if (step === 1) {
        await form.validateFields(['smsCode']);
        const v = form.getFieldsValue(true) as Values;
        setGrant(
          await verifyResetCode({
            tenantCode,
            username: v.username.trim(),
            mobile: v.mobile.trim(),
            smsCode: v.smsCode.trim(),
          }),
        );
        setStep(2);
      } else if (step === 2) {
        await form.validateFields(['password', 'repeat']);
        await finishReset(grant!, await encryptPassword(form.getFieldValue('password') as string));
        setStep(3);
      }
    }).catch(() => undefined);

  return (
    <AccountCard title={t('account.forgotTitle')} tools={languageToggle}>
      <Steps
        className="acct-steps"
        size="small"
        current={step}
        responsive={false}
        // Titles under the numbers: four titles side by side do not fit the card (410 px at 1440).
        labelPlacement="vertical"
        items={[
          { title: t('account.stepAccount') },
          { title: t('account.stepVerify') },
          { title: t('account.stepPassword') },
          { title: t('account.stepDone') },
        ]}
      />
      {step === 3 ? (
        <Result
          status="success"
          title={t('account.done')}
          subTitle={t('account.doneText')}
          extra={
            <Button type="primary" href={loginUrl}>
              {t('account.toLogin')}
            </Button>
          }
        />
      ) : (
        <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={() => void next()}>
          <div hidden={step !== 0}>
            <Form.Item name="username" label={t('account.username')} rules={[required('forms.usernameRequired')]}>
              <Input maxLength={64} autoComplete="username" />
            </Form.Item>
            <Form.Item name="mobile" label={t('account.mobile')} rules={[mobileRule]}>
              <Input maxLength={20} inputMode="tel" autoComplete="tel" />
            </Form.Item>
          </div>
          {step === 1 ? (
            <>
              <p className="acct-note">{t('account.codeSentTo', { mobile: maskMobile(mobile.trim()) })}</p>
              {human.imageInput ? (
                <Form.Item name="imgCode" label={t('forms.imageCaptcha')}>
                  {human.imageInput}
                </Form.Item>
              ) : null}
              <SmsCodeField label={t('account.smsCode')} send={sendCode} disabled={!human.ready} />
            </>
          ) : null}
          {step === 2 ? (
            <NewPasswordFields
              form={form}
              label={t('account.newPassword')}
              repeatLabel={t('account.repeat')}
              username={() => form.getFieldValue('username') as string | undefined}
            />
          ) : null}
          <div className="acct-actions">
            {step === 1 ? <Button onClick={() => setStep(0)}>{t('account.back')}</Button> : null}
            {step === 2 ? (
              // A grant lives 10 minutes: back to the code for a new one.
              <Button
                onClick={() => {
                  setGrant(null);
                  form.setFieldValue('smsCode', '');
                  setStep(1);
                }}
              >
                {t('account.back')}
              </Button>
            ) : null}
            <Button type="primary" htmlType="submit" loading={pending}>
              {step === 2 ? t('account.submit') : t('account.next')}
            </Button>
          </div>
          <div className="acct-links">
            <a href={loginUrl}>{t('account.toLogin')}</a>
          </div>
        </Form>
      )}
      {human.dialog}
    </AccountCard>
  );
}
