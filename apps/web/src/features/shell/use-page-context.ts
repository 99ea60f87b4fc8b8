import type { MicroApp } from '@portal/contracts';
import { useMemo } from 'react';
import { runtimeConfig } from '../../lib/config';
import { useSession } from '../../lib/session';
import { storage } from '../../lib/storage';
import type { PageContext } from './pages';
import { layoutTheme } from './theme';

const NO_APPS: readonly MicroApp[] = [];

/**
 * What page resolution depends on besides the menu: theme, current application, workbench, the
 * tenant's registered applications.
 */
export function usePageContext(): PageContext {
  const userInfo = useSession((s) => s.userInfo);
  const microApps = useSession((s) => s.microApps) ?? NO_APPS;
  const jzh = layoutTheme(runtimeConfig()) === 'jzh';
  const appCode = storage.get<string>('appCode') ?? userInfo?.defaultApplyCode ?? null;
  const workbenchCode = storage.get<string>('workbenchCode');
  // One object while nothing in it changes, so pages resolved from it are memoised on it.
  return useMemo(
    () => ({ jzh, appCode, workbenchCode, microApps, origin: window.location.origin }),
    [jzh, appCode, workbenchCode, microApps],
  );
}
