/**
 * The tenant this tab works for (docs/product/screens.md#tenant-code, ADR 016), and the only module that reads or writes the
 * remembered code: the one the address names (`tc`, `tenantCode`, or inside `redirect`), else the
 * last one an address named in this browser, else the runtime default.
 */
import { TENANT_COOKIE } from '@portal/contracts';
import { tenantCodeOf } from './address';
import { runtimeConfig } from './config';
import { storage } from './storage';

/**
 * Remembers the code in local storage, and in a cookie for the server: a document whose address
 * names no tenant gets that tenant's content security policy (its registered origins, ADR 025).
 */
function remember(code: string): void {
  storage.set('tenantCode', code);
  document.cookie = `${TENANT_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; SameSite=Lax`;
}

export function currentTenant(search: string = window.location.search): string {
  return tenantCodeOf(search) ?? rememberedTenant() ?? runtimeConfig().defaultTenantCode;
}

/** The tenant an address or a session named last in this browser, if any. */
export function rememberedTenant(): string | null {
  return storage.get<string>('tenantCode');
}

/** The tenant of the session this browser holds (stored with its user info), if any. */
export function signedInTenant(): string | null {
  if (!storage.get<string>('token')) return null;
  return storage.get<{ tenantCode?: string }>('userInfo')?.tenantCode || null;
}

/**
 * An address that names a tenant makes it the remembered one (the root route, on every
 * navigation), unless this browser is signed in to another tenant: a tab opened on another
 * tenant's page (the console's 门户) leaves the signed-in tabs theirs. A tenant mismatch, a sign-in
 * or a logout says which one is kept then.
 */
export function rememberTenant(search: string): void {
  const named = tenantCodeOf(search);
  const session = signedInTenant();
  if (named && (!session || session === named)) remember(named);
}

/** Makes `code` the remembered tenant: the signed-in user's, or the one chosen at a tenant mismatch. */
export function keepTenant(code: string): void {
  remember(code);
}
