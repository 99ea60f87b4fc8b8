import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import { LIMITS } from '@portal/contracts';
import { Fragment, useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { runtimeConfig } from '../../../lib/config';
import { useDocumentTitle, useSiteName } from '../../../lib/site';
import { ownMessage } from '../../../lib/api/client';
import { useCaptcha } from '../../../lib/api/image-captcha';
import { SvgIcon } from '../../../components/svg-icon';
import type { LoginInput } from '../api/login';
import type { HumanCheck } from '../../../lib/human-check';
import './login-page.css';

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
  /** Links under the form (register, forgot password). */
  links?: ReactNode;
  /** Other ways to sign in, under the form (the passkey button), composed by the route. */
  alternatives?: ReactNode;
  /** A step after the password (the second factor): shown in the card in place of the form. */
  step?: ReactNode;
}

type Field = 'username' | 'password' | 'imgvercode' | 'captchaVerification';
/** The fields' messages, as translation keys: shown in the language of the moment. */
type Errors = Partial<Record<Field, string>>;

/**
 * A labelled field with its docs/product/validation.md#login message under it. The login form is plain React and plain inputs
 * rather than antd's Form and Input: it has four fields, and those two (with the form library,
 * validator and tooltip they bring) were a quarter of the login page's bytes (ADR 008).
 */
function FormField({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className={`login-field${error ? ' login-field-error' : ''}`}>
      <label className="login-label" htmlFor={id}>
        {label}
      </label>
      {children}
      <div className="login-error" id={`${id}-error`} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

/** An input with a leading icon, styled like the rest of the portal's inputs; passwords can be shown. */
function TextInput({
  icon,
  invalid,
  revealable = false,
  ...input
}: { icon: ReactNode; invalid: boolean; revealable?: boolean } & InputHTMLAttributes<HTMLInputElement>) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <span className={`login-input${invalid ? ' login-input-error' : ''}`}>
      <span className="login-input-icon" aria-hidden="true">
        {icon}
      </span>
      <input
        {...input}
        type={revealable && !shown ? 'password' : 'text'}
        aria-invalid={invalid || undefined}
        aria-describedby={`${input.id}-error`}
      />
      {revealable ? (
        <button
          type="button"
          className="login-input-reveal"
          aria-label={shown ? t('login.hidePassword') : t('login.showPassword')}
          aria-pressed={shown}
          onClick={() => setShown((v) => !v)}
        >
          <SvgIcon icon={shown ? EyeOutlined : EyeInvisibleOutlined} />
        </button>
      ) : null}
    </span>
  );
}

