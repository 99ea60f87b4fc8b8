import { OPEN_ROUTES } from '@portal/contracts';
import { Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { basename } from '../lib/config';
import { ChunkFailure } from './chunk-failure';
import { load } from './load';
import { LoginRoute } from './routes/login';
import { RootRoute } from './routes/root';
import { ShellSkeleton } from './shell-skeleton';

/**
 * Open routes (docs/product/screens.md#open-routes) need no session; the ones whose features are not built yet answer 404
 * without asking for a login. Everything else sits behind ProtectedRoute.
 */
const BUILT_OPEN_ROUTES = new Set<string>([
  '/login',
  '/user/login',
  '/404',
  '/user/register',
  '/user/alteration',
  '/user/register-result',
  '/deviceManage/devices',
  '/deviceManage/alerts',
  '/user/dashboard',
  '/workscreen',
]);

// Registration and the password pages: each its own chunk, none in the login page's bytes.
const RegisterRoute = load(() => import('./routes/register'), 'RegisterRoute');
const ForgotPasswordRoute = load(() => import('./routes/account'), 'ForgotPasswordRoute');
const ChangePasswordRoute = load(() => import('./routes/account'), 'ChangePasswordRoute');
const NotFoundRoute = load(() => import('./routes/not-found'), 'NotFoundRoute');
// The park's open device pages: a chunk of their own, loaded only there.
const DeviceManageRoute = load(() => import('./routes/devices'), 'DeviceManageRoute');
// The park at a glance and the big screen: each its own chunk, ECharts only in theirs.
const DashboardRoute = load(() => import('./routes/dashboard'), 'DashboardRoute');
const WorkScreenRoute = load(() => import('./routes/work-screen'), 'WorkScreenRoute');
// Loaded with the first protected page, so the login page carries none of it.
const ProtectedRoute = load(() => import('./routes/protected'), 'ProtectedRoute');
const SystemSignOnRoute = load(() => import('./routes/system-sign-on'), 'SystemSignOnRoute');
// The shell loads only after login, so the login page stays small.
const LayoutRoute = load(() => import('./routes/layout'), 'LayoutRoute');
const ShellContent = load(() => import('./routes/layout'), 'ShellContent');
const HomeRedirect = load(() => import('./routes/home'), 'HomeRedirect');

/** The signed-in part: the shell's outline while its code and the session load, never a blank page. */
function SignedInPart() {
  return (
    <Suspense fallback={<ShellSkeleton />}>
      <ProtectedRoute />
    </Suspense>
  );
}

/**
 * The portal's addresses under the runtime base path. Declarative routes rather than a data
 * router: the portal uses no loaders or actions, and the data router was 16 KB gzip of the login
 * page (ADR 015). Navigations run as transitions, so a page still loading keeps the one before
 * shown; a page whose code cannot load says so instead of leaving a blank page.
 */
export function AppRoutes() {
  return (
    <BrowserRouter basename={basename()}>
      <ChunkFailure>
        <Suspense>
          <Routes>
            <Route element={<RootRoute />}>
              <Route path="/login" element={<LoginRoute />} />
              <Route path="/user/login" element={<LoginRoute />} />
              <Route path="/user/register" element={<RegisterRoute />} />
              <Route path="/user/alteration" element={<ForgotPasswordRoute />} />
              <Route path="/user/register-result" element={<ChangePasswordRoute />} />
              <Route path="/deviceManage/devices" element={<DeviceManageRoute page="devices" />} />
              <Route path="/deviceManage/alerts" element={<DeviceManageRoute page="alerts" />} />
              <Route path="/user/dashboard" element={<DashboardRoute />} />
              <Route path="/workscreen" element={<WorkScreenRoute />} />
              {/*
                Signed in, the not-found page is shown inside the shell (NotFoundRoute gives way to it).
                The shell's route ends in "*": the shell renders each tab's own routes below it, which
                React Router allows only under such a path (else it warns in the console).
              */}
              <Route element={<NotFoundRoute />}>
                <Route element={<SignedInPart />}>
                  <Route element={<LayoutRoute />}>
                    <Route path="/404/*" element={<ShellContent />} />
                  </Route>
                </Route>
              </Route>
              {OPEN_ROUTES.filter((path) => !BUILT_OPEN_ROUTES.has(path)).map((path) => (
                <Route key={path} path={path} element={<Navigate to="/404" replace />} />
              ))}
              <Route element={<SignedInPart />}>
                <Route path="/front/esa/system/sso" element={<SystemSignOnRoute />} />
                <Route element={<LayoutRoute />}>
                  <Route index element={<HomeRedirect />} />
                  {/* Every other address is a tab of the shell (home, menu pages, the fixed routes). */}
                  <Route path="*" element={<ShellContent />} />
                </Route>
              </Route>
            </Route>
          </Routes>
        </Suspense>
      </ChunkFailure>
    </BrowserRouter>
  );
}
