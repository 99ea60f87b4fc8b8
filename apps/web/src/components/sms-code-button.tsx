import { LIMITS } from '@portal/contracts';
import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n';

/**
 * 获取验证码 with the 60 s countdown of spec §4: `send` resolves true once a code went out (the
 * countdown starts), false when it did not (the button is ready again at once).
 */
export function SmsCodeButton({ send, disabled }: { send: () => Promise<boolean>; disabled?: boolean }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return (
    <Button
      className="sms-code-button"
      disabled={disabled || left > 0}
      loading={pending}
      onClick={async () => {
        setPending(true);
        try {
          setLeft((await send()) ? LIMITS.smsCountdownSeconds : 0);
        } finally {
          setPending(false);
        }
      }}
    >
      {left > 0 ? t('forms.smsResend', { seconds: left }) : t('forms.smsSend')}
    </Button>
  );
}
