/**
 * The factor step's calls (ADR 051): the portal login's (`/api/auth/jwt/front/factor*`, signed as
 * every /api call) and the sign-on page's (`/cas/login/factor*`, plain JSON posts like its form).
 */
import type { FactorAnswer, FactorSmsSent, RecoveryCodes, TotpEnrolment } from '@portal/contracts';
import { ApiError, request } from '../../lib/api/client';
import { apiLanguage } from '../../lib/i18n';

/** What the step needs of where the sign-in goes on. */
export interface FactorStepCalls {
  /** The right answer signs in and goes on; a refusal throws with the message to show. */
  answer(a: FactorAnswer): Promise<void>;
  /** Within the grace days: on without a factor, this once. */
  later(challenge: string): Promise<void>;
  /** A pending authenticator for a person who must add one. */
  enrol(challenge: string, name: string): Promise<TotpEnrolment>;
  /** WebAuthn request options for answering with one of the person's passkeys. */
  passkeyOptions(challenge: string): Promise<Record<string, unknown>>;
  /** Sends an SMS code to the person's own verified mobile. */
  sms(challenge: string): Promise<FactorSmsSent>;
  /** Confirms the authenticator added here with its first code: its recovery codes (shown once). */
  confirmEnrol(challenge: string, code: string): Promise<RecoveryCodes>;
}

const handledBy = { handledBy: 'the factor step, which shows the message under the code' };

/** The portal login's step: `onToken` keeps the session and goes on. */
export function portalCalls(onToken: (token: string) => void): FactorStepCalls {
  return {
    async answer(a) {
      onToken(
        await request<string>('/api/auth/jwt/front/factor', {
          body: { ...a },
          anonymous: true,
          failures: handledBy,
        }),
      );
    },
    async later(challenge) {
      onToken(
        await request<string>('/api/auth/jwt/front/factor/later', {
          body: { challenge },
          anonymous: true,
          failures: handledBy,
        }),
      );
    },
    enrol: (challenge, name) =>
      request<TotpEnrolment>('/api/auth/jwt/front/factor/enrol', {
        body: { challenge, name },
        anonymous: true,
        failures: handledBy,
      }),
    passkeyOptions: (challenge) =>
      request<Record<string, unknown>>('/api/auth/jwt/front/factor/passkey', {
        body: { challenge },
        anonymous: true,
        failures: handledBy,
      }),
    sms: (challenge) =>
      request<FactorSmsSent>('/api/auth/jwt/front/factor/sms', {
        body: { challenge },
        anonymous: true,
        failures: handledBy,
      }),
    confirmEnrol: (challenge, code) =>
      request<RecoveryCodes>('/api/auth/jwt/front/factor/enrol/confirm', {
        body: { challenge, code },
        anonymous: true,
        failures: handledBy,
      }),
  };
}

async function post<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${path}?language=${apiLanguage()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const env = (await res.json().catch(() => null)) as { status?: number; message?: string; data?: T } | null;
  if (env?.status === 200) return env.data as T;
  throw new ApiError(env?.status ?? res.status, env?.message ?? res.statusText);
}

/** The sign-on page's step: the answer's `redirect` is where the browser goes. */
export function signOnCalls(go: (redirect: string) => void): FactorStepCalls {
  return {
    async answer(a) {
      go((await post<{ redirect: string }>('/cas/login/factor', { ...a })).redirect);
    },
    async later(challenge) {
      go((await post<{ redirect: string }>('/cas/login/factor/later', { challenge })).redirect);
    },
    enrol: (challenge, name) => post<TotpEnrolment>('/cas/login/factor/enrol', { challenge, name }),
    passkeyOptions: (challenge) => post<Record<string, unknown>>('/cas/login/factor/passkey', { challenge }),
    sms: (challenge) => post<FactorSmsSent>('/cas/login/factor/sms', { challenge }),
    confirmEnrol: (challenge, code) => post<RecoveryCodes>('/cas/login/factor/enrol/confirm', { challenge, code }),
  };
}

/** The challenge a refused sign-in carries (40308), or null. */
export function challengeOf(err: unknown): import('@portal/contracts').FactorChallenge | null {
  if (err instanceof ApiError && err.status === 40308 && err.data && typeof err.data === 'object') {
    return err.data as import('@portal/contracts').FactorChallenge;
  }
  return null;
}
