/**
 * Address rules of docs/product/screens.md#kept-parameters that every route and feature shares: the kept query parameters, the
 * tenant code, and which redirect targets are allowed (after login, and in a menu entry).
 */
import { cleanTenantCode, KEPT_QUERY_PARAMS } from '@portal/contracts';

/** The context codes an address may bring: remembered in local storage (docs/product/data.md#local-storage), carried to the login. */
export const CONTEXT_CODES = ['benchCode', 'partBench', 'roleCode', 'appCode'] as const;

/** The kept parameters of `search` (tc, benchCode, partBench, appCode, roleCode, tenantCode, iframe, service). */
export function keptParams(search: string): URLSearchParams {
  const from = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const k of KEPT_QUERY_PARAMS) {
    const v = from.get(k);
    if (v !== null && v !== '') kept.set(k, v);
  }
  return kept;
}

/** `search` with every kept parameter of `previous` that it lacks; null when nothing is missing. */
export function withKeptParams(search: string, previous: URLSearchParams): string | null {
  const next = new URLSearchParams(search);
  let changed = false;
  for (const [k, v] of previous) {
    if (!next.has(k)) {
      next.set(k, v);
      changed = true;
    }
  }
  return changed ? `?${next}` : null;
}

/** The tenant code of an address: tc, then tenantCode, then inside the redirect parameter (docs/product/screens.md#tenant-code). */
export function tenantCodeOf(search: string): string | null {
  const q = new URLSearchParams(search);
  const direct = cleanTenantCode(q.get('tc')) ?? cleanTenantCode(q.get('tenantCode'));
  if (direct) return direct;
  const redirect = q.get('redirect');
  if (!redirect) return null;
  const inner = new URLSearchParams(redirect.split('?')[1] ?? '');
  return cleanTenantCode(inner.get('tc')) ?? cleanTenantCode(inner.get('tenantCode'));
}

/**
 * Only in-app paths may be redirect targets: "/x", never "//host", a scheme, or a backslash trick.
 * Nor a control character: a browser drops tabs and line breaks from an address before reading it,
 * so "/<tab>/host" would go to another site. The one rule for addresses taken from outside: the
 * login page's `redirect` parameter and a menu entry's redirect in the shell.
 */
export function safeRedirect(target: string | null | undefined): string | null {
  if (!target) return null;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(target)) return null;
  if (/^\/[^?#]*:/.test(target)) return null;
  return target;
}
