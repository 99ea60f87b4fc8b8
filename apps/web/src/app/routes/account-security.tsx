/**
 * 账户安全 (/account/security, from the user drop-down): the sections of the features that make up
 * the person's account security, composed here (features never import each other). Loaded with the
 * page's first opening, not with the shell.
 */
import { FactorsSection } from '../../features/factors/factors-section';
import { PasskeysSection } from '../../features/passkeys/components/passkeys-section';
import { LoginHistorySection } from '../../features/security/components/login-history-section';
import { SessionsSection } from '../../features/security/components/sessions-section';

export function AccountSecurity() {
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
      <FactorsSection />
      <PasskeysSection />
      <SessionsSection />
      <LoginHistorySection />
    </div>
  );
}
