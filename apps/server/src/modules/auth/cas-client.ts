/**
 * The portal as a CAS client: it validates a service ticket against the sign-on server over HTTP
 * (CAS 3.0 /p3/serviceValidate), exactly as any other registered service would. It asks for JSON
 * and also reads the XML every CAS 3.0 server answers, so `SSO_URL` may name another CAS server
 * (Apereo CAS, say): attributes may then be lists, and a server that sends no `tenantCode`
 * signs users into the portal's default tenant.
 */
import { ResultCode } from '@portal/contracts';
import { XMLParser } from 'fast-xml-parser';
import { AppError } from '../../platform/errors.js';

export interface CasUser {
  username: string;
  tenantCode: string;
}

interface ServiceResponse {
  serviceResponse?: {
    authenticationSuccess?: { user?: unknown; attributes?: Record<string, unknown> };
  };
}

// Values stay text (a username "007" is not the number 7); namespaces dropped (cas:user → user).
const xml = new XMLParser({ removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true, trimValues: true });

/** The first value of an attribute that may be a single value or a list (CAS servers do both). */
const first = (v: unknown): string | undefined => {
  const one = Array.isArray(v) ? (v as unknown[])[0] : v;
  return typeof one === 'string' || typeof one === 'number' ? String(one).trim() || undefined : undefined;
};

/** A validation answer, JSON or XML, read as the same shape. */
export function readServiceResponse(text: string): ServiceResponse {
  const body = text.trimStart();
  if (body.startsWith('<')) return xml.parse(body) as ServiceResponse;
  return JSON.parse(body) as ServiceResponse;
}

export function createCasClient(ssoUrl: string, defaultTenantCode: string, timeoutMs = 5000) {
  return async function validateTicket(ticket: string, service: string): Promise<CasUser | null> {
    if (!ssoUrl) throw new AppError(ResultCode.BAD_REQUEST, 'ssoNotConfigured');
    const url = new URL(`${ssoUrl.replace(/\/$/, '')}/cas/p3/serviceValidate`);
    url.search = new URLSearchParams({ ticket, service, format: 'JSON' }).toString();
    let body: ServiceResponse;
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(timeoutMs),
        headers: { accept: 'application/json, application/xml;q=0.9' },
      });
      body = readServiceResponse(await res.text());
    } catch {
      throw new AppError(ResultCode.UNAVAILABLE, 'ssoUnreachable');
    }
    const ok = body?.serviceResponse?.authenticationSuccess;
    const username = first(ok?.user);
    if (!ok || !username) return null;
    return { username, tenantCode: first(ok.attributes?.tenantCode) ?? defaultTenantCode };
  };
}
