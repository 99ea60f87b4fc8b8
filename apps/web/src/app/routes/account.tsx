import { useLocation } from 'react-router';
import { signOut } from '../../features/auth/api/logout';
import { ChangePasswordPage } from '../../features/account/components/change-password-page';
import { ForgotPasswordPage } from '../../features/account/components/forgot-password-page';
import { OwnPasswordPage } from '../../features/account/components/own-password-page';
import { safeRedirect } from '../../lib/address';
import { basename } from '../../lib/config';
import { useSession } from '../../lib/session';
import { currentTenant } from '../../lib/tenant';
import { useHumanCheck } from '../human-check';
import { LanguageToggle } from '../language-toggle';
import { AntdProvider } from '../../lib/antd';

function useAccountContext() {
  const location = useLocation();
  const tenantCode = currentTenant(location.search);
  const base = basename().replace(/\/$/, '');
  const q = `?tenantCode=${encodeURIComponent(tenantCode)}`;
  return {
    tenantCode,
    humanCheck: useHumanCheck(),
    loginUrl: `${base}/login${q}`,
    forgotUrl: `${base}/user/alteration${q}`,
    languageToggle: <LanguageToggle />,
  };
}

/** /user/alteration (docs/product/screens.md#lazy-pages: forgot password, steps 1–4). */
export function ForgotPasswordRoute() {
  const { forgotUrl: _, ...props } = useAccountContext();
  return (
    <AntdProvider>
      <ForgotPasswordPage {...props} />
    </AntdProvider>
  );
}

/**
 * Where the sign-on page sends a person whose temporary password it would not sign in with, to come
 * back to after the change: its own address only (never another site).
 */
const signOnPage = (back: string | null) =>
  back && /^\/cas\/login(\?|$)/.test(back) && safeRedirect(back) ? back : null;

/**
 * /user/register-result, the change-password page. With `required=1` and a session, the
 * session's password is one someone else set and must be replaced before anything else (ADR 033):
 * the change with the session, then on to `redirect` inside the portal. Otherwise the change with
 * the account, its password and the captcha, without a session.
 */
export function ChangePasswordRoute() {
  const props = useAccountContext();
  const location = useLocation();
  const token = useSession((s) => s.token);
  const q = new URLSearchParams(location.search);
  const required = q.get('required') === '1';
  if (required && token) {
    const base = basename().replace(/\/$/, '');
    const target = safeRedirect(q.get('redirect')) ?? '/';
    return (
      <AntdProvider>
        <OwnPasswordPage
          // A full load: the session's profile and menu are read afresh, now that they are open to it.
          onDone={() => window.location.replace(`${base}${target}`)}
          signOut={() => void signOut()}
          languageToggle={props.languageToggle}
        />
      </AntdProvider>
    );
  }
  const back = signOnPage(q.get('back'));
  return (
    <AntdProvider>
      <ChangePasswordPage
        {...props}
        loginUrl={back ?? props.loginUrl}
        temporaryOf={required ? (q.get('username') ?? '') : undefined}
      />
    </AntdProvider>
  );
}
