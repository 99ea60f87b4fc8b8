/**
 * Local storage under the configured prefix, with optional lifetimes (spec §3, §9). Every key the
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
} as const;

export type StorageKey = (typeof KEYS)[keyof typeof KEYS];

/** Lifetimes of §9: user info 7 days, selected application 1 day; others until cleared. */
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
  /** Removes every key under the prefix, and the whole session storage (spec §4 logout). */
  clearAll(keep: StorageKey[] = []): void {
    const prefix = runtimeConfig().storagePrefix;
    const kept = new Set(keep.map(full));
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i);
      if (k && k.startsWith(prefix) && !kept.has(k)) localStorage.removeItem(k);
    }
    sessionStorage.clear();
  },
};