/** The image captcha: an answer field and the picture, which a click (or an attempt) renews. */
function ImageCaptchaField({
  counter,
  onRefresh,
  value,
  onChange,
  error,
}: {
  counter: number;
  onRefresh: () => void;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const captcha = useCaptcha(counter);
  return (
    <FormField id="imgvercode" label={t('login.captcha')} error={error}>
      <div className="login-captcha-row">
        <TextInput
          id="imgvercode"
          icon={<SvgIcon icon={SafetyCertificateOutlined} />}
          autoComplete="off"
          maxLength={8}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          invalid={Boolean(error)}
        />
        <button type="button" className="login-captcha-image" onClick={onRefresh} title={t('login.captchaAlt')}>
          {captcha.data ? (
            <img src={captcha.data.image} alt={t('login.captchaAlt')} width={120} height={40} />
          ) : (
            <span>{captcha.isError ? t('login.captchaFailed') : '…'}</span>
          )}
        </button>
      </div>
    </FormField>
  );
}

const EMPTY: LoginInput = { username: '', password: '', imgvercode: '' };

export function LoginPage({ signIn, languageToggle, humanCheck, context, links, alternatives, step }: LoginPageProps) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<LoginInput>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [counter, setCounter] = useState(0);
  // The filled form waiting for the behavioural check to pass.
  const [waiting, setWaiting] = useState<LoginInput | null>(null);
  const [pending, setPending] = useState(false);
  // docs/product/errors.md#login: the server's message for 5 s.
  const [refusal, setRefusal] = useState<string | null>(null);
  const refusalTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const formId = useId();
  const site = useSiteName();
  useDocumentTitle();
  const kind = humanCheck?.kind;

  useEffect(() => () => clearTimeout(refusalTimer.current), []);
  // The server's refusal is in the language it was asked in: a switch of language takes it away.
  const [refusalLanguage, setRefusalLanguage] = useState(i18n.language);
  if (refusal && refusalLanguage !== i18n.language) setRefusal(null);

  /** docs/product/validation.md#login for what the current captcha kind needs. */
  const validate = (v: LoginInput): Errors => {
    const e: Errors = {};
    if (!v.username.trim()) e.username = 'login.usernameRequired';
    if (!v.password) e.password = 'login.passwordRequired';
    if (kind === 'image' && !v.imgvercode?.trim()) e.imgvercode = 'login.captchaRequired';
    if (kind === 'inline' && !v.captchaVerification) e.captchaVerification = 'login.checkRequired';
    return e;
  };

  // A field shows its message again as soon as it is edited back to empty (as antd's Form does).
  const change = (field: Field, value: string | undefined) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (errors[field] !== undefined || field === 'captchaVerification') {
      setErrors((old) => ({ ...old, [field]: validate(next)[field] }));
    }
  };

  const showRefusal = (text: string) => {
    clearTimeout(refusalTimer.current);
    setRefusal(text);
    setRefusalLanguage(i18n.language);
    refusalTimer.current = setTimeout(() => setRefusal(null), LIMITS.loginErrorSeconds * 1000);
  };

  // A new captcha of either kind: the image's answer cleared, an inline check remounted.
  const refreshCaptcha = () => {
    setValues((v) => ({ ...v, imgvercode: '', captchaVerification: undefined }));
    setCounter((c) => c + 1);
  };

  const send = async (v: LoginInput) => {
    setPending(true);
    try {
      await signIn(v);
    } catch (err) {
      // A new captcha after every attempt.
      const text = ownMessage(err);
      if (text) showRefusal(text);
      refreshCaptcha();
    } finally {
      setPending(false);
    }
  };

  // A form sent before the kind is known waits too: the check opens as soon as it is (if it is one).
  // Every opening of the pop-up is a new widget (`counter`), never the last one's final state.
  const submit = (v: LoginInput) => {
    const found = validate(v);
    setErrors(found);
    const first = (Object.keys(found) as Field[])[0];
    if (first) {
      document.getElementById(first)?.focus();
      return;
    }
    if (kind === 'image' || kind === 'inline') return void send(v);
    if (kind === 'unknown') return showRefusal(t('login.checkUnknown'));
    setCounter((c) => c + 1);
    setWaiting(v);
  };

  // Sent early, and the kind turned out to be a field of the form: validate again, which names it.
  useEffect(() => {
    if (waiting && (kind === 'image' || kind === 'inline')) {
      setWaiting(null);
      submit(waiting);
    }
    // submit reads the latest values through `waiting`; it is not a dependency of its own
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, waiting]);

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
            <h1 className="login-title" id={`${formId}-title`}>
              {t('login.title')}
            </h1>
            {languageToggle}
          </div>
          {context ? <p className="login-card-context">{context}</p> : null}
          {step}
          <form
            hidden={Boolean(step)}
            className="login-form"
            aria-labelledby={`${formId}-title`}
            noValidate
            autoComplete="on"
            onSubmit={(e) => {
              e.preventDefault();
              submit(values);
            }}
          >
            <FormField id="username" label={t('login.username')} error={errors.username && t(errors.username)}>
              <TextInput
                id="username"
                icon={<SvgIcon icon={UserOutlined} />}
                autoComplete="username"
                autoFocus
                maxLength={64}
                value={values.username}
                onChange={(e) => change('username', e.target.value)}
                invalid={Boolean(errors.username)}
              />
            </FormField>
            <FormField id="password" label={t('login.password')} error={errors.password && t(errors.password)}>
              <TextInput
                id="password"
                icon={<SvgIcon icon={LockOutlined} />}
                revealable
                autoComplete="current-password"
                maxLength={128}
                value={values.password}
                onChange={(e) => change('password', e.target.value)}
                invalid={Boolean(errors.password)}
              />
            </FormField>
            {kind === 'image' ? (
              <ImageCaptchaField
                counter={counter}
                onRefresh={refreshCaptcha}
                value={values.imgvercode ?? ''}
                onChange={(v) => change('imgvercode', v)}
                error={errors.imgvercode && t(errors.imgvercode)}
              />
            ) : null}
            {humanCheck?.kind === 'inline' ? (
              <FormField
                id="captchaVerification"
                label={t('login.check')}
                error={errors.captchaVerification && t(errors.captchaVerification)}
              >
                <div
                  id="captchaVerification"
                  role="group"
                  tabIndex={-1}
                  aria-label={t('login.check')}
                  aria-describedby="captchaVerification-error"
                  // Enter sends the form here too, unless the check used it (a point marked by keyboard)
                  // or a button of it has the focus.
                  onKeyDown={(e) => {
                    if (e.key !== 'Enter' || e.defaultPrevented) return;
                    if ((e.target as HTMLElement).closest('button, a')) return;
                    e.preventDefault();
                    submit(values);
                  }}
                >
                  <Fragment key={counter}>
                    {humanCheck.render({
                      open: true,
                      onPassed: (v) => change('captchaVerification', v),
                      onCancel: () => undefined,
                    })}
                  </Fragment>
                </div>
              </FormField>
            ) : null}
            {humanCheck?.kind === 'unknown' ? (
              <div className="login-check-unknown" role="alert">
                <span>{t('login.checkUnknown')}</span>
                <button type="button" className="login-button login-button-small" onClick={humanCheck.retry}>
                  {t('login.retry')}
                </button>
              </div>
            ) : null}
            {refusal ? (
              <div className="login-refusal" role="alert">
                {refusal}
              </div>
            ) : null}
            <button type="submit" className="login-button login-submit" aria-busy={pending} disabled={pending}>
              {pending ? <span className="login-spinner" aria-hidden="true" /> : null}
              {pending ? t('login.submitting') : t('login.submit')}
            </button>
          </form>
          {step ? null : alternatives}
          {links && !step ? <div className="login-links">{links}</div> : null}
          <p className="login-notice" role="note">
            {t('login.browserNotice')}
          </p>
          {humanCheck?.kind === 'pop' ? (
            <Fragment key={counter}>
              {humanCheck.render({
                open: waiting !== null,
                onPassed: (captchaVerification) => {
                  const v = waiting;
                  setWaiting(null);
                  if (v) void send({ ...v, captchaVerification });
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
