/** A person's own second factors (ADR 051): list, add an authenticator, remove, recovery codes. */
import type { MyFactors, RecoveryCodes, TotpEnrolment } from '@portal/contracts';
import { request } from '../../../lib/api/client';

export const listFactors = () => request<MyFactors>('/api/front/security/factors');
export const startTotp = (name: string) =>
  request<TotpEnrolment>('/api/front/security/factors/totp', { body: { name } });
export const confirmTotp = (code: string) =>
  request<RecoveryCodes>('/api/front/security/factors/totp/confirm', {
    body: { code },
    failures: { handledBy: 'the enrolment dialog, which shows the message under the code' },
  });
export const removeFactor = (id: string) =>
  request<null>(`/api/front/security/factors/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const regenerateRecovery = () =>
  request<RecoveryCodes>('/api/front/security/recovery-codes', { method: 'POST', body: {} });
export const forgetBrowsers = () =>
  request<{ count: number }>('/api/front/security/remembered-browsers', { method: 'DELETE' });
