/**
 * Service accounts on the operators' API (ADR 056): a request without a portal session token that
 * carries `Authorization: Bearer <access token>` is made by the service account the token belongs
 * to, as the OpenID Provider reads it (modules/oidc `serviceAccount`). The request then carries a
 * session-shaped context in the account's tenant and role, so the one permission guard, the
 * operator gate and the tenant rule apply as for a person; the audit names the account.
 *
 * What it reaches: the operators' API under /api/admin/, except the changes that author content in
 * a person's name (notices, pages, micro-apps, devices, uploads, an enterprise's review), the powers
 * that stay with people (below), and everything that needs a session (my sessions, switching, the
 * portal itself): 40303.
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
 * Powers that stay with people, whatever the account's role (ADR 056): setting or resetting how a
 * person proves who they are (another person's password, their second factors, the tenant's
 * security policy), registering what trusts the sign-on (sign-on services, OpenID clients: one
 * leaked secret must not mint more), what roles may do, and tenants; lifting a lockout (which
 * bounds guesses at a person's password and codes); and reading the SMS outbox, whose live codes
 * (a password reset's, a second factor's) would reach the same. Making an operator and changing a
 * user's number are refused in the users service (those routes also provision). The rest of the
 * step-up routes (a user's creation, details, roles, disabling: the provisioning a job does) it
 * may call: its token is at most minutes old and was got by proving its secret, which is all the
 * proof it has.
 */
const PEOPLE_ONLY =
  /^(?:GET \/api\/admin\/sms-outbox$|POST \/api\/admin\/users\/:id\/(?:password|factors\/reset|unlock)|PUT \/api\/admin\/(?:security-policy|roles\/:id\/permissions)|(?:POST|PATCH|DELETE|PUT) \/api\/admin\/(?:sso-services|oidc-clients|tenants)(?:\/|$))/;

/** Why a service account may not call the route `METHOD url` (as registered), or null when it may. */
export function serviceAccountRefusal(
  method: string,
  url: string,
): 'serviceAccountPeopleOnly' | 'serviceAccountRefused' | null {
  if (!url.startsWith(ADMIN)) return 'serviceAccountRefused';
  if (PEOPLE_ONLY.test(`${method === 'HEAD' ? 'GET' : method} ${url}`)) return 'serviceAccountPeopleOnly';
  if (method === 'GET' || method === 'HEAD') return null;
  return AUTHORED.test(url) ? 'serviceAccountRefused' : null;
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
  const refusal = serviceAccountRefusal(req.method, req.routeOptions.url ?? '');
  if (refusal) throw new AppError(ResultCode.NO_PERMISSION, refusal);
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
