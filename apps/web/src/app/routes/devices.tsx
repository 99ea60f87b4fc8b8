import { useLocation } from 'react-router';
import { OpenLayout } from '../../components/open-layout';
import { AlertsPage } from '../../features/devices/components/alerts-page';
import { DevicesPage } from '../../features/devices/components/devices-page';
import { AntdProvider } from '../../lib/antd';
import { useTranslation } from '../../lib/i18n';
import { currentTenant } from '../../lib/tenant';
import { LanguageToggle } from '../language-toggle';
import '../../locales/devices';

/** /deviceManage/devices and /deviceManage/alerts: open routes (docs/product/screens.md#open-routes), for the tenant the address names. */
export function DeviceManageRoute({ page }: { page: 'devices' | 'alerts' }) {
  const { t } = useTranslation();
  const tenantCode = currentTenant(useLocation().search);
  return (
    <AntdProvider>
      <OpenLayout
        title={t(page === 'devices' ? 'devices.devicesTitle' : 'devices.alertsTitle')}
        languageToggle={<LanguageToggle />}
      >
        {page === 'devices' ? <DevicesPage tenantCode={tenantCode} /> : <AlertsPage tenantCode={tenantCode} />}
      </OpenLayout>
    </AntdProvider>
  );
}
