/**
 * What the portal hands a sub-application (ADR 025, `MicroHostProps`): the session's token, user
 * and permission check, the portal's signed client, navigation into portal tabs, and logout.
 * Everything is read when called, so a long-lived sub-application never holds a stale session.
 */
import type { MicroEnvelope, MicroHostProps } from '@portal/contracts';
import { ApiError, request } from '../../lib/api/client';
import { currentLocale } from '../../lib/i18n';
import { hasPermission } from '../../lib/permissions';
import { useSession } from '../../lib/session';

export interface HostServices {
  /** Opens a portal page as a tab, with the title its tab shows. */
  navigate(path: string, title?: string): void;
  logout(): void;
}

/** The route a sub-application shows, and who listens for changes of it. */
export interface RouteChannel {
  current: string;
  listeners: Set<(route: string) => void>;
}

export function hostProps(code: string, route: RouteChannel, services: HostServices): MicroHostProps {
  return {
    code,
    get route() {
      return route.current;
    },
    onRouteChange(listener) {
      route.listeners.add(listener);
      return () => route.listeners.delete(listener);
    },
    language: currentLocale() === 'en-US' ? 'en' : 'zh',
    getToken: () => useSession.getState().token,
    user() {
      const u = useSession.getState().userInfo;
      return u ? { userId: u.userId, username: u.username, name: u.name, tenantCode: u.tenantCode } : null;
    },
    hasPermission: (permission) => hasPermission(permission, useSession.getState().menu),
    async request<T>(path: string, init: Parameters<MicroHostProps['request']>[1] = {}): Promise<MicroEnvelope<T>> {
      if (!path.startsWith('/api/')) return { status: 400, message: `not a portal API path: ${path}`, data: null as T };
      try {
        // The sub-application shows its own refusals; the portal still says what ends the session (docs/product/errors.md#result-codes).
        const data = await request<T>(path, { ...init, failures: { handledBy: code } });
        return { status: 200, message: '', data };
      } catch (err) {
        if (err instanceof ApiError) return { status: err.status, message: err.message, data: null as T };
        throw err;
      }
    },
    navigate: (path, options) => services.navigate(path, options?.title),
    logout: () => services.logout(),
  };
}
