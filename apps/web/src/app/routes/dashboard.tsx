import { useLocation } from 'react-router';
import { OpenLayout } from '../../components/open-layout';
import { useOpenDashboard } from '../../features/open-pages/api/dashboard';
import { DASHBOARD_REFRESH_MS, DashboardPage } from '../../features/open-pages/components/dashboard-page';
import { AntdProvider } from '../../lib/antd';
import { useTranslation } from '../../lib/i18n';
import { currentTenant } from '../../lib/tenant';
import { LanguageToggle } from '../language-toggle';

/** /user/dashboard: open route (docs/product/screens.md#open-routes), the park the address names at a glance. */
export function DashboardRoute() {
  const { t } = useTranslation();
  const tenantCode = currentTenant(useLocation().search);
  const dashboard = useOpenDashboard(tenantCode, DASHBOARD_REFRESH_MS);
  const title = t('openPages.dashboardTitle');
  return (
    <AntdProvider>
      <OpenLayout
        title={dashboard.data?.park ? `${dashboard.data.park} · ${title}` : title}
        languageToggle={<LanguageToggle />}
      >
        <DashboardPage data={dashboard.data} failed={dashboard.isError} />
      </OpenLayout>
    </AntdProvider>
  );
}
