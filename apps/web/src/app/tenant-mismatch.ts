import { useEffect } from 'react';
import { useTranslation } from '../lib/i18n';
import { signOut } from '../features/auth/api/logout';
import { confirm } from '../lib/feedback';
import { tenantCodeOf } from '../lib/address';
import { keepTenant } from '../lib/tenant';

// Codes the user chose to stay despite, for this page's life: asked once each.
const dismissed = new Set<string>();

/**
 * docs/product/behaviour.md#tenant-mismatch: an address naming another tenant than the session's asks 租户编码不一致，您已被登出请重新登陆;
 * confirm logs out (through the sign-on server when there is one) towards that tenant's login,
 * cancel stays.
 */
export function useTenantMismatch(search: string, sessionTenant: string | undefined): void {
  const { t } = useTranslation();
  const wanted = tenantCodeOf(search);
  useEffect(() => {
    if (!wanted || !sessionTenant || wanted === sessionTenant || dismissed.has(wanted)) return;
    dismissed.add(wanted);
    confirm({
      title: t('signOn.tenantMismatch'),
      okText: t('errors.relogin'),
      cancelText: t('errors.stay'),
      onOk: () => {
        keepTenant(wanted);
        void signOut();
      },
      onCancel: () => keepTenant(sessionTenant),
    });
  }, [wanted, sessionTenant, t]);
}
