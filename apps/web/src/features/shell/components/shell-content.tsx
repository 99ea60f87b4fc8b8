import { useLayoutEffect, useMemo } from 'react';
import { Navigate, useLocation } from 'react-router';
import { runtimeConfig } from '../../../lib/config';
import { useSession } from '../../../lib/session';
import { resolvePage, tabOf } from '../pages';
import { ensureOwner, dispatchTabs } from '../tabs/store';
import { TabPanels } from '../tabs/tab-panels';
import type { Tab } from '../tabs/tabs';
import { usePageContext } from '../use-page-context';
import { PageView } from './page-view';

/**
 * Every address inside the layout: resolved to a page of the user's menu or a fixed route, opened
 * as a tab (visited before paint, so the strip and the content never disagree), and shown with
 * the other kept tabs. Not found → /404; a directory → its first page.
 */
export function ShellContent() {
  const location = useLocation();
  const userInfo = useSession((s) => s.userInfo);
  const menu = useSession((s) => s.menu?.menu);
  const ctx = usePageContext();
  const resolved = useMemo(
    () => resolvePage(location.pathname, menu ?? [], ctx),
    // ctx is read from storage and config, stable within a session
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [location.pathname, menu, ctx.jzh, ctx.appCode, ctx.workbenchCode],
  );

  useLayoutEffect(() => {
    if (!resolved || !('page' in resolved)) return;
    ensureOwner(`${userInfo?.tenantCode ?? ''}:${userInfo?.userId ?? ''}`);
    dispatchTabs({
      type: 'visit',
      tab: tabOf(resolved.page, location.pathname, location.search, runtimeConfig().keepAlive),
    });
  }, [resolved, location.pathname, location.search, userInfo?.tenantCode, userInfo?.userId]);

  if (!resolved) return <Navigate to="/404" replace />;
  if ('redirect' in resolved) return <Navigate to={{ pathname: resolved.redirect, search: location.search }} replace />;
  const bare = new URLSearchParams(location.search).get('iframe') === '1';
  return <TabPanels bare={bare} render={(tab) => <TabPage tab={tab} />} />;
}

function TabPage({ tab }: { tab: Tab }) {
  const menu = useSession((s) => s.menu?.menu ?? []);
  const ctx = usePageContext();
  const resolved = resolvePage(tab.path, menu, ctx);
  if (!resolved || !('page' in resolved)) return null;
  return <PageView page={resolved.page} tab={tab} />;
}
