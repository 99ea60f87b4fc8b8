import { lazy, Suspense, useState, type ComponentProps } from 'react';
import type { FactorChallenge } from '@portal/contracts';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { signInToPortal } from '../../features/auth/api/login';
import { signInToPortalWithPasskey } from '../../features/passkeys/api/passkeys';
import { PasskeySignIn } from '../../features/passkeys/components/passkey-sign-in';
import { challengeOf, portalCalls } from '../../features/factor-step/api';
import { LoginPage } from '../../features/auth/components/login-page';
import { runtimeConfig } from '../../lib/config';
import { setToken, useSession } from '../../lib/session';
import { currentTenant } from '../../lib/tenant';
import { useHumanCheck } from '../human-check';
import { LanguageToggle } from '../language-toggle';
import { keptParams, safeRedirect, tenantCodeOf } from '../../lib/address';

// Only a deployment with a sign-on server needs the ticket exchange; the form does not carry it.
const SignOnEntry = lazy(async () => {
  const [{ SignOnEntry: Entry }, { AntdProvider }] = await Promise.all([
    import('../../features/auth/components/sign-on-entry'),
    import('../../lib/antd'),
  ]);
  return {
    default: (props: ComponentProps<typeof Entry>) => (
      <AntdProvider>
        <Entry {...props} />
      </AntdProvider>
    ),
  };
});

// The second step of a sign-in (ADR 051): loaded only when the server asks for it.
const FactorStep = lazy(async () => ({ default: (await import('../../features/factor-step/factor-step')).FactorStep }));

function StandaloneLogin({ target, otherSession }: { target: string; otherSession: string | null }) {
  const navigate = useNavigate();
  const [challenge, setChallenge] = useState<FactorChallenge | null>(null);
  const humanCheck = useHumanCheck();
  const { t } = useTranslation();
  const location = useLocation();
  const tenantCode = tenantCodeOf(location.search);
  const q = tenantCode ? `?tenantCode=${encodeURIComponent(tenantCode)}` : '';
  return (
    <LoginPage
      signIn={async (values) => {
        try {
          await signInToPortal(values);
        } catch (err) {
          const asked = challengeOf(err);
          if (!asked) throw err;
          setChallenge(asked);
          return;
        }
        navigate(target, { replace: true });
      }}
      step={
        challenge ? (
          <Suspense>
            <FactorStep
              challenge={challenge}
              calls={portalCalls((token) => {
                setToken(token);
                navigate(target, { replace: true });
              })}
              onBack={() => setChallenge(null)}
            />
          </Suspense>
        ) : undefined
      }
      languageToggle={<LanguageToggle />}
      humanCheck={humanCheck}
      context={otherSession ? t('login.otherSession', { code: otherSession }) : undefined}
      alternatives={
        <PasskeySignIn
          signIn={async () => {
            await signInToPortalWithPasskey();
            navigate(target, { replace: true });
          }}
        />
      }
      links={
        <>
          <Link to={`/user/alteration${q}`}>{t('account.forgot')}</Link>
          <Link to={`/user/register${q}`}>{t('login.register')}</Link>
        </>
      }
    />
  );
}

/**
 * /login and /user/login (docs/product/behaviour.md#sign-on): straight on with a stored session; otherwise the sign-on
 * server when one is configured, else the standalone form. A session of another tenant than the
 * address names is not gone on with (that would ask about the mismatch and log every tab out): the
 * tenant's login is shown beside it, untouched until someone signs in there
 * (docs/product/behaviour.md#tenant-mismatch).
 */
export function LoginRoute() {
  const token = useSession((s) => s.token);
  const sessionTenant = useSession((s) => s.userInfo?.tenantCode) || null;
  const location = useLocation();
  const navigate = useNavigate();
  const redirect = safeRedirect(new URLSearchParams(location.search).get('redirect'));
  const kept = keptParams(location.search).toString();
  const target = redirect ?? `/${kept ? `?${kept}` : ''}`;
  const named = tenantCodeOf(location.search);
  const otherSession = token && sessionTenant && named && named !== sessionTenant ? sessionTenant : null;
  if (token && !otherSession) return <Navigate to={target} replace />;
  if (runtimeConfig().ssoUrl) {
    return (
      <Suspense>
        <SignOnEntry
          tenantCode={currentTenant(location.search)}
          onSignedIn={() => navigate(target, { replace: true })}
        />
      </Suspense>
    );
  }
  return <StandaloneLogin target={target} otherSession={otherSession} />;
}
