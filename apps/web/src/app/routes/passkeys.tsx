import { Link } from 'react-router';
import { PasskeysSection } from '../../features/passkeys/components/passkeys-section';
import { AntdProvider } from '../../lib/antd';
import { useTranslation } from '../../lib/i18n';

/**
 * /security/passkeys: the person's passkeys on a page of their own, until the 账户安全 page
 * (account-security.tsx) composes the section with the others.
 */
export function PasskeysRoute() {
  const { t } = useTranslation();
  return (
    <AntdProvider>
      <main style={{ maxWidth: 880, margin: '0 auto', padding: '24px 16px' }}>
        <p style={{ margin: '0 0 16px' }}>
          <Link to="/">{t('notFound.back')}</Link>
        </p>
        <PasskeysSection />
      </main>
    </AntdProvider>
  );
}
