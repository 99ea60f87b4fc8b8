import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { storage } from '../../lib/storage';
import { CONTEXT_CODES, keptParams, withKeptParams } from '../../lib/address';
import { rememberTenant } from '../../lib/tenant';

/** The tenant code and the context codes of an address (a benchCode fixes the workbench, ADR 011). */
function remember(search: string): void {
  rememberTenant(search);
  const q = new URLSearchParams(search);
  for (const key of CONTEXT_CODES) {
    const v = q.get(key);
    if (v) storage.set(key, v);
  }
}

/** Keeps the docs/product/screens.md#kept-parameters query parameters on every navigation and remembers what the address brings. */
export function RootRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const kept = useRef(keptParams(location.search));
  // Before the first render's children ask for the session's data, which these codes filter.
  useState(() => remember(location.search));

  useEffect(() => {
    remember(location.search);
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
