/**
 * The step-up dialog (ADR 051, docs/product/security-policy.md#step-up): a sensitive operator
 * action answered 40309, so the person proves a factor again — a passkey, their authenticator's
 * code, an SMS code sent to their verified mobile, or a recovery code (or, without a factor, their
 * password) — and the action is repeated. Loaded only when first needed.
 */
import { LIMITS, type StepUpFactors, type StepUpPasskey } from '@portal/contracts';
import { Button, Input, Modal, Segmented, Space, message } from 'antd';
import { useEffect, useState } from 'react';
import { request, messageOf } from '../../lib/api/client';
import { encryptPassword } from '../../lib/api/password';
import { addMessages, i18n, useTranslation } from '../../lib/i18n';

// The dialog's texts travel in its own chunk.
addMessages('stepUp', {
  'zh-CN': {
    title: '请再次验证身份',
    leadCode: '此操作较为敏感，请输入身份验证器中的 6 位验证码。',
    leadPassword: '此操作较为敏感，请输入你的登录密码。',
    leadPasskey: '此操作较为敏感，请使用通行密钥或验证码再次验证。',
    usePasskey: '使用通行密钥验证',
    passkeyCancelled: '通行密钥验证未完成，请重试或改用验证码。',
    leadSms: '此操作较为敏感，请输入发送到 {{mobile}} 的短信验证码。',
    method: '验证方式',
    kindTotp: '身份验证器',
    kindSms: '短信验证码',
    kindRecovery: '恢复码',
    smsSend: '发送验证码',
    smsResend: '{{seconds}} 秒后重新发送',
    code: '动态验证码',
    password: '登录密码',
    ok: '验证',
    cancel: '取消',
  },
  'en-US': {
    title: 'Confirm it is you',
    leadCode: 'This action is sensitive: enter the 6-digit code of your authenticator app.',
    leadPassword: 'This action is sensitive: enter your password.',
    leadPasskey: 'This action is sensitive: confirm with a passkey or a code.',
    usePasskey: 'Use a passkey',
    passkeyCancelled: 'The passkey check did not finish: try again or use a code.',
    leadSms: 'This action is sensitive: enter the SMS code sent to {{mobile}}.',
    method: 'Method',
    kindTotp: 'Authenticator app',
    kindSms: 'SMS code',
    kindRecovery: 'Recovery code',
    smsSend: 'Send code',
    smsResend: 'Send again in {{seconds}} s',
    code: 'Code',
    password: 'Password',
    ok: 'Confirm',
    cancel: 'Cancel',
  },
});

const quiet = { handledBy: 'the step-up dialog, which shows the message itself' };

type CodeKind = 'totp' | 'sms' | 'recovery';
const CODE_KINDS: readonly CodeKind[] = ['totp', 'sms', 'recovery'];

/** What the dialog's OK button sends: the chosen kind and what was typed. */
interface Answer {
  kind: CodeKind | null;
  value: string;
}

