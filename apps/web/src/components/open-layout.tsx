import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { runtimeConfig } from '../lib/config';
import { useTranslation } from '../lib/i18n';
import { useSession } from '../lib/session';
import { useDocumentTitle, useSiteName } from '../lib/site';
import './open-layout.css';
import '../locales/devices';

/** The open pages (docs/product/screens.md#open-routes) a visitor moves between; the work screen is a display of its own. */
const PAGES = [
  { path: '/user/dashboard', key: 'openPages.dashboardTitle' },
  { path: '/deviceManage/devices', key: 'devices.devicesTitle' },
  { path: '/deviceManage/alerts', key: 'devices.alertsTitle' },
] as const;

/**
 * The frame of the park's open pages (docs/product/screens.md#open-routes: open without a session): the site's name, the
 * pages, the language switch, and a way to sign in or back to the portal. Shared by the route
 * modules of the dashboard and the device pages.
 */
export function OpenLayout({
  title,
  languageToggle,
  children,
}: {
  title: string;
  languageToggle: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const site = useSiteName();
  const location = useLocation();
  const signedIn = useSession((s) => s.token !== null);
  useDocumentTitle(title);
  const logo = runtimeConfig().logo;
  return (
    <Layout className="open-page">
      <header className="open-header">
        <span className="open-brand">
          {logo ? <img src={logo} alt="" /> : null}
          {site}
        </span>
        <nav className="open-nav" aria-label={t('devices.nav')}>
          {PAGES.map((p) => (
            <Link
              key={p.path}
              to={{ pathname: p.path, search: location.search }}
              aria-current={location.pathname === p.path ? 'page' : undefined}
            >
              {t(p.key)}
            </Link>
          ))}
        </nav>
        <span className="open-actions">
          {languageToggle}
          <Link to={signedIn ? '/index' : `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`}>
            {signedIn ? t('devices.toPortal') : t('devices.signIn')}
          </Link>
        </span>
      </header>
      <main className="open-main">
        <h1 className="open-title">{title}</h1>
        {children}
      </main>
    </Layout>
  );
}
