import { checkUsername, isValidPhone, LIMITS } from '@portal/contracts';
import { Alert, Button, Form, Input, Result, Segmented, notification } from 'antd';
import { useState, type ReactNode } from 'react';
import { ApiError, ownMessage } from '../../../lib/api/client';
import { encryptPassword } from '../../../lib/api/password';
import { runtimeConfig } from '../../../lib/config';
import { useDocumentTitle, useSiteName } from '../../../lib/site';
import type { HumanCheck } from '../../../lib/human-check';
import { useTranslation } from '../../../lib/i18n';
import { agreementRule, mobileRule, personNameRule, required, usernameRule } from '../../../components/form-rules';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { SmsCodeField } from '../../../components/sms-code-button';
import { useRedirectCountdown } from '../../../components/use-redirect-countdown';
import { useHumanProof } from '../../../components/use-human-proof';
import { afterRegisterUrl, loginLinkUrl, type RegisterLayout } from '../after-register';
import { registerCompany, registerMember, sendPhoneCode, usernameAvailable } from '../api/register';
import { AgreementCheckbox } from './agreement';
import { IndustryPicker, RegionPicker } from './pickers';
import './register-page.css';
import '../messages';

export type RegisterVariant = 'company' | 'member';

export interface RegisterPageProps {
  variant: RegisterVariant;
  onVariant: (v: RegisterVariant) => void;
  layout: RegisterLayout;
  tenantCode: string;
  /** Where the sign-on login returns after registration (query `service`). */
  service: string | null;
  humanCheck: HumanCheck | undefined;
  languageToggle?: ReactNode;
}

interface Values {
  companyName?: string;
  industry?: string[];
  region?: string[];
  contacts?: string;
  position?: string;
  username?: string;
  mobile: string;
  smsCode?: string;
  imgCode?: string;
  password: string;
  repeat: string;
  agreement: boolean;
}

