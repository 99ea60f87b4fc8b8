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
 * - **What it was done to.** The object a code changes (`AUDIT_SUBJECTS` in `audit-subjects.ts`)
 *   is read in the same transaction before the handler and after it: the row keeps the object with
 *   its name as it was (`subject`) and what changed, field by field (`changes`), ADR 044.
 */
import { ResultCode } from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.js';
import { inOneTransaction } from '../db/scope.js';
import { readBefore, subjectOf, type SubjectCall } from './audit-subjects.js';
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
        const call: SubjectCall = {
          params: req.params,
          query: req.query,
          body: req.body,
          sessionTenant: req.session?.tenantId ?? 0,
          actedOn: null,
        };
        // The object as it is before the change (none without a session: the handler refuses it).
        const watch = req.session ? await readBefore(tx, action, call) : null;
        const result: unknown = await handler.call(this, req, reply);
        if (!succeeded(result)) return result;
        const session = req.session;
        if (!session) throw new Error(`${req.method} ${route.url} changed something without a session`);
        const rowTenant = req.operatorTenant ?? session.tenantId;
        const named = await subjectOf(tx, watch, { ...call, result, actedOn: req.operatorTenant }, rowTenant);
        let detail: Record<string, unknown> = {
          ...(named ? { subject: named.subject, changes: named.changes } : {}),
          params: auditedValue(req.params),
          query: auditedValue(req.query),
          body: auditedValue(req.body),
          // The tenant acted on is the row's tenant; the operator's own is told when they differ.
          ...(req.operatorTenant !== null ? { operatorTenant: session.tenantId } : {}),
          // A service account's change (ADR 056): the row names the account, no person.
          ...(session.serviceAccount ? { serviceAccount: session.serviceAccount } : {}),
          result: resultOf(result),
        };
        if (JSON.stringify(detail).length > MAX_DETAIL) {
          detail = {
            ...(named ? { subject: named.subject } : {}),
            params: detail.params,
            body: '… (too large to keep)',
            ...(session.serviceAccount ? { serviceAccount: session.serviceAccount } : {}),
          };
          // The changes are what a reader most needs: kept when they fit without the body.
          if (named && JSON.stringify(named.changes).length <= MAX_DETAIL) detail.changes = named.changes;
        }
        await writeAudit(tx, {
          tenantId: rowTenant,
          userId: session.serviceAccount ? null : session.userId,
          action,
          detail,
          ip: req.ip,
        });
        return result;
      });
    };
  });
}
