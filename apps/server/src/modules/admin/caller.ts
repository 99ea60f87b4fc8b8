import type { FastifyRequest } from 'fastify';
import type { Caller } from './operators.service.js';

/**
 * The console's caller a request makes: its session, the tenant it names (`?tenant=`), and the
 * request's `operatorTenant`, which the audit row of the change is written for (platform/operators.ts).
 */
export function callerOf(req: FastifyRequest): Caller {
  return {
    session: req.session!,
    tenant: (req.query as { tenant?: string } | undefined)?.tenant,
    actsOn: (tenantId) => {
      req.operatorTenant = tenantId;
    },
  };
}
