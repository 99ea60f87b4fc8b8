/**
 * The operators' API (ADR 031), what every module's routes under `/api/admin/` share (who may call
 * the console is the admin module's gate, modules/admin/operators.service.ts, ADR 038):
 *
 * - **What was done.** Every change under `/api/admin/` (any method but GET) that succeeds, and
 *   every read a route marks `auditedRead` (one that shows what could take over an account), is
 *   written to the audit log in the change's own transaction: the route's code of the audit
 *   catalogue as the action (`ADMIN_ROUTE_ACTIONS` in `audit.ts`), the actor, the tenant acted on,
 *   the client's address, and the request's parameters and body with secrets taken out. The hook
 *   sees routes added later without being told, and refuses to register one the map lacks.
 */
import { ResultCode } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { inOneTransaction } from '../db/scope.js';
import { adminRouteAction, auditedValue, writeAudit } from './audit.js';

export const ADMIN_PREFIX = '/api/admin/';

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
