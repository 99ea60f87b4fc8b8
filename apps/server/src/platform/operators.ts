/**
 * The operators' API (ADR 031), its two cross-cutting rules in one place:
 *
 * - **Who.** `operatorOf(req)` lets through a session whose current role holds `system:manage`
 *   (the permission guard, as every other code). It acts on its own tenant, or — a platform
 *   operator, whose tenant is the platform tenant — on the tenant the `tenant` query field names.
 *   Naming another tenant without being a platform operator is 40303, whether it exists or not.
 * - **What was done.** Every change under `/api/admin/` (any method but GET) that succeeds, and
 *   every read a route marks `auditedRead` (one that shows what could take over an account), is
 *   written to the audit log in the change's own transaction: the route's code of the audit
 *   catalogue as the action (`ADMIN_ROUTE_ACTIONS` in `audit.ts`), the actor, the tenant acted on,
 *   the client's address, and the request's parameters and body with secrets taken out. The hook
 *   sees routes added later without being told, and refuses to register one the map lacks.
 */
import { OPERATOR_PERMISSION, ResultCode, cleanTenantCode } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { inOneTransaction } from '../db/scope.js';
import { tenants } from '../db/schema.js';
import { adminRouteAction, auditedValue, writeAudit } from './audit.js';
import { AppError } from './errors.js';
import type { PermissionGuard } from './permissions.js';
import type { ActiveSession } from './session.js';

export const ADMIN_PREFIX = '/api/admin/';

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

const MAX_DETAIL = 8_000;

/** The id or text a change answered with (a created row's id), if that is what it answered. */
function resultOf(result: unknown): unknown {
  const data = (result as { data?: unknown } | null)?.data;
  return typeof data === 'string' || typeof data === 'number' ? auditedValue(data) : undefined;
}

const succeeded = (result: unknown) => (result as { status?: unknown } | null)?.status === ResultCode.OK;

/**
 * Every change under /api/admin/ (any method but GET and HEAD), and every read marked
 * `auditedRead`, runs in one transaction with its audit row (see the file's comment): the handler's statements and the row commit together, or
 * neither does, and what the handler announces to other instances goes out after the commit. A
 * change that can't be audited does not happen.
 */
export function auditOperatorChanges(app: FastifyInstance, db: Db): void {
  app.decorateRequest('operatorTenant', null);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(ADMIN_PREFIX)) return;
    const reads = [route.method].flat().every((m) => m === 'GET' || m === 'HEAD');
    if (reads && route.config?.auditedRead !== true) return;
    // The HEAD route Fastify adds beside an audited GET is the same read.
    const methods = [route.method].flat().map((m) => (m === 'HEAD' ? 'GET' : m));
    const action = methods.length === 1 ? adminRouteAction(methods[0]!, route.url) : undefined;
    if (!action)
      throw new Error(`${methods.join(',')} ${route.url} has no audit action: add it to ADMIN_ROUTE_ACTIONS`);
    const handler = route.handler;
    route.handler = function audited(this: FastifyInstance, req, reply) {
      return inOneTransaction(db, async (tx) => {
        const result: unknown = await handler.call(this, req, reply);
        if (!succeeded(result)) return result;
        const session = req.session;
        if (!session) throw new Error(`${req.method} ${route.url} changed something without a session`);
        let detail: Record<string, unknown> = {
          params: auditedValue(req.params),
          query: auditedValue(req.query),
          body: auditedValue(req.body),
          // The tenant acted on is the row's tenant; the operator's own is told when they differ.
          ...(req.operatorTenant !== null ? { operatorTenant: session.tenantId } : {}),
          result: resultOf(result),
        };
        if (JSON.stringify(detail).length > MAX_DETAIL)
          detail = { params: detail.params, body: '… (too large to keep)' };
        await writeAudit(tx, {
          tenantId: req.operatorTenant ?? session.tenantId,
          userId: session.userId,
          action,
          detail,
          ip: req.ip,
        });
        return result;
      });
    };
  });
}
