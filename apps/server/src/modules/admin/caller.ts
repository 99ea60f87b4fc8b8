import type { FastifyRequest } from 'fastify';
import type { Caller } from './operators.service.js';

/**
 * The operators' actions that need a second factor proven within the tenant's step-up minutes
 * (ADR 051): setting another user's password, disabling users, resetting a user's factors,
 * creating or changing tenants, the security policy, sign-on services and OpenID clients. Also
 * what comes to the same: a user's number (a password reset by SMS goes to it), a new user (with
 * a password the operator knows and any role), a user's roles and a role's permissions (either
 * makes an operator of an account the caller holds), and reading the SMS outbox (its live codes
 * are a password reset's and a second factor's, a step-up's own among them). The gate asks after
 * the permission check (40309).
 */
export const STEP_UP_ROUTES = new Set([
  'GET /api/admin/sms-outbox',
  'POST /api/admin/users',
  'PATCH /api/admin/users/:id',
  'POST /api/admin/users/:id/password',
  'PUT /api/admin/users/:id/roles',
  'PUT /api/admin/roles/:id/permissions',
  'POST /api/admin/users/:id/disable',
  'POST /api/admin/users/:id/factors/reset',
  'POST /api/admin/tenants',
  'PATCH /api/admin/tenants/:id',
  'PUT /api/admin/security-policy',
  'POST /api/admin/sso-services',
  'PATCH /api/admin/sso-services/:id',
  'DELETE /api/admin/sso-services/:id',
  'POST /api/admin/oidc-clients',
  'PATCH /api/admin/oidc-clients/:id',
  'POST /api/admin/oidc-clients/:id/enable',
  'POST /api/admin/oidc-clients/:id/disable',
  'DELETE /api/admin/oidc-clients/:id',
  'POST /api/admin/oidc-clients/:id/secret',
]);

/**
 * The console's caller a request makes: its session, the tenant it names (`?tenant=`), and the
 * request's `operatorTenant`, which the audit row of the change is written for (platform/operators.ts).
 */
export function callerOf(req: FastifyRequest): Caller {
  return {
    session: req.session!,
    sensitive: STEP_UP_ROUTES.has(`${req.method} ${req.routeOptions.url ?? ''}`),
    tenant: (req.query as { tenant?: string } | undefined)?.tenant,
    actsOn: (tenantId) => {
      req.operatorTenant = tenantId;
    },
  };
}
