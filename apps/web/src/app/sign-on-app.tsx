import { lazy, Suspense, useState } from 'react';
import type { FactorChallenge } from '@portal/contracts';
import { useTranslation } from '../lib/i18n';
import { challengeOf, signOnCalls } from '../features/factor-step/api';
import { tenantCodeOf } from '../lib/address';
import { signOnSignIn } from '../features/auth/api/sign-on';
import { LoginPage } from '../features/auth/components/login-page';
import { signOnWithPasskey } from '../features/passkeys/api/passkeys';
import { PasskeySignIn } from '../features/passkeys/components/passkey-sign-in';
import { useHumanCheck } from './human-check';
import { LanguageToggle } from './language-toggle';

/** What the sign-on server put in the page: the tenant it signs in to (named or found by service). */
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

/**
 * The sign-on server's page (/cas/login, CAS 3.0): the portal's login form, posting to the
 * sign-on server, which answers where to go (the service with its ticket).
 */
// The second step of a sign-in (ADR 051): loaded only when the server asks for it.
const FactorStep = lazy(async () => ({ default: (await import('../features/factor-step/factor-step')).FactorStep }));

export function SignOnApp() {
  const [challenge, setChallenge] = useState<FactorChallenge | null>(null);
  const { t, i18n } = useTranslation();
  const humanCheck = useHumanCheck();
  const page = new URLSearchParams(window.location.search);
  const tenantCode = meta('sso-tenant-code') ?? tenantCodeOf(window.location.search) ?? '';
  const tenantName = (i18n.language === 'en-US' && meta('sso-tenant-name-en')) || meta('sso-tenant-name');
  return (
    <LoginPage
      signIn={async (values) => {
        let next: string;
        try {
          next = await signOnSignIn(values, page, tenantCode);
        } catch (err) {
          const asked = challengeOf(err);
          if (!asked) throw err;
          setChallenge(asked);
          return;
        }
        window.location.assign(next);
      }}
      step={
        challenge ? (
          <Suspense>
            <FactorStep
              challenge={challenge}
              calls={signOnCalls((redirect) => window.location.assign(redirect))}
              onBack={() => setChallenge(null)}
            />
          </Suspense>
        ) : undefined
      }
      languageToggle={<LanguageToggle />}
      humanCheck={humanCheck}
      context={tenantName ? t('signOn.context', { tenant: tenantName }) : undefined}
      alternatives={
        <PasskeySignIn
          signIn={async () => {
            window.location.assign(await signOnWithPasskey(page, tenantCode));
          }}
        />
      }
    />
  );
}
