import { useLocation, useNavigate } from 'react-router';
import { SystemSignOn } from '../../features/auth/components/system-sign-on';

export function SystemSignOnRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <SystemSignOn
      sysCode={new URLSearchParams(location.search).get('sysCode')}
      onBack={() => navigate('/', { replace: true })}
    />
  );
}
