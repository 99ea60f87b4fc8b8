import KeyOutlined from '@ant-design/icons-svg/es/asn/KeyOutlined';
import { LIMITS } from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { SvgIcon } from '../../../components/svg-icon';
import { ApiError } from '../../../lib/api/client';
import { useTranslation } from '../../../lib/i18n';
import { PasskeyCancelled, PasskeySignOnError, passkeysSupported } from '../api/passkeys';
import './passkey-sign-in.css';

/**
 * "使用通行密钥登录": the login page's and the sign-on page's passwordless sign-in, below the
 * password form. Plain React, as the login form is (no antd on the login page); the WebAuthn
 * library loads only when the button is pressed. Not shown where the browser has no passkeys.
 */
export function PasskeySignIn({ signIn }: { signIn: () => Promise<void> }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [note, setNote] = useState<{ text: string; alert: boolean } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  if (!passkeysSupported()) return null;

  const say = (text: string, alert: boolean) => {
    clearTimeout(timer.current);
    setNote({ text, alert });
    timer.current = setTimeout(() => setNote(null), LIMITS.loginErrorSeconds * 1000);
  };

  const start = async () => {
    setPending(true);
    setNote(null);
    try {
      await signIn();
    } catch (err) {
      if (err instanceof PasskeyCancelled) say(t('passkeys.cancelled'), false);
      else if (err instanceof ApiError || err instanceof PasskeySignOnError) {
        if (!(err instanceof ApiError && err.shown)) say(err.message, true);
      } else say(t('passkeys.failed'), true);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="passkey-sign-in">
      <div className="passkey-sign-in-or" aria-hidden="true">
        <span>{t('passkeys.or')}</span>
      </div>
      <button
        type="button"
        className="login-button passkey-sign-in-button"
        aria-busy={pending}
        disabled={pending}
        onClick={() => void start()}
      >
        {pending ? <span className="login-spinner" aria-hidden="true" /> : <SvgIcon icon={KeyOutlined} />}
        {t('passkeys.signIn')}
      </button>
      {note ? (
        <div className={note.alert ? 'login-refusal' : 'passkey-sign-in-note'} role={note.alert ? 'alert' : 'status'}>
          {note.text}
        </div>
      ) : null}
    </div>
  );
}
