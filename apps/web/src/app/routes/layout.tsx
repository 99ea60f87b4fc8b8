import { Navigate, useLocation } from 'react-router';
import { signOut } from '../../features/auth/api/logout';
import { BasicLayout } from '../../features/shell/components/basic-layout';
import { HomePage } from '../../features/shell/components/home-page';
import { MenuPage } from '../../features/shell/components/menu-page';
import { LanguageToggle } from '../language-toggle';

export function LayoutRoute() {
  return <BasicLayout onLogout={() => void signOut()} headerExtra={<LanguageToggle />} />;
}

/** Any other path inside the layout: a page of the user's menu, or /404 (spec §2). */
export function MenuRoute() {
  const { pathname } = useLocation();
  return <MenuPage path={pathname} notFound={<Navigate to="/404" replace />} />;
}

export const HomeRoute = HomePage;
