import { useLocation } from 'react-router';
import { ChangePasswordPage } from '../../features/account/components/change-password-page';
import { ForgotPasswordPage } from '../../features/account/components/forgot-password-page';
import { basename } from '../../lib/config';
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

/** /user/alteration (spec §2 lazy pages: forgot password, steps 1–4). */
export function ForgotPasswordRoute() {
  const { forgotUrl: _, ...props } = useAccountContext();
  return (
    <AntdProvider>
      <ForgotPasswordPage {...props} />
    </AntdProvider>
  );
}

/** /user/register-result (spec §2: titled change password). */
export function ChangePasswordRoute() {
  const props = useAccountContext();
  return (
    <AntdProvider>
      <ChangePasswordPage {...props} />
    </AntdProvider>
  );
}
