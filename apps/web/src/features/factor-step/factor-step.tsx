/**
 * The second step of a sign-in (ADR 051, docs/product/security-policy.md#sign-in), loaded only when
 * the server asks for it (40308): the authenticator's code or a recovery code, "remember this
 * browser", or — for a person who must add a factor — adding an authenticator right here. Plain
 * React and the login page's own styles (no antd on the login page); every control is reachable and
 * usable by keyboard.
 */
import type { FactorChallenge, TotpEnrolment } from '@portal/contracts';
import { useId, useState } from 'react';
import { messageOf } from '../../lib/api/client';
import { useTranslation } from '../../lib/i18n';
import type { FactorStepCalls } from './api';
import './factor-step.css';

export interface FactorStepProps {
  challenge: FactorChallenge;
  calls: FactorStepCalls;
  /** Back to the password form (a new sign-in). */
  onBack: () => void;
}

export function FactorStep({ challenge, calls, onBack }: FactorStepProps) {
  const { t } = useTranslation();
  const id = useId();
  const [kind, setKind] = useState<'totp' | 'recovery'>(challenge.factors.includes('totp') ? 'totp' : 'recovery');
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
  const submit = () => {
    const value = code.trim();
    if (!value) {
      setRefusal(t('factor.codeRequired'));
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

  const codeField = (
    <div className="login-field">
      <label className="login-label" htmlFor={`${id}-code`}>
        {kind === 'recovery' && !enrolling ? t('factor.recoveryLabel') : t('factor.codeLabel')}
      </label>
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
    </div>
  );

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
          <p className="factor-step-lead">{kind === 'totp' ? t('factor.leadTotp') : t('factor.leadRecovery')}</p>
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
        {!enrolling && challenge.factors.includes('recovery') && challenge.factors.includes('totp') ? (
          <button
            type="button"
            className="factor-step-link"
            onClick={() => {
              setKind(kind === 'totp' ? 'recovery' : 'totp');
              setCode('');
              setRefusal(null);
            }}
          >
            {kind === 'totp' ? t('factor.useRecovery') : t('factor.useTotp')}
          </button>
        ) : null}
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
