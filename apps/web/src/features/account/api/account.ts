import type { ChangePasswordRequest, ResetGrant } from '@portal/contracts';
import { request } from '../../../lib/api/client';

const quiet = {
  anonymous: true,
  failures: { handledBy: 'the password pages, which show a refusal on their form' },
} as const;

/** Answered the same whether or not the pair is an account (the server's message says so). */
export function requestResetCode(body: {
  tenantCode: string;
  username: string;
  mobile: string;
  imageCode: string;
  number?: string | undefined;
}): Promise<void> {
  return request('/api/front/account/reset/code', { ...quiet, body: { ...body } });
}

export async function verifyResetCode(body: {
  tenantCode: string;
  username: string;
  mobile: string;
  smsCode: string;
}): Promise<string> {
  return (await request<ResetGrant>('/api/front/account/reset/verify', { ...quiet, body: { ...body } })).resetToken;
}

export function finishReset(resetToken: string, password: string): Promise<void> {
  return request('/api/front/account/reset/finish', { ...quiet, body: { resetToken, password } });
}

export function changePassword(body: ChangePasswordRequest): Promise<void> {
  return request('/api/front/account/auth/changePassword', { ...quiet, body: { ...body } });
}

/**
 * The signed-in user's own new password, with the current one: also the one call (besides the
 * logout) open to a session whose password someone else set (ADR 033).
 */
export function updateOwnPassword(oldPwd: string, newPwd: string): Promise<void> {
  return request('/api/front/account/auth/updatePassword', {
    body: { oldPwd, newPwd },
    failures: { handledBy: 'the password page, which shows a refusal on its form' },
  });
}
