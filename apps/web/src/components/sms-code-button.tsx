import { LIMITS } from '@portal/contracts';
import { Button, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { required } from './form-rules';

/**
 * 获取验证码 with the 60 s countdown of docs/product/behaviour.md#sms-button: `send` resolves true once a code went out (the
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

/** The SMS code field (`smsCode`, checked on blur: 请输入验证码) with its button beside it. */
export function SmsCodeField({
  label,
  send,
  disabled,
}: {
  label: string;
  send: () => Promise<boolean>;
  disabled?: boolean;
}) {
  return (
    <Form.Item label={label} required>
      <div className="sms-row">
        <Form.Item name="smsCode" noStyle rules={[required('forms.smsRequired')]} validateTrigger="onBlur">
          <Input maxLength={6} inputMode="numeric" autoComplete="one-time-code" aria-label={label} />
        </Form.Item>
        <SmsCodeButton send={send} disabled={disabled} />
      </div>
    </Form.Item>
  );
}
