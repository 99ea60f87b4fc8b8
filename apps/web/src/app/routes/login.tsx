import { Navigate, useLocation, useNavigate } from 'react-router';
import { LoginPage } from '../../features/auth/components/login-page';
import { useSession } from '../../lib/session';
import { LanguageToggle } from '../language-toggle';
import { keptParams, safeRedirect } from '../navigation';

/** /login and /user/login: the form, or straight home when a session already exists (spec §4). */
export function LoginRoute() {
  const token = useSession((s) => s.token);
  const location = useLocation();
  const navigate = useNavigate();
  const redirect = safeRedirect(new URLSearchParams(location.search).get('redirect'));
  const kept = keptParams(location.search).toString();
  const target = redirect ?? `/${kept ? `?${kept}` : ''}`;
  if (token) return <Navigate to={target} replace />;
  return <LoginPage onSuccess={() => navigate(target, { replace: true })} languageToggle={<LanguageToggle />} />;
}
