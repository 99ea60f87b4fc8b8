import { signOnSignIn } from '../features/auth/api/sign-on';
import { LoginPage } from '../features/auth/components/login-page';
import { useHumanCheck } from './human-check';
import { LanguageToggle } from './language-toggle';

/**
 * The sign-on server's page (/cas/login, CAS 3.0): the portal's login form, posting to the
 * sign-on server, which answers where to go (the service with its ticket).
 */
export function SignOnApp() {
  const humanCheck = useHumanCheck();
  const page = new URLSearchParams(window.location.search);
  return (
    <LoginPage
      signIn={async (values) => {
        window.location.assign(await signOnSignIn(values, page));
      }}
      languageToggle={<LanguageToggle />}
      humanCheck={humanCheck}
    />
  );
}
