/**
 * The signed-in session: token, user info and the role's menu. One store, read by every feature;
 * logout is here too because every failure path (docs/product/errors.md#result-codes) may end in it.
 */
import type { MenuData, MicroApp, UserInfo } from '@portal/contracts';
import { create } from 'zustand';
import { CONTEXT_CODES } from './address';
import { basename, runtimeConfig } from './config';
import { storage } from './storage';
import { keepTenant, rememberedTenant } from './tenant';

interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
  menu: MenuData | null;
  /** The tenant's registered applications (docs/product/data.md#micro-app-entry), loaded with the menu. */
  microApps: MicroApp[] | null;
  /** Menu changes announced on the live stream (ADR 046): the shell loads the menu again on each. */
  menuChanges: number;
}

export const useSession = create<SessionState>(() => ({
  token: storage.get<string>('token'),
  userInfo: storage.get<UserInfo>('userInfo'),
  menu: null,
  microApps: null,
  menuChanges: 0,
}));

export function setToken(token: string): void {
  storage.set('token', token);
  useSession.setState({ token, userInfo: null, menu: null, microApps: null });
  announce('login');
}

export function setUserInfo(userInfo: UserInfo): void {
  storage.set('userInfo', userInfo);
  if (userInfo.tenantCode) keepTenant(userInfo.tenantCode);
  useSession.setState({ userInfo });
}

export function setMenu(menu: MenuData): void {
  useSession.setState({ menu });
}

/** The tenant's menu changed (an operator's edit, announced on the live stream): load it again. */
export function menuChanged(): void {
  useSession.setState((s) => ({ menuChanges: s.menuChanges + 1 }));
}

/** docs/product/data.md#local-storage keeps the micro-app list too. */
export function setMicroApps(microApps: MicroApp[]): void {
  storage.set('microApps', microApps);
  useSession.setState({ microApps });
}

/** The login address with the tenant and context codes carried along (docs/product/behaviour.md#tenant-mismatch). */
export function loginUrl(redirect?: string, tenantCode = rememberedTenant()): string {
  const q = new URLSearchParams();
  if (tenantCode) q.set('tenantCode', tenantCode);
  for (const k of CONTEXT_CODES) {
    const v = storage.get<string>(k);
    if (v) q.set(k, v);
  }
  if (redirect) q.set('redirect', redirect);
  const base = basename() === '/' ? '' : basename();
  return `${base}/login${q.size ? `?${q}` : ''}`;
}

let loggingOut = false;

/**
 * Ends the session in the browser: clears local and session storage but the language
 * (docs/decisions/012), and reloads
 * on the login page (which drops every cache and tab). Concurrent callers share one logout. The
 * caller revokes the token on the server first when it is still valid.
 */
export function logout(opts: { returnHere?: boolean; signOn?: boolean } = {}): void {
  if (loggingOut) return;
  loggingOut = true;
  const login = loginUrl(opts.returnHere ? currentPath() : undefined);
  // Another tab has signed in since this one loaded: its session is not this tab's to end.
  const stored = storage.get<string>('token');
  const mine = useSession.getState().token;
  if (stored && mine && stored !== mine) {
    window.location.replace(login);
    return;
  }
  // A user's logout (and a tenant mismatch) ends the sign-on session too, which then sends the
  // browser back to the login address: {cas}/cas/logout?loginType=2&service={return} (docs/product/behaviour.md#logout, docs/product/calls.md#redirects).
  const sso = runtimeConfig().ssoUrl.replace(/\/$/, '');
  const target =
    opts.signOn && sso
      ? `${sso}/cas/logout?${new URLSearchParams({ loginType: '2', service: `${window.location.origin}${login}` })}`
      : login;
  storage.clearAll(['locale']);
  announce('logout');
  // The reload drops every in-memory state; resetting the store first would make the router
  // redirect to /login on its own, a second navigation racing this one.
  window.location.replace(target);
}

/** The current in-app path with its query, without the basename. */
export function currentPath(): string {
  const base = basename() === '/' ? '' : basename();
  const p = window.location.pathname.startsWith(base)
    ? window.location.pathname.slice(base.length)
    : window.location.pathname;
  return `${p || '/'}${window.location.search}`;
}

// ---- Other tabs of this browser (BroadcastChannel) -------------------------------------------

/**
 * What one tab tells the others: it logged out, or it stored a new token (a login, or any switch
 * of role, application, workbench or enterprise, each of which issues one).
 */
export type SessionEvent = 'logout' | 'login';

let channel: BroadcastChannel | null | undefined;
function sessionChannel(): BroadcastChannel | null {
  if (channel === undefined) {
    channel =
      typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(`${runtimeConfig().storagePrefix}session`);
  }
  return channel;
}

function announce(event: SessionEvent): void {
  sessionChannel()?.postMessage(event);
}

/**
 * Follows what other tabs announce, without a notice of its own, by comparing the stored token
 * with this tab's: gone (a logout elsewhere) takes this tab to its login page; a different one (a
 * login or a switch elsewhere) reloads it, so it shows the new session and nothing of the old.
 */
export function followOtherTabs(): void {
  const sync = () => {
    const stored = storage.get<string>('token');
    const mine = useSession.getState().token;
    if (loggingOut || stored === mine) return;
    if (stored) {
      window.location.reload();
      return;
    }
    // A login page shown beside another tenant's session (the console's 门户) stays: it only forgets that session.
    if (/^\/(user\/)?login(\?|$)/.test(currentPath())) {
      useSession.setState({ token: null, userInfo: null, menu: null, microApps: null });
      return;
    }
    loggingOut = true;
    sessionStorage.clear();
    window.location.replace(loginUrl(currentPath(), useSession.getState().userInfo?.tenantCode));
  };
  const ch = sessionChannel();
  if (ch) ch.onmessage = sync;
  // The storage event is the same news from the browser itself: it arrives even when the other
  // tab navigated away before its message was delivered.
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === `${runtimeConfig().storagePrefix}token`) sync();
  });
}
