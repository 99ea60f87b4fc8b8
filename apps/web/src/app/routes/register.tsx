import { LIMITS } from '@portal/contracts';
import { useLocation, useNavigate } from 'react-router';
import { registerLayout } from '../../features/register/after-register';
import { RegisterPage, type RegisterVariant } from '../../features/register/components/register-page';
import { runtimeConfig } from '../../lib/config';
import { currentTenant } from '../../lib/tenant';
import { useHumanCheck } from '../human-check';
import { LanguageToggle } from '../language-toggle';
import { AntdProvider } from '../../lib/antd';

/** /user/register: the company form, or the member form with `type=member` (ADR 010). */
export function RegisterRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  // docs/product/limits.md#captcha: the registration's captcha image is 400×200 (the login's 310×155).
  const humanCheck = useHumanCheck(LIMITS.captcha.registerFrameWidth);
  const params = new URLSearchParams(location.search);
  const cfg = runtimeConfig();
  const tenantCode = currentTenant(location.search);
  const variant: RegisterVariant = params.get('type') === 'member' ? 'member' : 'company';
  return (
    <AntdProvider>
      <RegisterPage
        key={variant}
        variant={variant}
        onVariant={(v) => {
          const next = new URLSearchParams(location.search);
          if (v === 'member') next.set('type', 'member');
          else next.delete('type');
          navigate({ search: next.toString() }, { replace: true });
        }}
        layout={registerLayout(cfg)}
        tenantCode={tenantCode}
        service={params.get('service')}
        humanCheck={humanCheck}
        languageToggle={<LanguageToggle />}
      />
    </AntdProvider>
  );
}
