import { LockOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { LIMITS } from '@portal/contracts';
import { Alert, Button, Form, Input, message } from 'antd';
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../../../lib/config';
import { useCaptcha } from '../api/get-captcha';
import type { LoginInput } from '../api/login';
import './login-page.css';

/** What a behavioural check needs from the form: it hands back its proof, or is closed. */
export interface HumanCheckSlot {
  open: boolean;
  onPassed: (captchaVerification: string) => void;
  onCancel: () => void;
}

/**
 * How the form proves a person (the server's getCaptchaType): the image captcha field; a
 * behavioural check in a dialog that opens when the filled form is sent (`pop`); or one inline in
 * the form, to pass before sending (`inline`).
 */
export type HumanCheck =
  | { kind: 'image' }
  | { kind: 'pop' | 'inline'; render: (slot: HumanCheckSlot) => ReactNode }
  /** The server could not say which: the form cannot be sent until it can. */
  | { kind: 'unknown'; retry: () => void };

export interface LoginPageProps {
  /**
   * Signs in with the filled form and goes on (the portal: a token, then the wanted page; the
   * sign-on page: back to the service with a ticket). A refusal throws with the message to show.
   */
  signIn: (values: LoginInput) => Promise<void>;
  /** Language toggle, shown only when the runtime config allows switching. */
  languageToggle?: ReactNode;
  /** Undefined while not yet known. */
  humanCheck?: HumanCheck | undefined;
  /** A line under the title saying where the user signs in (the sign-on page: its tenant). */
  context?: string | undefined;
}

/**
 * An inline check as a form field: its value is the verification once passed. The field's id and
 * ARIA attributes (its error) go on a labelled group around the widget.
 */
function InlineCheck({
  render,
  value: _value,
  onChange,
  label,
  ...aria
}: {
  render: (slot: HumanCheckSlot) => ReactNode;
  label: string;
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}) {
  return (
    <div role="group" aria-label={label} {...aria}>
      {render({ open: true, onPassed: (v) => onChange?.(v), onCancel: () => undefined })}
    </div>
  );
}

/** The image captcha: an answer field and the picture, which a click (or an attempt) renews. */
function ImageCaptchaField({ counter, onRefresh }: { counter: number; onRefresh: () => void }) {
  const { t } = useTranslation();
  const captcha = useCaptcha(counter);
  return (
    <Form.Item label={t('login.captcha')} required>
      <div className="login-captcha-row">
        <Form.Item
          name="imgvercode"
          noStyle
          rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}
        >
          <Input
            prefix={<SafetyCertificateOutlined />}
            autoComplete="off"
            maxLength={8}
            aria-label={t('login.captcha')}
          />
        </Form.Item>
        <button type="button" className="login-captcha-image" onClick={onRefresh} title={t('login.captchaAlt')}>
          {captcha.data ? (
            <img src={captcha.data.image} alt={t('login.captchaAlt')} width={120} height={40} />
          ) : (
            <span>{captcha.isError ? t('login.captchaFailed') : '…'}</span>
          )}
        </button>
      </div>
    </Form.Item>
  );
}

export function LoginPage({ signIn, languageToggle, humanCheck, context }: LoginPageProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<LoginInput>();
  const [counter, setCounter] = useState(0);
  // The filled form waiting for the behavioural check to pass.
  const [waiting, setWaiting] = useState<LoginInput | null>(null);
  const [pending, setPending] = useState(false);
  const site = runtimeConfig().siteName || t('app.siteName');

  // A new captcha of either kind: the image's answer cleared, an inline check remounted.
  const refreshCaptcha = () => {
    form.setFieldsValue({ imgvercode: '', captchaVerification: undefined });
    setCounter((c) => c + 1);
  };

  const send = async (values: LoginInput) => {
    setPending(true);
    try {
      await signIn(values);
    } catch (err) {
      // §8: the server's message for 5 s; a new captcha after every attempt.
      void message.error(err instanceof Error ? err.message : String(err), LIMITS.loginErrorSeconds);
      refreshCaptcha();
    } finally {
      setPending(false);
    }
  };

  // A form sent before the kind is known waits too: the check opens as soon as it is (if it is one).
  // Every opening of the pop-up is a new widget (`counter`), never the last one's final state.
  const submit = (values: LoginInput) => {
    if (humanCheck?.kind === 'image' || humanCheck?.kind === 'inline') return void send(values);
    if (humanCheck?.kind === 'unknown') return void message.error(t('login.checkUnknown'));
    setCounter((c) => c + 1);
    setWaiting(values);
  };

  // Sent early, and the kind turned out to be a field of the form: validate again, which names it.
  const kind = humanCheck?.kind;
  useEffect(() => {
    if (waiting && (kind === 'image' || kind === 'inline')) {
      setWaiting(null);
      form.submit();
    }
  }, [kind, waiting, form]);

  return (
    <div className="login-page">
      <section className="login-brand" aria-hidden="true">
        <div className="login-brand-inner">
          {runtimeConfig().logo ? <img src={runtimeConfig().logo} alt="" className="login-logo" /> : null}
          <h1>{site}</h1>
          <p>{t('login.subtitle', { site })}</p>
        </div>
      </section>
      <main className="login-panel">
        <div className="login-card">
          <div className="login-card-brand">{site}</div>
          <div className="login-card-head">
            <h1 className="login-title">{t('login.title')}</h1>
            {languageToggle}
          </div>
          {context ? <p className="login-card-context">{context}</p> : null}
          <Form form={form} layout="vertical" size="large" onFinish={submit} requiredMark={false} autoComplete="on">
            <Form.Item
              name="username"
              label={t('login.username')}
              rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
            >
              <Input prefix={<UserOutlined />} autoComplete="username" autoFocus maxLength={64} />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('login.password')}
              rules={[{ required: true, message: t('login.passwordRequired') }]}
            >
              <Input.Password prefix={<LockOutlined />} autoComplete="current-password" maxLength={128} />
            </Form.Item>
            {humanCheck?.kind === 'image' ? <ImageCaptchaField counter={counter} onRefresh={refreshCaptcha} /> : null}
            {humanCheck?.kind === 'inline' ? (
              <Form.Item
                name="captchaVerification"
                label={t('login.check')}
                rules={[{ required: true, message: t('login.checkRequired') }]}
              >
                <InlineCheck key={counter} render={humanCheck.render} label={t('login.check')} />
              </Form.Item>
            ) : null}
            {humanCheck?.kind === 'unknown' ? (
              <Alert
                className="login-check-unknown"
                type="error"
                showIcon
                message={t('login.checkUnknown')}
                action={
                  <Button size="small" onClick={humanCheck.retry}>
                    {t('login.retry')}
                  </Button>
                }
              />
            ) : null}
            <Button type="primary" htmlType="submit" block loading={pending}>
              {pending ? t('login.submitting') : t('login.submit')}
            </Button>
          </Form>
          <Alert className="login-notice" type="info" showIcon message={t('login.browserNotice')} />
          {humanCheck?.kind === 'pop' ? (
            <Fragment key={counter}>
              {humanCheck.render({
                open: waiting !== null,
                onPassed: (captchaVerification) => {
                  const values = waiting;
                  setWaiting(null);
                  if (values) void send({ ...values, captchaVerification });
                },
                onCancel: () => setWaiting(null),
              })}
            </Fragment>
          ) : null}
        </div>
      </main>
    </div>
  );
}