/** Registration (docs/product/screens.md#registration-screen, docs/product/behaviour.md#sms-button, docs/product/validation.md#registration, docs/product/errors.md#registration): a company with its first member, or a member. */
export function RegisterPage({
  variant,
  onVariant,
  layout,
  tenantCode,
  service,
  humanCheck,
  languageToggle,
}: RegisterPageProps) {
  const { t } = useTranslation();
  const cfg = runtimeConfig();
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState(false);
  const human = useHumanProof(humanCheck, 'register');
  const smsOn = cfg.notsms && !cfg.registerWithoutSms;
  const site = useSiteName();
  useDocumentTitle(t('register.title'));
  const target = afterRegisterUrl(cfg, tenantCode, service);

  // 注册成功, then the login after 3 s (docs/product/behaviour.md#register-result, docs/product/limits.md#timers).
  const { left, start } = useRedirectCountdown(target);

  const refreshCaptcha = () => {
    form.setFieldValue('imgCode', '');
    human.refresh();
  };

  /** The image's answer, or a passed slider. */
  const proof = () => human.proveWith(form, 'imgCode');

  // docs/product/behaviour.md#sms-button: the number first, then the captcha, then the code; the button counts down only if sent.
  const sendCode = async (): Promise<boolean> => {
    try {
      await form.validateFields(['mobile']);
      const p = await proof();
      if (!p) return false;
      await sendPhoneCode({
        phone: (form.getFieldValue('mobile') as string).trim(),
        type: LIMITS.smsTypeRegistration,
        imageCode: p.answer,
        number: p.key,
        tenantCode,
      });
      if (human.imageMode) refreshCaptcha();
      notification.success({ message: t('forms.smsSent'), duration: 2 });
      return true;
    } catch (err) {
      if (!(err instanceof ApiError)) return false; // a field's own message is shown under it
      if (human.imageMode) refreshCaptcha();
      if (err.shown) return false; // the one failure handler has said it (docs/product/errors.md#result-codes: 500, 40303)
      // docs/product/errors.md#registration: a refusal is 注册失败 with the server's message; a failed transport 错误 for 4 s.
      if (err.status === 0) {
        notification.error({ message: t('forms.error'), description: err.message || t('errors.network'), duration: 4 });
      } else {
        notification.error({ message: t('register.failed'), description: err.message, duration: 4 });
      }
      return false;
    }
  };

  const submit = async (v: Values) => {
    let p: Awaited<ReturnType<typeof proof>> = null;
    if (!smsOn) {
      p = await proof().catch(() => null);
      if (!p) return;
    }
    setPending(true);
    try {
      const common = {
        tenantCode,
        password: await encryptPassword(v.password),
        mobile: v.mobile.trim(),
        ...(smsOn ? { smsCode: v.smsCode?.trim() } : { imgCode: p?.answer, number: p?.key }),
        hostUrl: window.location.href.split('?')[0],
      };
      if (variant === 'company') {
        await registerCompany({
          ...common,
          companyName: v.companyName!.trim(),
          industryCode: v.industry!.at(-1)!,
          country: v.region!.at(-1)!,
          contacts: v.contacts!.trim(),
          position: v.position!.trim(),
        });
      } else {
        await registerMember({ ...common, username: v.username!.trim() });
      }
      start(LIMITS.redirectAfterRegisterSeconds);
    } catch (err) {
      const text = ownMessage(err);
      if (text) notification.error({ message: t('register.failed'), description: text, duration: 2 });
      refreshCaptcha();
    } finally {
      setPending(false);
    }
  };

  const body =
    left !== null ? (
      <Result
        status="success"
        title={t('register.success')}
        subTitle={t('register.successRedirect', { seconds: Math.max(left, 0) })}
        extra={
          <Button type="primary" href={target}>
            {t('register.goNow')}
          </Button>
        }
      />
    ) : (
      <>
        <Segmented
          block
          className="reg-variant"
          value={variant}
          onChange={(v) => onVariant(v as RegisterVariant)}
          options={[
            { value: 'company', label: t('register.company') },
            { value: 'member', label: t('register.member') },
          ]}
        />
        {humanCheck?.kind === 'unknown' ? (
          <Alert
            type="warning"
            showIcon
            message={t('forms.checkUnknown')}
            action={
              <Button size="small" onClick={humanCheck.retry}>
                {t('login.retry')}
              </Button>
            }
          />
        ) : null}
        <Form<Values>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => void submit(v)}
          scrollToFirstError
          validateTrigger={['onChange', 'onBlur']}
          initialValues={{ agreement: false }}
        >
          {variant === 'company' ? (
            <>
              <Form.Item
                name="companyName"
                label={t('register.companyName')}
                rules={[required('forms.companyRequired')]}
              >
                <Input maxLength={128} autoComplete="organization" />
              </Form.Item>
              <Form.Item name="industry" label={t('register.industry')} rules={[required('forms.industryRequired')]}>
                <IndustryPicker />
              </Form.Item>
              <Form.Item name="region" label={t('register.region')} rules={[required('forms.regionRequired')]}>
                <RegionPicker />
              </Form.Item>
              <div className="reg-pair">
                <Form.Item
                  name="contacts"
                  label={t('register.contacts')}
                  rules={[required('forms.contactRequired'), personNameRule()]}
                >
                  <Input maxLength={64} autoComplete="name" />
                </Form.Item>
                <Form.Item name="position" label={t('register.position')} rules={[required('forms.positionRequired')]}>
                  <Input maxLength={64} autoComplete="organization-title" />
                </Form.Item>
              </div>
            </>
          ) : (
            <Form.Item
              name="username"
              label={t('register.username')}
              validateTrigger={['onChange', 'onBlur']}
              rules={[
                required('forms.usernameRequired'),
                usernameRule,
                {
                  // Asked on blur only: one call per name the person settles on, not per keystroke.
                  validateTrigger: 'onBlur',
                  validator: async (_, v: string | undefined) => {
                    // As the server keeps it; a name the grammar refuses is usernameRule's to say.
                    const { value: name, problem } = checkUsername(v ?? '');
                    if (!name || problem) return;
                    // A mobile number is a name only for its owner (the server's rule, ADR 010).
                    if (isValidPhone(name, cfg.phonePattern)) {
                      if (name === (form.getFieldValue('mobile') as string | undefined)?.trim()) return;
                      throw new Error(t('register.usernameIsMobile'));
                    }
                    const free = await usernameAvailable(name, tenantCode).catch(() => true);
                    if (!free) throw new Error(t('register.usernameTaken'));
                  },
                },
              ]}
            >
              <Input maxLength={64} autoComplete="username" />
            </Form.Item>
          )}
          <Form.Item name="mobile" label={t('register.mobile')} rules={[mobileRule]}>
            <Input maxLength={20} inputMode="tel" autoComplete="tel" />
          </Form.Item>
          {human.imageInput ? (
            // Needed by the register button only when it is the proof (SMS off); else by the SMS button.
            <Form.Item
              name="imgCode"
              label={t('forms.imageCaptcha')}
              rules={smsOn ? [] : [required('forms.imageCaptchaRequired')]}
            >
              {human.imageInput}
            </Form.Item>
          ) : null}
          {smsOn ? <SmsCodeField label={t('register.smsCode')} send={sendCode} disabled={!human.ready} /> : null}
          <NewPasswordFields
            form={form}
            label={t('register.password')}
            repeatLabel={t('register.repeat')}
            username={() => form.getFieldValue(variant === 'company' ? 'mobile' : 'username') as string | undefined}
          />
          <Form.Item name="agreement" valuePropName="value" rules={[agreementRule]}>
            <AgreementCheckbox tenantCode={tenantCode} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={pending} disabled={!human.ready}>
            {t('register.submit')}
          </Button>
          <div className="reg-login-link">
            <a href={loginLinkUrl(cfg, tenantCode)}>{t('register.hasAccount')}</a>
          </div>
        </Form>
        {human.dialog}
      </>
    );

  return (
    <div className={`reg-page reg-layout-${layout}`}>
      {layout === 'banner' ? (
        <header className="reg-banner">
          <div className="reg-banner-inner">
            {cfg.logo ? <img src={cfg.logo} alt="" className="reg-logo" /> : null}
            <span className="reg-banner-site">{site}</span>
            <span className="reg-banner-tagline">{t('register.tagline')}</span>
            <span className="reg-banner-tools">{languageToggle}</span>
          </div>
        </header>
      ) : null}
      {layout === 'split' ? (
        <section className="reg-brand" aria-hidden="true">
          <div>
            {cfg.logo ? <img src={cfg.logo} alt="" className="reg-logo" /> : null}
            <h2>{site}</h2>
            <p>{t('register.tagline')}</p>
          </div>
        </section>
      ) : null}
      <main className="reg-main">
        <div className="reg-card">
          {layout === 'card' ? <div className="reg-card-site">{site}</div> : null}
          <div className="reg-head">
            <h1>{t('register.title')}</h1>
            {layout === 'banner' ? null : languageToggle}
          </div>
          {body}
        </div>
      </main>
    </div>
  );
}