function StepUpForm({ offer, answer, onPasskey }: { offer: StepUpFactors; answer: Answer; onPasskey: () => void }) {
  const { t } = useTranslation();
  const kinds = CODE_KINDS.filter((k) => offer.factors.includes(k));
  const [kind, setKind] = useState<CodeKind | null>(answer.kind);
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  const choose = (k: CodeKind) => {
    setKind(k);
    answer.kind = k;
  };
  const sendSms = async () => {
    setSending(true);
    try {
      const sent = await request<{ resendSeconds: number }>('/api/front/security/step-up/sms', {
        body: {},
        failures: quiet,
      });
      setLeft(sent.resendSeconds || LIMITS.smsCountdownSeconds);
    } catch (err) {
      void message.error(messageOf(err));
    } finally {
      setSending(false);
    }
  };
  if (kind === null && offer.factors.includes('webauthn')) {
    return (
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        <p style={{ margin: 0 }}>{t('stepUp.leadPasskey')}</p>
        <Button block type="primary" autoFocus onClick={onPasskey}>
          {t('stepUp.usePasskey')}
        </Button>
      </Space>
    );
  }
  if (kind === null) {
    return (
      <div>
        <p>{t('stepUp.leadPassword')}</p>
        <Input.Password
          autoFocus
          autoComplete="current-password"
          aria-label={t('stepUp.password')}
          placeholder={t('stepUp.password')}
          onChange={(e) => (answer.value = e.target.value)}
        />
      </div>
    );
  }
  const lead = offer.factors.includes('webauthn')
    ? t('stepUp.leadPasskey')
    : kind === 'sms'
      ? t('stepUp.leadSms', { mobile: offer.mobile ?? '' })
      : t('stepUp.leadCode');
  const label =
    kind === 'sms' ? t('stepUp.kindSms') : kind === 'recovery' ? t('stepUp.kindRecovery') : t('stepUp.code');
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <p style={{ margin: 0 }}>{lead}</p>
      {offer.factors.includes('webauthn') ? (
        <Button block type="primary" ghost onClick={onPasskey}>
          {t('stepUp.usePasskey')}
        </Button>
      ) : null}
      {kinds.length > 1 ? (
        <Segmented
          block
          aria-label={t('stepUp.method')}
          value={kind}
          onChange={(v) => choose(v as CodeKind)}
          options={kinds.map((k) => ({
            value: k,
            label: k === 'totp' ? t('stepUp.kindTotp') : k === 'sms' ? t('stepUp.kindSms') : t('stepUp.kindRecovery'),
          }))}
        />
      ) : null}
      {kind === 'sms' && offer.factors.includes('webauthn') ? (
        <p style={{ margin: 0 }}>{t('stepUp.leadSms', { mobile: offer.mobile ?? '' })}</p>
      ) : null}
      <Space.Compact style={{ width: '100%' }}>
        <Input
          key={kind}
          autoFocus
          inputMode={kind === 'recovery' ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          maxLength={kind === 'recovery' ? 16 : 7}
          aria-label={label}
          placeholder={label}
          onChange={(e) => (answer.value = e.target.value)}
        />
        {kind === 'sms' ? (
          <Button loading={sending} disabled={left > 0} onClick={() => void sendSms()}>
            {left > 0 ? t('stepUp.smsResend', { seconds: left }) : t('stepUp.smsSend')}
          </Button>
        ) : null}
      </Space.Compact>
    </Space>
  );
}

/** Opens the dialog; true once the session is stepped up, false when the person cancels. */
export async function askStepUp(): Promise<boolean> {
  const t = i18n.t.bind(i18n);
  const offer = await request<StepUpFactors>('/api/front/security/step-up', { failures: quiet }).catch(
    (): StepUpFactors => ({ factors: [], mobile: null }),
  );
  const answer: Answer = { kind: CODE_KINDS.find((k) => offer.factors.includes(k)) ?? null, value: '' };
  // Only passkeys: the dialog's own button is the passkey's.
  const onlyPasskey = answer.kind === null && offer.factors.includes('webauthn');
  return new Promise((resolve) => {
    // A passkey answers at once: the options, the browser's prompt, the check; then the dialog closes.
    const onPasskey = async () => {
      try {
        const [{ startAuthentication }, asked] = await Promise.all([
          import('@simplewebauthn/browser'),
          request<StepUpPasskey>('/api/front/security/step-up/passkey', { body: {}, failures: quiet }),
        ]);
        let assertion: Record<string, unknown>;
        try {
          assertion = (await startAuthentication({
            optionsJSON: asked.options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
          })) as unknown as Record<string, unknown>;
        } catch {
          throw new Error(t('stepUp.passkeyCancelled'));
        }
        await request('/api/front/security/step-up', {
          body: { kind: 'webauthn', challenge: asked.challenge, assertion },
          failures: quiet,
        });
        dialog.destroy();
        resolve(true);
      } catch (err) {
        void message.error(messageOf(err));
      }
    };
    const dialog = Modal.confirm({
      title: t('stepUp.title'),
      icon: null,
      content: <StepUpForm offer={offer} answer={answer} onPasskey={() => void onPasskey()} />,
      okText: t('stepUp.ok'),
      okButtonProps: onlyPasskey ? { style: { display: 'none' } } : {},
      cancelText: t('stepUp.cancel'),
      onOk: async () => {
        try {
          await request('/api/front/security/step-up', {
            body:
              answer.kind === null
                ? { password: await encryptPassword(answer.value) }
                : { kind: answer.kind, code: answer.value.trim() },
            failures: quiet,
          });
          resolve(true);
        } catch (err) {
          void message.error(messageOf(err));
          // Rejected: the dialog stays open for another try.
          throw err;
        }
      },
      onCancel: () => resolve(false),
    });
  });
}
