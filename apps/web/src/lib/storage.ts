/**
 * Local storage under the configured prefix, with optional lifetimes (docs/product/data.md#local-storage, docs/product/limits.md#storage). Every key the
 * portal keeps is named here, so logout can clear them all and nothing else.
 */
import { LIMITS } from '@portal/contracts';
import { runtimeConfig } from './config';

export const KEYS = {
  token: 'token',
  userInfo: 'userInfo',
  benchCode: 'benchCode',
  partBench: 'partBench',
  appCode: 'appCode',
  roleCode: 'roleCode',
  tenantCode: 'tenantCode',
  microApps: 'microApps',
  locale: 'locale',
  captchaClientId: 'captchaClientId',
  openKeys: 'openKeys',
  currentPage: 'currentPage',
  themePage: 'themePage',
  ssoInfo: 'ssoInfo',
  buttonAuth: 'buttonAuth',
  selectedAppCode: 'selectedAppCode',
  selectedRoleCode: 'selectedRoleCode',
  fastAppCode: 'fastAppCode',
  workbenchCode: 'workbenchCode',
  fastLoginAppCode: 'fastLoginAppCode',
  homePath: 'homePath',
  /** Open tabs, restored on reload for the same tenant and user (cleared on logout and enterprise switch). */
  tabs: 'tabs',
  /** The tenant a platform operator's console acts on, with its owner (cleared on logout). */
  adminTenant: 'adminTenant',
} as const;

export type StorageKey = (typeof KEYS)[keyof typeof KEYS];

/** Lifetimes of docs/product/limits.md#storage: user info 7 days, selected application 1 day; others until cleared. */
export const TTL: Partial<Record<StorageKey, number>> = {
  userInfo: LIMITS.userInfoTtlMs,
  selectedAppCode: LIMITS.selectedAppTtlMs,
};

interface Stored<T> {
  v: T;
  e: number | null;
}

const full = (key: StorageKey) => `${runtimeConfig().storagePrefix}${key}`;

export const storage = {
  get<T = string>(key: StorageKey): T | null {
    const raw = localStorage.getItem(full(key));
    if (raw === null) return null;
    try {
      const s = JSON.parse(raw) as Stored<T>;
      if (s.e !== null && s.e < Date.now()) {
        localStorage.removeItem(full(key));
        return null;
      }
      return s.v;
    } catch {
      localStorage.removeItem(full(key));
      return null;
    }
  },
  set<T>(key: StorageKey, value: T, ttlMs: number | undefined = TTL[key]): void {
    const s: Stored<T> = { v: value, e: ttlMs ? Date.now() + ttlMs : null };
    localStorage.setItem(full(key), JSON.stringify(s));
  },
  remove(key: StorageKey): void {
    localStorage.removeItem(full(key));
  },
  /**
   * docs/product/behaviour.md#logout: clears the whole local and session storage of the origin (the sub-applications'
   * keys too: nothing of the user may outlive the session), except the portal keys in `keep`
   * (docs/decisions/012: the language).
   */
  clearAll(keep: StorageKey[] = []): void {
    const kept = keep.map((k) => [full(k), localStorage.getItem(full(k))] as const);
    localStorage.clear();
    sessionStorage.clear();
    for (const [k, v] of kept) if (v !== null) localStorage.setItem(k, v);
  },
};
