/**
 * A CAS client, for the portal and the example external system alike: it validates a service
 * ticket against the sign-on server over HTTP (CAS 3.0 /p3/serviceValidate), exactly as any other
 * registered service would, and reads the sign-on server's single-logout requests. It asks for JSON
 * and also reads the XML every CAS 3.0 server answers, so `SSO_URL` may name another CAS server
 * (Apereo CAS, say): attributes may then be lists, and a server that sends no `tenantCode`
 * signs users into the portal's default tenant.
 *
 * The sign-on server's address is the installation's (SSO_URL, else PUBLIC_URL), so the request is
 * sent as `installation` through the server's one outbound client (ADR 034): not judged by the
 * address rule (an intranet CAS server is normal), but never following a redirect, within a
 * deadline, and reading at most 64 KiB.
 */
import { ResultCode, SERVICE_TICKET, isOneLine } from '@portal/contracts';
import { XMLParser } from 'fast-xml-parser';
import { AppError } from './errors.js';
import type { Outbound } from './outbound.js';

export interface CasUser {
  username: string;
  tenantCode: string;
  /** The person's name, when the server releases it (this one does, as `name`). */
  name: string | null;
}

interface ServiceResponse {
  serviceResponse?: {
    authenticationSuccess?: { user?: unknown; attributes?: Record<string, unknown> };
  };
}

// Values stay text (a username "007" is not the number 7) and are not trimmed (a user "admin"
// and a line break is not "admin"); namespaces dropped (cas:user → user); no entity a document
// declares is expanded: only XML's own references are read (xmlDecoded).
const xml = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  ignoreAttributes: true,
  trimValues: false,
  processEntities: false,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Text as XML means it: the five predefined entities and character references read, in one pass
 * (so `&amp;lt;` is `&lt;`, not `<`); a server escapes a name with `&` or `<` in it this way.
 */
export function xmlDecoded(text: string): string {
  return text.replace(/&(?:#x([0-9a-fA-F]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g, (whole, hex, dec, name) => {
    if (name) return PREDEFINED[name as string]!;
    const code = hex ? parseInt(hex as string, 16) : Number(dec);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Every text of a parsed XML tree read by xmlDecoded. An answer is at most MAX_ANSWER_CHARS; one
 * nested deeper than the stack allows throws, and is told as the server failing.
 */
function decodedTree(node: unknown): unknown {
  if (typeof node === 'string') return xmlDecoded(node);
  if (Array.isArray(node)) return node.map(decodedTree);
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, decodedTree(v)]));
  }
  return node;
}

/** A validation answer is a few hundred bytes; anything this large is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The one value of an attribute that may be a single value or a list (CAS servers do both):
 * undefined when absent, null when present but not exactly one non-empty text. Trimmed, but for
 * `exact` values (the user), which are taken only as they are and only when one line (isOneLine):
 * a server that releases `admin` followed by a line break releases someone who is not `admin`,
 * and this client must not make them so by trimming.
 */
function single(v: unknown, exact = false): string | null | undefined {
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? (v as unknown[]) : [v];
  const one = list.length === 1 ? list[0] : undefined;
  const text = typeof one === 'string' || typeof one === 'number' ? String(one) : '';
  if (exact) return isOneLine(text) ? text : null;
  return text.trim() || null;
}

/** A validation answer, JSON or XML, read as the same shape. */
function readServiceResponse(text: string): ServiceResponse {
  const body = text.trimStart();
  if (body.startsWith('<')) return decodedTree(xml.parse(body)) as ServiceResponse;
  return JSON.parse(body) as ServiceResponse;
}

export function createCasClient(
  ssoUrl: string,
  defaultTenantCode: string,
  outbound: Pick<Outbound, 'send'>,
  timeoutMs = 5000,
) {
  return async function validateTicket(ticket: string, service: string): Promise<CasUser | null> {
    if (!ssoUrl) throw new AppError(ResultCode.BAD_REQUEST, 'ssoNotConfigured');
    const url = new URL(`${ssoUrl.replace(/\/$/, '')}/cas/p3/serviceValidate`);
    url.search = new URLSearchParams({ ticket, service, format: 'JSON' }).toString();
    let body: ServiceResponse;
    try {
      const res = await outbound.send(url, {
        purpose: 'cas_validate',
        timeoutMs,
        headers: { accept: 'application/json, application/xml;q=0.9' },
        maxResponseBytes: MAX_ANSWER_BYTES,
        installation: true,
      });
      // An error page, a redirect or an oversized answer is the server failing, not the ticket.
      if (res.status < 200 || res.status >= 300) throw new Error(`HTTP ${res.status}`);
      body = readServiceResponse(res.text);
    } catch {
      throw new AppError(ResultCode.UNAVAILABLE, 'ssoUnreachable');
    }
    const ok = body?.serviceResponse?.authenticationSuccess;
    const username = single(ok?.user, true);
    // A tenantCode attribute must name one tenant; only its absence means the default tenant.
    const tenantCode = single(ok?.attributes?.tenantCode);
    if (!ok || !username || tenantCode === null) return null;
    return { username, tenantCode: tenantCode ?? defaultTenantCode, name: single(ok?.attributes?.name) ?? null };
  };
}

const TICKET = new RegExp(SERVICE_TICKET);

/** The service ticket a single-logout request (a SAML LogoutRequest) names, or null. */
export function sessionIndexOf(xml: string): string | null {
  const m = /<(?:\w+:)?SessionIndex>\s*([^<\s]+)\s*<\/(?:\w+:)?SessionIndex>/.exec(xml);
  return m && TICKET.test(m[1]!) ? m[1]! : null;
}
