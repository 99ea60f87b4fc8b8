/**
 * The portal as a CAS client: it validates a service ticket against the sign-on server over HTTP
 * (CAS 3.0 /p3/serviceValidate, JSON), exactly as any other registered service would.
 */
import { ResultCode } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';

export interface CasUser {
  username: string;
  tenantCode: string;
}

export function createCasClient(ssoUrl: string, timeoutMs = 5000) {
  return async function validateTicket(ticket: string, service: string): Promise<CasUser | null> {
    if (!ssoUrl) throw new AppError(ResultCode.BAD_REQUEST, 'ssoNotConfigured');
    const url = new URL(`${ssoUrl.replace(/\/$/, '')}/cas/p3/serviceValidate`);
    url.search = new URLSearchParams({ ticket, service, format: 'JSON' }).toString();
    let body: {
      serviceResponse?: {
        authenticationSuccess?: { user?: string; attributes?: { tenantCode?: string } };
      };
    };
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      body = (await res.json()) as typeof body;
    } catch {
      throw new AppError(ResultCode.UNAVAILABLE, 'ssoUnreachable');
    }
    const ok = body.serviceResponse?.authenticationSuccess;
    if (!ok?.user || !ok.attributes?.tenantCode) return null;
    return { username: ok.user, tenantCode: ok.attributes.tenantCode };
  };
}
