import { Input } from 'antd';
import { useEffect } from 'react';
import { useCaptcha, useRegisterCaptcha } from '../lib/api/image-captcha';
import { captchaClientId } from '../lib/client-id';
import { useTranslation } from '../lib/i18n';
import './forms.css';

/**
 * An image captcha as a form control: the answer input and the picture; a click on it (or
 * `counter` changing) fetches a new one. `register`: the registration captcha, whose random number
 * is reported (`onKey`, a stable function) to go with the answer; `login`: the login captcha, keyed
 * by the browser's captcha client id.
 */
export function ImageCaptchaInput({
  source,
  counter,
  onRefresh,
  onKey,
  value,
  onChange,
  id,
}: {
  source: 'register' | 'login';
  counter: number;
  onRefresh: () => void;
  onKey: (key: string | undefined) => void;
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}) {
  const { t } = useTranslation();
  const register = useRegisterCaptcha(counter, source === 'register');
  const login = useCaptcha(counter, source === 'login');
  const captcha = source === 'register' ? register : login;
  const key = source === 'register' ? register.data?.number : login.data ? captchaClientId() : undefined;
  useEffect(() => onKey(key), [key, onKey]);
  return (
    <div className="captcha-row">
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        maxLength={8}
        autoComplete="off"
        placeholder={t('forms.imageCaptcha')}
      />
      <button type="button" className="captcha-image" onClick={onRefresh} title={t('login.captchaAlt')}>
        {captcha.data ? (
          <img src={captcha.data.image} alt={t('login.captchaAlt')} width={120} height={40} />
        ) : (
          <span>{captcha.isError ? t('login.captchaFailed') : '…'}</span>
        )}
      </button>
    </div>
  );
}
