/**
 * The tenant a request names by its code (login, the sign-on server, registration, SMS, password
 * reset), by one rule at every entry point (ADR 016): an absent or empty code, or `null`/`undefined`
 * in any case (docs/product/screens.md#tenant-code), names no tenant and means the default one; a code is trimmed; an unknown
 * code is a 400 租户不存在 where the tenant's id is needed, and never the default tenant.
 */
import { cleanTenantCode, isTenantCode, ResultCode } from '@portal/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tenants } from '../db/schema.js';
import { AppError } from './errors.js';

export interface Tenants {
  readonly defaultCode: string;
  /** The code a request names, or null when it names none. */
  named(raw: string | null | undefined): string | null;
  /** The code a request means: the one it names, else the default tenant's. */
  codeOf(raw: string | null | undefined): string;
  /** The id of the tenant a request means; 400 租户不存在 for an unknown code. */
  idOf(raw: string | null | undefined): Promise<number>;
  /**
   * As idOf, for a tenant anyone may register in (ADR 031): not the platform tenant, whose users
   * are its operators, and not a disabled one (400 该园区暂不开放注册).
   */
  registrableIdOf(raw: string | null | undefined): Promise<number>;
}

/**
 * The tenant an open page's address names (docs/product/screens.md#tenant-code): `tc`, else `tenantCode` (`null`/`undefined`
 * ignored); the open device pages and the dashboard take it this one way.
 */
export const tenantInQuery = (q: { tc?: string; tenantCode?: string }): string | null | undefined =>
  cleanTenantCode(q.tc) ?? q.tenantCode;

export function createTenants(db: Db, defaultCode: string): Tenants {
  const codeOf = (raw: string | null | undefined) => cleanTenantCode(raw) ?? defaultCode;
  const find = async (raw: string | null | undefined) => {
    if (!isTenantCode(codeOf(raw))) throw new AppError(ResultCode.BAD_REQUEST, 'tenantUnknown');
    const [row] = await db
      .select({ id: tenants.id, platform: tenants.platform, disabled: sql<boolean>`${tenants.disabledAt} IS NOT NULL` })
      .from(tenants)
      .where(eq(tenants.code, codeOf(raw)));
    if (!row) throw new AppError(ResultCode.BAD_REQUEST, 'tenantUnknown');
    return row;
  };
  return {
    defaultCode,
    named: cleanTenantCode,
    codeOf,
    async idOf(raw) {
      return (await find(raw)).id;
    },
    async registrableIdOf(raw) {
      const row = await find(raw);
      if (row.platform || row.disabled) throw new AppError(ResultCode.BAD_REQUEST, 'registrationClosed');
      return row.id;
    },
  };
}
