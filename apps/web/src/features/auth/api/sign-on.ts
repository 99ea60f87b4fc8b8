/**
 * Signing in through the sign-on server (docs/product/behaviour.md#sign-on, CAS 3.0): the address of its login, the ticket
 * exchange, and the sign-on page's own form post. (Its logout address is built by lib/session.)
 */
import { ResultCode } from '@portal/contracts';
import { runtimeConfig } from '../../../lib/config';
import { ApiError, request } from '../../../lib/api/client';
import { PASSWORD_CHANGE_PATH } from '../../../lib/api/failures';
import { apiLanguage } from '../../../lib/i18n';
import { captchaClientId } from '../../../lib/client-id';
import { encryptPassword } from '../../../lib/api/password';
import type { LoginInput } from './login';

const ssoBase = () => runtimeConfig().ssoUrl.replace(/\/$/, '');

/** {cas}/cas/login?loginType=2&tenantCode={code}&service={url} (docs/product/calls.md#redirects). */
export function signOnLoginUrl(tenantCode: string, service: string): string {
  const q = new URLSearchParams({ loginType: '2', tenantCode, service });
  return `${ssoBase()}/cas/login?${q}`;
}

/** The token for a service ticket; `service` is the address the ticket was issued for. */
export function exchangeTicket(st: string, service: string): Promise<string> {
  return request<string>('/api/auth/jwt/getTokenBySt', {
    method: 'POST',
    query: { st, service },
    anonymous: true,
    failures: { handledBy: 'the sign-on page, which says why in place of the form (with a retry)' },
  });
}

export class SignOnError extends Error {}

/**
 * The sign-on page's login: the same fields as the portal login, posted as a form to /cas/login
 * for the tenant the page is for; answers where to go next (the service with its ticket).
 */
export async function signOnSignIn(input: LoginInput, page: URLSearchParams, tenantCode: string): Promise<string> {
  const form = new URLSearchParams({
    username: input.username.trim(),
    password: await encryptPassword(input.password),
    tenantCode,
  });
  if (input.captchaVerification) form.set('captchaVerification', input.captchaVerification);
  else {
    form.set('imgvercode', (input.imgvercode ?? '').trim());
    form.set('captchaKey', captchaClientId());
  }
  for (const k of ['service', 'renew'] as const) {
    const v = page.get(k);
    if (v) form.set(k, v);
  }
  const res = await fetch(`/cas/login?language=${apiLanguage()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form,
    credentials: 'same-origin',
  });
  const body = (await res.json().catch(() => null)) as {
    status?: number;
    message?: string;
    data?: { redirect?: string } & Record<string, unknown>;
  } | null;
  if (body?.status === 200 && body.data?.redirect) return body.data.redirect;
  // A temporary password signs in nowhere (ADR 033): the change page, then back to this page.
  if (body?.status === ResultCode.PASSWORD_CHANGE_REQUIRED) {
    const q = new URLSearchParams({
      tenantCode,
      username: input.username.trim(),
      required: '1',
      back: `${window.location.pathname}${window.location.search}`,
    });
    return `${runtimeConfig().publicpath.replace(/\/$/, '')}${PASSWORD_CHANGE_PATH}?${q}`;
  }
  // A second factor is asked (ADR 051): the page shows the factor step with this challenge.
  if (body?.status === ResultCode.FACTOR_REQUIRED)
    throw new ApiError(body.status, body.message ?? '', false, body.data);
  throw new SignOnError(body?.message ?? res.statusText);
}

/** The address that signs the current user into an external system of the tenant (docs/product/calls.md#call-list). */
export function systemSignOnUrl(sysCode: string): Promise<string> {
  return request<string>('/api/front/esa/external/system/sso', {
    body: { sysCode },
    failures: { handledBy: 'the system sign-on page, which says why instead of going on' },
  });
}
