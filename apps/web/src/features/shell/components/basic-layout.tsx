import { Grid, Layout } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, Outlet, useLocation } from 'react-router';
import { runtimeConfig } from '../../../lib/config';
import { useDocumentTitle, useSiteName } from '../../../lib/site';
import { useSession } from '../../../lib/session';
import { findByPath, NO_ITEMS, visibleItems } from '../menu';
import { TabStrip } from '../tabs/tab-strip';
import { layoutTheme } from '../theme';
import { ShellHeader, type ShellHeaderProps } from './shell-header';
import { SideMenu } from './side-menu';
import { TopMenu } from './top-menu';
import './basic-layout.css';

const MenuDrawer = lazy(() => import('./menu-drawer').then((m) => ({ default: m.MenuDrawer })));

export interface BasicLayoutProps {
  onLogout: () => void;
  userMenu?: ShellHeaderProps['userMenu'];
  /** Header items of other features: the language toggle, the notice bell (shown with messageIndex). */
  headerExtra?: ReactNode;
  bell?: ReactNode;
}

/**
 * Screen 3: logo and site name, the menu by theme (side, top of screen 8, or the JZH flyout), the
 * header of screen 4, the tab strip, the content and a sticky footer. Below 768 px the menu is a
 * drawer; with `iframe=1` in the address only the content shows (docs/product/screens.md#fixed-routes).
 */
export function BasicLayout({ onLogout, userMenu, headerExtra, bell }: BasicLayoutProps) {
  const { t } = useTranslation();
  const menu = useSession((s) => s.menu?.menu ?? NO_ITEMS);
  const phone = Grid.useBreakpoint().md === false;
  const location = useLocation();
  const cfg = runtimeConfig();
  const theme = layoutTheme(cfg);
  const site = useSiteName();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The phone's menu drawer loads when first opened, and stays for its closing animation.
  const [drawerUsed, setDrawerUsed] = useState(false);

  // The top theme's selected root: the one containing the current page, else the user's choice.
  const [pickedRoot, setPickedRoot] = useState<string | null>(null);
  const here = findByPath(menu, location.pathname);
  useDocumentTitle(here?.item.meta.title);
  const pathRoot = here?.trail[0]?.id ?? null;
  useEffect(() => setPickedRoot(null), [location.pathname]);
  const rootId = pickedRoot ?? pathRoot;
  const root = useMemo(() => visibleItems(menu).find((m) => m.id === rootId) ?? null, [menu, rootId]);

  useEffect(() => setDrawerOpen(false), [location.pathname]);

  if (new URLSearchParams(location.search).get('iframe') === '1') {
    return (
      <Layout className="shell shell-bare">
        <Layout.Content className="shell-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    );
  }

  const brand = (withName: boolean) => (
    <Link to={{ pathname: '/index', search: location.search }} className="shell-brand" aria-label={site}>
      {cfg.logo ? <img src={cfg.logo} alt="" /> : <span className="shell-brand-mark" aria-hidden="true" />}
      {withName ? <span className="shell-brand-name">{site}</span> : null}
    </Link>
  );

  const sider = (() => {
    if (phone) return null;
    if (theme === 'top') {
      const children = root?.children?.length ? visibleItems(root.children) : [];
      if (children.length === 0) return null;
      return (
        <Layout.Sider
          width={208}
          collapsible
          collapsed={collapsed}
          trigger={null}
          theme="light"
          className="shell-sider shell-sider-sub"
        >
          <SideMenu menu={children} whole={menu} collapsed={collapsed} theme="light" />
        </Layout.Sider>
      );
    }
    const jzh = theme === 'jzh';
    return (
      <Layout.Sider
        width={jzh ? 200 : 232}
        collapsible
        collapsed={collapsed}
        trigger={null}
        theme={jzh ? 'light' : 'dark'}
        className={`shell-sider${jzh ? ' shell-sider-jzh' : ''}`}
      >
        {brand(!collapsed)}
        <SideMenu menu={menu} collapsed={collapsed} theme={jzh ? 'light' : 'dark'} mode={jzh ? 'vertical' : 'inline'} />
      </Layout.Sider>
    );
  })();

  const onToggle = () => {
    if (phone) {
      setDrawerUsed(true);
      setDrawerOpen(true);
    } else setCollapsed((c) => !c);
  };

  const header = { onLogout, userMenu, extra: headerExtra, bell, site, phone, theme };

  return (
    <Layout className={`shell shell-${theme}`}>
      {theme === 'top' && !phone ? (
        <ShellHeader
          brand={brand(true)}
          nav={<TopMenu menu={menu} selected={root?.id ?? null} onSelect={setPickedRoot} />}
          collapsed={collapsed}
          onToggle={sider ? onToggle : undefined}
          {...header}
        />
      ) : null}
      <Layout hasSider={sider !== null}>
        {sider}
        {phone && drawerUsed ? (
          <Suspense>
            <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} title={site}>
              {brand(true)}
              <SideMenu menu={menu} collapsed={false} theme="dark" />
            </MenuDrawer>
          </Suspense>
        ) : null}
        <Layout>
          {theme !== 'top' || phone ? (
            <ShellHeader collapsed={phone ? !drawerOpen : collapsed} onToggle={onToggle} {...header} />
          ) : null}
          <TabStrip />
          <Layout.Content className="shell-content">
            <Outlet />
          </Layout.Content>
          <Layout.Footer className="shell-footer">
            {t('app.footer', { year: new Date().getFullYear(), site })}
          </Layout.Footer>
        </Layout>
      </Layout>
    </Layout>
  );
}
