import { AdminTenantQuery, Envelope, SecurityPolicy, SecurityPolicyView } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { SecurityPolicyService } from './security-policy.service.js';

/** The tenant's security policy (its operators; a platform operator for the tenant chosen). */
export const adminSecurityPolicyRoutes: FastifyPluginAsyncTypebox<{ securityPolicy: SecurityPolicyService }> = async (
  app,
  { securityPolicy },
) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/security-policy',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(SecurityPolicyView) } } },
    async (req) => ok(req, await securityPolicy.get(callerOf(req))),
  );

  // Sensitive: a second factor's check (step-up) is due before it.
  app.put(
    '/api/admin/security-policy',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: SecurityPolicy, response: { 200: Envelope(Type.Null()) } },
    },
    async (req) => {
      await securityPolicy.save(callerOf(req), req.body);
      return ok(req, null);
    },
  );
};
