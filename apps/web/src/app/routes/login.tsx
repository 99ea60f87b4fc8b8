import { lazy, Suspense } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { LoginPage, type HumanCheck } from '../../features/auth/components/login-page';
import { useCaptchaKind } from '../../features/captcha/api/behaviour-captcha';
import { runtimeConfig } from '../../lib/config';
import { useSession } from '../../lib/session';
import { LanguageToggle } from '../language-toggle';
import { keptParams, safeRedirect } from '../navigation';

// Loaded only where the server asks for it; rendering it closed (pop mode) already fetches it.
const BehaviourCaptcha = lazy(async () => ({
  default: (await import('../../features/captcha/components/behaviour-captcha')).BehaviourCaptcha,
}));

/** The server's choice of captcha (getCaptchaType), shown as configured; the image one if it cannot be asked. */
function useHumanCheck(): HumanCheck | undefined {
  const kind = useCaptchaKind();
  if (kind.isPending) return undefined;
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
          onSuccess={(answer) => onPassed(answer.captchaVerification)}
          onClose={onCancel}
        />
      </Suspense>
    ),
  };
}

/** /login and /user/login: the form, or straight home when a session already exists (spec §4). */
export function LoginRoute() {
  const token = useSession((s) => s.token);
  const location = useLocation();
  const navigate = useNavigate();
  const humanCheck = useHumanCheck();
  const redirect = safeRedirect(new URLSearchParams(location.search).get('redirect'));
  const kept = keptParams(location.search).toString();
  const target = redirect ?? `/${kept ? `?${kept}` : ''}`;
  if (token) return <Navigate to={target} replace />;
  return (
    <LoginPage
      onSuccess={() => navigate(target, { replace: true })}
      languageToggle={<LanguageToggle />}
      humanCheck={humanCheck}
    />
  );
}
