import { request } from '../../../lib/api/client';
import { logout } from '../../../lib/session';

/** Revokes the token on the server, then clears the browser session (docs/product/behaviour.md#logout). */
export async function signOut(): Promise<void> {
  await request('/api/auth/jwt/logout', {
    method: 'POST',
    body: {},
    failures: { handledBy: 'nobody: the browser session ends whatever the server answers' },
  }).catch(() => undefined);
  logout({ signOn: true });
}
