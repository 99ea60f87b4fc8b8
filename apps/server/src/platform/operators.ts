/**
 * The operators' API (issue 20, ADR 029), its two cross-cutting rules in one place:
 *
 * - **Who.** `operatorOf(req)` lets through a session whose current role holds `system:manage`
 *   (the permission guard, as every other code). It acts on its own tenant, or — a platform
 *   operator, whose tenant is the platform tenant — on the tenant the `tenant` query field names.
 *   Naming another tenant without being a platform operator is 40303, whether it exists or not.
 * - **What was done.** Every change under `/api/admin/` (any method but GET) that succeeded is
 *   written to the audit log before its answer leaves (onSend): the route's template as the
 *   action, the actor, the tenant acted on, the client's address, and the request's parameters
 *   and body with secrets taken out. The hook sees routes added later without being told.
 */
import { OPERATOR_PERMISSION, ResultCode, cleanTenantCode } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { auditLog, tenants } from '../db/schema.js';
import { AppError } from './errors.js';
import type { PermissionGuard } from './permissions.js';
import type { ActiveSession } from './session.js';

export const ADMIN_PREFIX = '/api/admin/';
/** Audit actions of operators' changes begin so: `admin:POST /api/admin/users/:id/password`. */
export const ADMIN_ACTION = 'admin:';

export interface Operator {
  session: ActiveSession;
  /** The tenant acted on. */
  tenantId: number;
  /** Whether the operator administers every tenant. */
  platform: boolean;
}

export type OperatorGate = (req: FastifyRequest) => Promise<Operator>;

export function createOperatorGate(db: Db, guard: PermissionGuard): OperatorGate {
  const tenantByCode = async (code: string) =>
    (await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code)))[0];
  return async (req) => {
    const session = req.session!;
    await guard.require(session, OPERATOR_PERMISSION);
    const [own] = await db
      .select({ code: tenants.code, platform: tenants.platform })
      .from(tenants)
      .where(eq(tenants.id, session.tenantId));
    if (!own) throw new AppError(ResultCode.NO_PERMISSION, 'noPermission');
    const named = (req.query as { tenant?: unknown } | undefined)?.tenant;
    // The one rule for a code a request names (ADR 016): trimmed; empty, null or undefined name none.
    const code = typeof named === 'string' ? cleanTenantCode(named) : null;
    if (!code || code === own.code) return { session, tenantId: session.tenantId, platform: own.platform };
    if (!own.platform) throw new AppError(ResultCode.NO_PERMISSION, 'operatorOwnTenant');
    const target = await tenantByCode(code);
    if (!target) throw new AppError(ResultCode.NOT_FOUND, 'tenantUnknown');
    req.operatorTenant = target.id;
    return { session, tenantId: target.id, platform: true };
  };
}

const SECRET_KEY = /password|secret|token|cipher|captcha/i;
const MAX_TEXT = 300;
const MAX_DETAIL = 8_000;

/** `text`'s first `max` UTF-16 units, without half of a pair at the cut (no JSON column holds one). */
const cut = (text: string, max: number) => text.slice(0, /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max);

/** What of a request the audit keeps: secrets out, long texts cut. */
export function auditedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${cut(value, MAX_TEXT)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, 50).map((v) => auditedValue(v, depth + 1));
    return value.length > 50 ? [...kept, `… ${value.length - 50} more`] : kept;
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : auditedValue(v, depth + 1)]),
  );
}

function resultOf(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload.length > 2_000) return undefined;
  try {
    const data = (JSON.parse(payload) as { data?: unknown }).data;
    return typeof data === 'string' || typeof data === 'number' ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes every successful change under /api/admin/ to the audit log (see the file's comment). */
export function auditOperatorChanges(app: FastifyInstance, db: Db, onError: (err: unknown) => void): void {
  app.decorateRequest('operatorTenant', null);
  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith(ADMIN_PREFIX) || req.method === 'GET' || req.method === 'HEAD') return payload;
    if (reply.statusCode !== 200 || !req.session) return payload;
    let detail: Record<string, unknown> = {
      params: auditedValue(req.params),
      body: auditedValue(req.body),
      // The tenant acted on is the row's tenant; the operator's own is told when they differ.
      ...(req.operatorTenant !== null ? { operatorTenant: req.session.tenantId } : {}),
      result: resultOf(payload),
    };
    if (JSON.stringify(detail).length > MAX_DETAIL) detail = { params: detail.params, body: '… (too large to keep)' };
    try {
      await db.insert(auditLog).values({
        tenantId: req.operatorTenant ?? req.session.tenantId,
        userId: req.session.userId,
        action: `${ADMIN_ACTION}${req.method} ${url}`,
        detail,
        ip: req.ip,
      });
    } catch (err) {
      onError(err);
    }
    return payload;
  });
}
