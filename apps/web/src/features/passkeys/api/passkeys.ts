/**
 * Passkeys (WebAuthn): the person's own list, enrolment and removal, and the passwordless sign-in of
 * the portal login and of the sign-on page. The browser half (@simplewebauthn/browser) is loaded
 * only when a ceremony starts, so no page carries it before someone asks for a passkey.
 */
import { ResultCode, type PasskeyItem } from '@portal/contracts';
import { request } from '../../../lib/api/client';
import { PASSWORD_CHANGE_PATH } from '../../../lib/api/failures';
import { runtimeConfig } from '../../../lib/config';
import { apiLanguage } from '../../../lib/i18n';
import { setToken } from '../../../lib/session';
import { currentTenant } from '../../../lib/tenant';

const webauthn = () => import('@simplewebauthn/browser');

/** Whether this browser can use passkeys at all (a secure context with WebAuthn). */
export const passkeysSupported = () =>
  typeof window !== 'undefined' && window.isSecureContext && typeof window.PublicKeyCredential === 'function';

/** The person cancelled, or the browser found no passkey: nothing to say beyond a quiet note. */
export class PasskeyCancelled extends Error {}

/** Runs a browser ceremony; a cancel (NotAllowedError, AbortError) becomes PasskeyCancelled. */
async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const name = (err as { name?: string; cause?: { name?: string } }).name;
    const cause = (err as { cause?: { name?: string } }).cause?.name;
    if (name === 'NotAllowedError' || name === 'AbortError' || cause === 'NotAllowedError')
      throw new PasskeyCancelled(String(err));
    throw err;
  }
}

const own = { failures: { handledBy: 'the passkeys section, which shows the message in place' } } as const;

export const listPasskeys = () => request<PasskeyItem[]>('/api/front/security/passkeys', own);

/** Creates a passkey on this device and adds it to the signed-in person's. */
export async function addPasskey(name: string): Promise<void> {
  const [{ startRegistration }, optionsJSON] = await Promise.all([
    webauthn(),
    request<Parameters<typeof import('@simplewebauthn/browser').startRegistration>[0]['optionsJSON']>(
      '/api/front/security/passkeys/options',
      { ...own, method: 'POST', body: {} },
    ),
  ]);
  const registration = await ceremony(() => startRegistration({ optionsJSON }));
  await request('/api/front/security/passkeys', { ...own, body: { name, registration } });
}

export const renamePasskey = (id: number, name: string) =>
  request(`/api/front/security/passkeys/${id}`, { ...own, method: 'PUT', body: { name } });

export const removePasskey = (id: number) =>
  request(`/api/front/security/passkeys/${id}`, { ...own, method: 'DELETE' });

type RequestOptionsJSON = Parameters<typeof import('@simplewebauthn/browser').startAuthentication>[0]['optionsJSON'];

/** The portal login's passwordless sign-in: the token is kept, the session starts. */
export async function signInToPortalWithPasskey(): Promise<void> {
  const quiet = { anonymous: true, failures: { handledBy: 'the login page, which shows the message for 5 s' } };
  const [{ startAuthentication }, optionsJSON] = await Promise.all([
    webauthn(),
    request<RequestOptionsJSON>('/api/auth/jwt/front/passkey/options', { ...quiet, body: {} }),
  ]);
  const assertion = await ceremony(() => startAuthentication({ optionsJSON }));
  setToken(
    await request<string>('/api/auth/jwt/front/passkey', {
      ...quiet,
      query: { tenantCode: currentTenant() },
      body: { assertion },
    }),
  );
}

export class PasskeySignOnError extends Error {}

async function postJson<T>(path: string, body: object): Promise<T> {
  const res = await fetch(`${path}?language=${apiLanguage()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const answer = (await res.json().catch(() => null)) as { status?: number; message?: string; data?: T } | null;
  if (answer?.status === 200 && answer.data !== undefined) return answer.data;
  if (answer?.status === ResultCode.PASSWORD_CHANGE_REQUIRED) throw new PasswordChangeFirst(answer.message ?? '');
  throw new PasskeySignOnError(answer?.message ?? res.statusText);
}

class PasswordChangeFirst extends Error {}

/**
 * The sign-on page's passwordless sign-in: where to go next (the service with its ticket, the
 * OpenID Provider's return, or the page saying who is signed in). A person whose password someone
 * else set goes to the change page first, as with a password.
 */
export async function signOnWithPasskey(page: URLSearchParams, tenantCode: string): Promise<string> {
  const [{ startAuthentication }, optionsJSON] = await Promise.all([
    webauthn(),
    postJson<RequestOptionsJSON>('/cas/login/passkey/options', {}),
  ]);
  const assertion = await ceremony(() => startAuthentication({ optionsJSON }));
  const service = page.get('service');
  try {
    const { redirect } = await postJson<{ redirect: string }>('/cas/login/passkey', {
      assertion,
      tenantCode,
      ...(service ? { service } : {}),
    });
    return redirect;
  } catch (err) {
    if (!(err instanceof PasswordChangeFirst)) throw err;
    const q = new URLSearchParams({
      tenantCode,
      required: '1',
      back: `${window.location.pathname}${window.location.search}`,
    });
    return `${runtimeConfig().publicpath.replace(/\/$/, '')}${PASSWORD_CHANGE_PATH}?${q}`;
  }
}
