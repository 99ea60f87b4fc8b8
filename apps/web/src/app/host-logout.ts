import { signOut } from '../features/auth/api/logout';
import { useSession } from '../lib/session';

/**
 * docs/product/overview.md#forced-logout: a host application (micro-frontend or frame parent) forces a logout by setting the
 * global `loginstate` to false. The property becomes an accessor, so the assignment itself acts;
 * reading it still gives the last value set.
 */
export function watchHostLogout(): void {
  let value = window.loginstate;
  let done = false;
  // Only an assignment acts: a false left over from an earlier session in the same host window
  // must not log out the session that follows it. Once per page.
  Object.defineProperty(window, 'loginstate', {
    configurable: true,
    get: () => value,
    set: (next: boolean | undefined) => {
      value = next;
      if (next !== false || done || !useSession.getState().token) return;
      done = true;
      void signOut();
    },
  });
}
