import { LOGOUT_CODES, ResultCode } from '@portal/contracts';
import { Button, Spin } from 'antd';
import { Result } from '../../components/lazy-result';
import { useTranslation } from '../../lib/i18n';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSessionData } from '../../features/shell/api/get-session-data';
import { ApiError, setStepUpHandler } from '../../lib/api/client';
import { useSession } from '../../lib/session';
import { keptParams } from '../../lib/address';
import { useTenantMismatch } from '../tenant-mismatch';
import { AntdProvider } from '../../lib/antd';
import { ShellSkeleton } from '../shell-skeleton';

// A sensitive operator action refused with 40309 asks for the factor again, then repeats (ADR 051).
setStepUpHandler(async () => (await import('../../features/factors/step-up')).askStepUp());

/**
 * Every route but the open ones: without a token, to /login with the wanted path; with one, user
 * info and menu are loaded once before the page shows (docs/product/behaviour.md#session-start).
 */
function Protected() {
  const { t } = useTranslation();
  const token = useSession((s) => s.token);
  const location = useLocation();
  const data = useSessionData(token);
  useTenantMismatch(location.search, data.data?.userInfo.tenantCode);

  if (!token) {
    const wanted = `${location.pathname}${location.search}`;
    const kept = keptParams(location.search);
    if (wanted !== '/' && !wanted.startsWith('/?')) kept.set('redirect', wanted);
    return <Navigate to={`/login${kept.size ? `?${kept}` : ''}`} replace />;
  }
  if (data.isPending) return <ShellSkeleton />;
  if (data.isError) {
    // A logout code is being handled by the client (notice, then login), and so is a password that
    // must be changed first (to its page); anything else may pass.
    if (
      data.error instanceof ApiError &&
      [...LOGOUT_CODES, ResultCode.PASSWORD_CHANGE_REQUIRED].includes(data.error.status)
    )
      return <Spin fullscreen />;
    return (
      <Result
        status="warning"
        title={t('errors.routeFailed')}
        extra={<Button onClick={() => void data.refetch()}>{t('notFound.back')}</Button>}
      />
    );
  }
  return <Outlet />;
}

/** The signed-in part of the portal, all of it in antd's theme and locale. */
export function ProtectedRoute() {
  return (
    <AntdProvider>
      <Protected />
    </AntdProvider>
  );
}
