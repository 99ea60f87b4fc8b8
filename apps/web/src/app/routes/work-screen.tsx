import { useLocation } from 'react-router';
import { WorkScreen } from '../../features/open-pages/components/work-screen';
import { currentTenant } from '../../lib/tenant';

/** /workscreen: open route (docs/product/screens.md#open-routes), the big-screen display of the park the address names; no antd. */
export function WorkScreenRoute() {
  return <WorkScreen tenantCode={currentTenant(useLocation().search)} />;
}
