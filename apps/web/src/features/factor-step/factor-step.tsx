/**
 * The second step of a sign-in (ADR 051, docs/product/security-policy.md#sign-in), loaded only when
 * the server asks for it (40308): a passkey, the authenticator's code, an SMS code sent to the
 * person's verified mobile, or a recovery code, "remember this browser", or — for a person who must
 * add a factor — adding an authenticator right here, whose recovery codes are shown once before the
 * sign-in goes on. Plain
 * React and the login page's own styles (no antd on the login page); every control is reachable and
 * usable by keyboard.
 */
import { LIMITS, type FactorChallenge, type TotpEnrolment } from '@portal/contracts';
import { useEffect, useId, useState } from 'react';
import { messageOf } from '../../lib/api/client';
import { useTranslation } from '../../lib/i18n';
import type { FactorStepCalls } from './api';
import './messages';
import './factor-step.css';

export interface FactorStepProps {
  challenge: FactorChallenge;
  calls: FactorStepCalls;
  /** Back to the password form (a new sign-in). */
  onBack: () => void;
}

type CodeKind = 'totp' | 'sms' | 'recovery';
const CODE_KINDS: readonly CodeKind[] = ['totp', 'sms', 'recovery'];

/** The recovery codes of the authenticator just added: copy, download, then the sign-in goes on. */
function RecoveryCodesStep({ codes, onContinue }: { codes: string[]; onContinue: () => Promise<void> }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${t('factor.recoveryFile')}.txt`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="login-form factor-step" role="group" aria-label={t('factor.recoveryTitle')}>
      <h2 className="login-title" style={{ fontSize: 18 }}>
        {t('factor.recoveryTitle')}
      </h2>
      <p className="factor-step-lead">{t('factor.recoveryLead')}</p>
      <pre className="factor-step-codes" aria-label={t('factor.recoveryTitle')} tabIndex={0}>
        {text}
      </pre>
      <div className="factor-step-row">
        <button
          type="button"
          className="login-button factor-step-secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(text).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? t('factor.copied') : t('factor.copy')}
        </button>
        <button type="button" className="login-button factor-step-secondary" onClick={download}>
          {t('factor.download')}
        </button>
      </div>
      {refusal ? (
        <div className="login-refusal" role="alert">
          {refusal}
        </div>
      ) : null}
      <button
        type="button"
        className="login-button login-submit"
        aria-busy={pending}
        disabled={pending}
        onClick={() => {
          setPending(true);
          setRefusal(null);
          onContinue()
            .catch((err: unknown) => setRefusal(messageOf(err)))
            .finally(() => setPending(false));
        }}
      >
        {t('factor.continue')}
      </button>
    </div>
  );
}

export function FactorStep({ challenge, calls, onBack }: FactorStepProps) {
  const { t } = useTranslation();
  const id = useId();
  const codeKinds = CODE_KINDS.filter((k) => challenge.factors.includes(k));
  const [kind, setKind] = useState<CodeKind>(codeKinds[0] ?? 'recovery');
  const [smsLeft, setSmsLeft] = useState(0);
  const [smsSentTo, setSmsSentTo] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  useEffect(() => {
    if (smsLeft <= 0) return;
    const timer = setTimeout(() => setSmsLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [smsLeft]);
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);

  const run = async (work: () => Promise<void>) => {
    setPending(true);
    setRefusal(null);
    try {
      await work();
    } catch (err) {
      setRefusal(messageOf(err));
      setCode('');
    } finally {
      setPending(false);
    }
  };
  const enrolling = challenge.enrol;
  const withPasskey = !enrolling && challenge.factors.includes('webauthn');
  // One of the person's passkeys answers the step: the WebAuthn code loads only when pressed.
  const usePasskey = () =>
    void run(async () => {
      const [{ startAuthentication }, optionsJSON] = await Promise.all([
        import('@simplewebauthn/browser'),
        calls.passkeyOptions(challenge.challenge),
      ]);
      let assertion: Record<string, unknown>;
      try {
        assertion = (await startAuthentication({
          optionsJSON: optionsJSON as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
        })) as unknown as Record<string, unknown>;
      } catch {
        throw new Error(t('factor.passkeyCancelled'));
      }
      await calls.answer({
        challenge: challenge.challenge,
        kind: 'webauthn',
        assertion,
        ...(remember ? { remember: true } : {}),
      });
    });
  const sendSms = () =>
    void run(async () => {
      const sent = await calls.sms(challenge.challenge);
      setSmsSentTo(sent.mobile);
      setSmsLeft(sent.resendSeconds || LIMITS.smsCountdownSeconds);
      // The button is disabled now: the keyboard goes on in the code field.
      document.getElementById(`${id}-code`)?.focus();
    });
  const submit = () => {
    const value = code.trim();
    if (!value) {
      setRefusal(t('factor.codeRequired'));
      return;
    }
    if (enrolling) {
      // The authenticator added here: its first code confirms it, then its recovery codes are shown.
      void run(async () => {
        const { recoveryCodes: codes } = await calls.confirmEnrol(challenge.challenge, value);
        if (codes) setRecoveryCodes(codes);
        else await calls.answer({ challenge: challenge.challenge, kind: 'totp' });
      });
      return;
    }
    void run(() =>
      calls.answer({
        challenge: challenge.challenge,
        kind: enrolling ? 'totp' : kind,
        code: value,
        ...(remember && !enrolling ? { remember: true } : {}),
      }),
    );
  };

  if (recoveryCodes) {
    return (
      <RecoveryCodesStep
        codes={recoveryCodes}
        onContinue={() => calls.answer({ challenge: challenge.challenge, kind: 'totp' })}
      />
    );
  }

  const smsKind = kind === 'sms' && !enrolling;
  const label =
    kind === 'recovery' && !enrolling
      ? t('factor.recoveryLabel')
      : smsKind
        ? t('factor.smsLabel')
        : t('factor.codeLabel');
  const codeInput = (
    <input
      id={`${id}-code`}
      className="login-input"
      style={{ paddingLeft: 12 }}
      autoFocus
      autoComplete="one-time-code"
      inputMode={kind === 'recovery' && !enrolling ? 'text' : 'numeric'}
      maxLength={kind === 'recovery' ? 16 : 7}
      value={code}
      aria-invalid={refusal ? true : undefined}
      aria-describedby={refusal ? `${id}-refusal` : undefined}
      onChange={(e) => setCode(e.target.value)}
    />
  );
  const codeField = (
    <div className="login-field">
      <label className="login-label" htmlFor={`${id}-code`}>
        {label}
      </label>
      {smsKind ? (
        <div className="factor-step-row">
          {codeInput}
          <button
            type="button"
            className="login-button factor-step-secondary factor-step-send"
            disabled={pending || smsLeft > 0}
            onClick={sendSms}
          >
            {smsLeft > 0 ? t('factor.smsResend', { seconds: smsLeft }) : t('factor.smsSend')}
          </button>
        </div>
      ) : (
        codeInput
      )}
    </div>
  );
  const lead =
    kind === 'totp'
      ? t('factor.leadTotp')
      : kind === 'sms'
        ? smsSentTo
          ? t('factor.smsSent', { mobile: smsSentTo })
          : t('factor.leadSms', { mobile: challenge.mobile ?? '' })
        : t('factor.leadRecovery');

  return (
    <form
      className="login-form factor-step"
      aria-label={t('factor.title')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 className="login-title" style={{ fontSize: 18 }}>
        {enrolling ? t('factor.enrolTitle') : t('factor.title')}
      </h2>
      {challenge.factorsReset ? <p className="factor-step-lead">{t('factor.reset')}</p> : null}
      {enrolling ? (
        enrolment ? (
          <>
            <p className="factor-step-lead">{t('factor.scan')}</p>
            <img className="factor-step-qr" src={enrolment.qr} alt={t('factor.qrAlt')} />
            <code className="factor-step-secret" aria-label={t('factor.manualKey')}>
              {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
            {codeField}
          </>
        ) : (
          <p className="factor-step-lead">
            {challenge.graceDaysLeft
              ? t('factor.enrolGrace', { days: challenge.graceDaysLeft })
              : t('factor.enrolRequired')}
          </p>
        )
      ) : (
        <>
          {withPasskey ? (
            <>
              <p className="factor-step-lead">{t('factor.leadPasskey')}</p>
              <button
                type="button"
                className="login-button login-submit"
                aria-busy={pending}
                disabled={pending}
                onClick={usePasskey}
              >
                {t('factor.usePasskey')}
              </button>
            </>
          ) : null}
          <p className="factor-step-lead" aria-live="polite">
            {lead}
          </p>
          {codeField}
          {challenge.rememberDays > 0 ? (
            <label className="factor-step-remember">
              <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
              {t('factor.remember', { days: challenge.rememberDays })}
            </label>
          ) : null}
        </>
      )}
      {refusal ? (
        <div className="login-refusal" role="alert" id={`${id}-refusal`}>
          {refusal}
        </div>
      ) : null}
      {enrolling && !enrolment ? (
        <button
          type="button"
          className="login-button login-submit"
          aria-busy={pending}
          disabled={pending}
          onClick={() =>
            void run(async () => setEnrolment(await calls.enrol(challenge.challenge, t('factor.defaultName'))))
          }
        >
          {t('factor.addAuthenticator')}
        </button>
      ) : (
        <button type="submit" className="login-button login-submit" aria-busy={pending} disabled={pending}>
          {pending ? <span className="login-spinner" aria-hidden="true" /> : null}
          {t('factor.verify')}
        </button>
      )}
      <div className="factor-step-links">
        <button type="button" className="factor-step-link" onClick={onBack}>
          {t('factor.back')}
        </button>
        {!enrolling
          ? codeKinds
              .filter((k) => k !== kind)
              .map((k) => (
                <button
                  key={k}
                  type="button"
                  className="factor-step-link"
                  onClick={() => {
                    setKind(k);
                    setCode('');
                    setRefusal(null);
                  }}
                >
                  {k === 'totp' ? t('factor.useTotp') : k === 'sms' ? t('factor.useSms') : t('factor.useRecovery')}
                </button>
              ))
          : null}
        {enrolling && (challenge.graceDaysLeft ?? 0) > 0 ? (
          <button
            type="button"
            className="factor-step-link"
            disabled={pending}
            onClick={() => void run(() => calls.later(challenge.challenge))}
          >
            {t('factor.later')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
