/**
 * The tenant a public request names by its code (registration, SMS, password reset): an absent or
 * empty code, or `null`/`undefined` in any case (spec §2), means the default tenant; an unknown one
 * is a 400 租户不存在.
 */
import { cleanTenantCode, ResultCode } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { AppError } from './errors.js';

export type TenantResolver = (code: string | undefined) => Promise<number>;

export function createTenantResolver(db: Db, defaultCode: string): TenantResolver {
  return async (code) => {
    const res = await db.execute<{ id: number }>(
      sql`SELECT id FROM tenants WHERE code = ${cleanTenantCode(code) ?? defaultCode}`,
    );
    if (!res.rows[0]) throw new AppError(ResultCode.BAD_REQUEST, 'tenantUnknown');
    return Number(res.rows[0].id);
  };
}
