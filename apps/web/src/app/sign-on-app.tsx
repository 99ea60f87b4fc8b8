import { useTranslation } from '../lib/i18n';
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
export function SignOnApp() {
  const { t, i18n } = useTranslation();
  const humanCheck = useHumanCheck();
  const page = new URLSearchParams(window.location.search);
  const tenantCode = meta('sso-tenant-code') ?? tenantCodeOf(window.location.search) ?? '';
  const tenantName = (i18n.language === 'en-US' && meta('sso-tenant-name-en')) || meta('sso-tenant-name');
  return (
    <LoginPage
      signIn={async (values) => {
        window.location.assign(await signOnSignIn(values, page, tenantCode));
      }}
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
