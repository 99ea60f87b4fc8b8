import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { storage } from '../../lib/storage';
import { keptParams, tenantCodeOf, withKeptParams } from '../navigation';

/** Keeps the §2 query parameters on every navigation and remembers the tenant code. */
export function RootRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const kept = useRef(keptParams(location.search));

  useEffect(() => {
    const tenant = tenantCodeOf(location.search);
    if (tenant) storage.set('tenantCode', tenant);
    const missing = withKeptParams(location.search, kept.current);
    if (missing) {
      navigate(
        { pathname: location.pathname, search: missing, hash: location.hash },
        { replace: true, state: location.state },
      );
      return;
    }
    kept.current = keptParams(location.search);
  }, [location, navigate]);

  return <Outlet />;
}
