import { OPEN_ROUTES } from '@portal/contracts';
import { createBrowserRouter, Navigate } from 'react-router';
import { basename } from '../lib/config';
import { LoginRoute } from './routes/login';
import { RootRoute } from './routes/root';

/**
 * Open routes (spec §2) need no session; the ones whose features are not built yet answer 404
 * without asking for a login. Everything else sits behind ProtectedRoute.
 */
const BUILT_OPEN_ROUTES = new Set<string>([
  '/login',
  '/user/login',
  '/404',
  '/user/register',
  '/user/alteration',
  '/user/register-result',
]);

export function createRouter() {
  return createBrowserRouter(
    [
      {
        element: <RootRoute />,
        children: [
          { path: '/login', element: <LoginRoute /> },
          { path: '/user/login', element: <LoginRoute /> },
          // Registration and the password pages: each its own chunk, none in the login page's bytes.
          {
            path: '/user/register',
            lazy: async () => ({ Component: (await import('./routes/register')).RegisterRoute }),
          },
          {
            path: '/user/alteration',
            lazy: async () => ({ Component: (await import('./routes/account')).ForgotPasswordRoute }),
          },
          {
            path: '/user/register-result',
            lazy: async () => ({ Component: (await import('./routes/account')).ChangePasswordRoute }),
          },
          { path: '/404', lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }) },
          ...OPEN_ROUTES.filter((path) => !BUILT_OPEN_ROUTES.has(path)).map((path) => ({
            path,
            element: <Navigate to="/404" replace />,
          })),
          {
            // Loaded with the first protected page, so the login page carries none of it.
            lazy: async () => ({ Component: (await import('./routes/protected')).ProtectedRoute }),
            children: [
              {
                path: '/front/esa/system/sso',
                lazy: async () => ({ Component: (await import('./routes/system-sign-on')).SystemSignOnRoute }),
              },
              {
                // The shell loads only after login, so the login page stays small.
                lazy: async () => ({ Component: (await import('./routes/layout')).LayoutRoute }),
                children: [
                  { index: true, lazy: async () => ({ Component: (await import('./routes/home')).HomeRedirect }) },
                  // Every other address is a tab of the shell (home, menu pages, the fixed routes).
                  { path: '*', lazy: async () => ({ Component: (await import('./routes/layout')).ShellContent }) },
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
