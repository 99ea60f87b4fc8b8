/**
 * The step-up dialog (ADR 051, docs/product/security-policy.md#step-up): a sensitive operator
 * action answered 40309, so the person proves their authenticator's code (or, without a factor,
 * their password) and the action is repeated. Loaded only when first needed.
 */
import type { MyFactors } from '@portal/contracts';
import { Input, Modal, message } from 'antd';
import { request, messageOf } from '../../lib/api/client';
import { encryptPassword } from '../../lib/api/password';
import { i18n } from '../../lib/i18n';

const quiet = { handledBy: 'the step-up dialog, which shows the message itself' };

/** Opens the dialog; true once the session is stepped up, false when the person cancels. */
export async function askStepUp(): Promise<boolean> {
  const t = i18n.t.bind(i18n);
  const mine = await request<MyFactors>('/api/front/security/factors', { failures: quiet }).catch(() => null);
  const withCode = (mine?.factors ?? []).some((f) => f.kind === 'totp');
  let value = '';
  return new Promise((resolve) => {
    Modal.confirm({
      title: t('stepUp.title'),
      content: (
        <div>
          <p>{withCode ? t('stepUp.leadCode') : t('stepUp.leadPassword')}</p>
          {withCode ? (
            <Input
              autoFocus
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              aria-label={t('stepUp.code')}
              placeholder={t('stepUp.code')}
              onChange={(e) => (value = e.target.value)}
            />
          ) : (
            <Input.Password
              autoFocus
              autoComplete="current-password"
              aria-label={t('stepUp.password')}
              placeholder={t('stepUp.password')}
              onChange={(e) => (value = e.target.value)}
            />
          )}
        </div>
      ),
      okText: t('stepUp.ok'),
      cancelText: t('stepUp.cancel'),
      onOk: async () => {
        try {
          await request('/api/front/security/step-up', {
            body: withCode ? { kind: 'totp', code: value.trim() } : { password: await encryptPassword(value) },
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
