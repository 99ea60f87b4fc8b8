import { lazy, Suspense } from 'react';
import { useTranslation } from '../lib/i18n';
import type { HumanCheck } from '../lib/human-check';
import { useCaptchaKind } from '../features/captcha/api/behaviour-captcha';
import type { BehaviourCaptchaProps } from '../features/captcha/components/behaviour-captcha';
import { runtimeConfig } from '../lib/config';

// Loaded only where the server asks for it; rendering it closed (pop mode) already fetches it.
const BehaviourCaptcha = lazy(() =>
  Promise.all([import('../features/captcha/components/behaviour-captcha'), import('../lib/antd')]).then(
    ([{ BehaviourCaptcha: Captcha }, { AntdProvider }]) => ({
      default: (props: BehaviourCaptchaProps) => (
        <AntdProvider>
          <Captcha {...props} />
        </AntdProvider>
      ),
    }),
    // A chunk that cannot load (a new deployment, a lost connection) must not take the page down.
    () => ({ default: CaptchaUnavailable }),
  ),
);

function CaptchaUnavailable() {
  const { t } = useTranslation();
  return (
    <div className="login-check-unknown" role="alert">
      {t('login.checkChunkFailed')}
    </div>
  );
}

/**
 * The captcha a form asks for, as the server wants it (getCaptchaType) and the runtime config
 * shows it; shared by the login, the sign-on page, registration and the password pages. `width`:
 * the behavioural check's image width (310, or 400 on registration, docs/product/limits.md#captcha).
 */
export function useHumanCheck(width?: number): HumanCheck | undefined {
  const kind = useCaptchaKind();
  if (kind.isPending) return undefined;
  // Not the image captcha by default: a server that wants the behavioural one would refuse it.
  if (kind.isError) return { kind: 'unknown', retry: () => void kind.refetch() };
  if (kind.data !== 'anji') return { kind: 'image' };
  const { captchaType, captchaMode } = runtimeConfig();
  return {
    kind: captchaMode === 'fixed' ? 'inline' : 'pop',
    render: ({ open, onPassed, onCancel }) => (
      <Suspense fallback={null}>
        <BehaviourCaptcha
          mode={captchaMode}
          open={open}
          captchaType={captchaType}
          {...(width ? { width } : {})}
          onSuccess={(answer) => onPassed(answer.captchaVerification)}
          onClose={onCancel}
        />
      </Suspense>
    ),
  };
}
