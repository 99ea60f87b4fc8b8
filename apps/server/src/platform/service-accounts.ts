/**
 * Service accounts on the operators' API (ADR 056): a request without a portal session token that
 * carries `Authorization: Bearer <access token>` is made by the service account the token belongs
 * to, as the OpenID Provider reads it (modules/oidc `serviceAccount`). The request then carries a
 * session-shaped context in the account's tenant and role, so the one permission guard, the
 * operator gate and the tenant rule apply as for a person; the audit names the account.
 *
 * What it reaches: the operators' API under /api/admin/, except the changes that author content in
 * a person's name (notices, pages, micro-apps, devices, uploads, an enterprise's review), the
 * security policy and people's second factors, and
 * everything that needs a session (my sessions, switching, the portal itself): 40303.
 */
import { ResultCode } from '@portal/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError, errors } from './errors.js';
import type { ActiveSession } from './session.js';

/** The `id` of a service account's context: names no session row. */
export const SERVICE_ACCOUNT_SESSION_ID = '00000000-0000-0000-0000-000000000000';

/** What the OpenID Provider says a token acts as (modules/oidc's ServiceAccount). */
export interface ServiceAccountGrant {
  tenantId: number;
  clientId: string;
  name: string;
  translations: { en?: { name?: string } };
  roleId: number;
}

const ADMIN = '/api/admin/';
/** Changes that record a person as their author: a service account may not make them. */
const AUTHORED =
  /^\/api\/admin\/(?:notices|pages|micro-apps|devices|device-credentials|settings\/logo|enterprises\/:id\/review)(?:\/|$)/;

/**
 * What guards people's sign-ins (the tenant's security policy, a person's second factors): a
 * service account proves no factor, so it changes none of it, whether or not the step-up gate
 * (modules/admin/caller.ts STEP_UP_ROUTES, refused to it by the operator gate) lists the route.
 */
const IDENTITY = new Set(['PUT /api/admin/security-policy', 'POST /api/admin/users/:id/factors/reset']);

/** Whether a service account may call the route `METHOD url` (as registered). */
export function serviceAccountReaches(method: string, url: string): boolean {
  if (!url.startsWith(ADMIN)) return false;
  if (method === 'GET' || method === 'HEAD') return true;
  return !AUTHORED.test(url) && !IDENTITY.has(`${method} ${url}`);
}

/** The Bearer token of a request, or null (a request without an Authorization: Bearer header). */
export function bearerOf(req: FastifyRequest): string | null {
  const raw = req.headers.authorization;
  const m = typeof raw === 'string' ? /^Bearer ([\x21-\x7e]{1,1024})$/i.exec(raw.trim()) : null;
  return m ? m[1]! : null;
}

/**
 * The context of a request made with a service account's token: 401 when the token acts as none
 * (unknown, expired, not a service account's, without the scope, its client disabled, its secret
 * rotated or its mark removed), 40303 on a route a service account may not call.
 */
export async function serviceAccountSession(
  req: FastifyRequest,
  token: string,
  find: (token: string) => Promise<ServiceAccountGrant | null>,
): Promise<ActiveSession> {
  const account = await find(token);
  if (!account) throw errors.unauthorized();
  if (!serviceAccountReaches(req.method, req.routeOptions.url ?? ''))
    throw new AppError(ResultCode.NO_PERMISSION, 'serviceAccountRefused');
  return {
    id: SERVICE_ACCOUNT_SESSION_ID,
    userId: 0,
    tenantId: account.tenantId,
    roleId: account.roleId,
    applicationId: null,
    workbenchId: null,
    enterpriseId: null,
    serviceAccount: {
      clientId: account.clientId,
      name: account.name,
      nameEn: account.translations.en?.name ?? '',
    },
  };
}
