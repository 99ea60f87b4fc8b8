import { createBrowserRouter, Navigate } from 'react-router';
import { HomePage } from '../features/shell/components/home-page';
import { basename } from '../lib/config';
import { HomeRedirect } from './routes/home';
import { LayoutRoute, MenuRoute } from './routes/layout';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';
import { ProtectedRoute } from './routes/protected';
import { RootRoute } from './routes/root';

/**
 * Open routes (spec §2) need no session; the ones whose features are not built yet answer 404
 * without asking for a login. Everything else sits behind ProtectedRoute.
 */
export function createRouter() {
  return createBrowserRouter(
    [
      {
        element: <RootRoute />,
        children: [
          { path: '/login', element: <LoginRoute /> },
          { path: '/user/login', element: <LoginRoute /> },
          { path: '/404', element: <NotFoundRoute /> },
          ...['/user/register', '/user/register-result', '/user/alteration', '/user/dashboard', '/workscreen', '/deviceManage/devices', '/deviceManage/alerts'].map(
            (path) => ({ path, element: <Navigate to="/404" replace /> }),
          ),
          {
            element: <ProtectedRoute />,
            children: [
              {
                element: <LayoutRoute />,
                children: [
                  { index: true, element: <HomeRedirect /> },
                  { path: '/index', element: <HomePage /> },
                  { path: '/home', element: <HomePage /> },
                  { path: '*', element: <MenuRoute /> },
                ],
              },
            ],
          },
        ],
      },
    ],
    { basename: basename() },
  );
}
