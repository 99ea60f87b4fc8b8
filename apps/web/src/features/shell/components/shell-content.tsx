import { useContext, useLayoutEffect, useMemo } from 'react';
import { Navigate, useLocation } from 'react-router';
import { runtimeConfig } from '../../../lib/config';
import { useSession } from '../../../lib/session';
import { NO_ITEMS } from '../menu';
import { NOT_FOUND_PATH, resolvePage, tabOf } from '../pages';
import { ensureOwner, dispatchTabs, useTabs } from '../tabs/store';
import { TabPanels } from '../tabs/tab-panels';
import type { Tab } from '../tabs/tabs';
import { usePageContext } from '../use-page-context';
import { ShellViewsContext, type SubAppTabs } from '../views';
import { NotFoundView } from './not-found-view';
import { PageView } from './page-view';

/**
 * Every address inside the layout: resolved to a page of the user's menu or a fixed route, opened
 * as a tab (visited before paint, so the strip and the content never disagree), and shown with
 * the other kept tabs. Not found → /404, shown here in the shell with the kept pages mounted but
 * hidden; a directory → its first page; a redirect leaves the kept pages mounted.
 */
export function ShellContent() {
  const location = useLocation();
  const userInfo = useSession((s) => s.userInfo);
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const ctx = usePageContext();
  const resolved = useMemo(() => resolvePage(location.pathname, menu, ctx), [location.pathname, menu, ctx]);
  // A title the navigation gave the page it opens (a sub-application's page outside the menu).
  const given = (location.state as { tabTitle?: unknown } | null)?.tabTitle;

  const notFound = location.pathname === NOT_FOUND_PATH;
  // A page of another application (my workbench): named, with the switch, in place of a 404.
  const elsewhere = resolved && 'elsewhere' in resolved ? resolved.elsewhere : null;
  const { otherApplication } = useContext(ShellViewsContext);
  // Every navigation visits its tab, hence `location` in the dependencies (a new object per
  // navigation) rather than its path: the router renders addresses in a transition, so closing a
  // tab (a navigation to its neighbour) and a navigation straight back to the closed address can
  // reach this component as one render in which the path never changed; keyed on the path, the
  // closed tab would not open again and its page would never show.
  useLayoutEffect(() => {
    const page = resolved && 'page' in resolved ? resolved.page : null;
    // The not-found page opens no tab, but the saved ones are restored under it as under any page.
    if (!page && !notFound && !elsewhere) return;
    const keepAlive = runtimeConfig().keepAlive;
    // Restored tabs are checked against today's menu: gone entries are dropped, titles and
    // keep-alive are as the menu and the switch say now.
    ensureOwner(`${userInfo?.tenantCode ?? ''}:${userInfo?.userId ?? ''}`, (tab) => {
      const r = resolvePage(tab.path, menu, ctx);
      return r && 'page' in r ? tabOf(r.page, tab.path, tab.search, keepAlive) : null;
    });
    if (page) {
      const title = typeof given === 'string' ? given.slice(0, 100) : undefined;
      dispatchTabs({ type: 'visit', tab: tabOf(page, location.pathname, location.search, keepAlive, title) });
    }
  }, [resolved, notFound, elsewhere, location, given, userInfo?.tenantCode, userInfo?.userId, menu, ctx]);

  const bare = new URLSearchParams(location.search).get('iframe') === '1';
  return (
    <>
      {notFound ? (
        <NotFoundView />
      ) : elsewhere ? (
        (otherApplication?.(elsewhere) ?? <NotFoundView />)
      ) : !resolved ? (
        <Navigate to={NOT_FOUND_PATH} replace />
      ) : 'redirect' in resolved ? (
        <Navigate to={{ pathname: resolved.redirect, search: location.search }} replace />
      ) : null}
      <TabPanels bare={bare} render={renderTab} shown={!notFound && !elsewhere} />
      <SubApps shown={!notFound && !elsewhere} />
    </>
  );
}

/** The open tabs that show sub-applications' pages, handed to the layer that hosts them. */
function SubApps({ shown }: { shown: boolean }) {
  const { subApps } = useContext(ShellViewsContext);
  const { state } = useTabs();
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const ctx = usePageContext();
  const tabs = useMemo(() => {
    const found: SubAppTabs['tabs'] = [];
    for (const tab of state.tabs) {
      const r = resolvePage(tab.path, menu, ctx);
      if (r && 'page' in r && r.page.sub) found.push({ key: tab.key, ...r.page.sub });
    }
    return found;
  }, [state.tabs, menu, ctx]);
  return subApps && tabs.length > 0 ? subApps({ tabs, active: state.active, shown }) : null;
}

const renderTab = (tab: Tab) => <TabPage tab={tab} />;

function TabPage({ tab }: { tab: Tab }) {
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const ctx = usePageContext();
  const resolved = resolvePage(tab.path, menu, ctx);
  if (!resolved || !('page' in resolved)) return null;
  return <PageView page={resolved.page} tab={tab} />;
}
