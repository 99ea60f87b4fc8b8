/**
 * Which URLs a ticket may go to, and a logout may redirect to: whole-URL patterns registered per
 * tenant. A pattern is an absolute http(s) URL; one ending in `/` covers every URL below that path,
 * any other covers that path alone (with any query). Matching compares the parsed URL (scheme, host
 * and port exactly; path by whole segments), and refuses anything that could mean something else to
 * another parser: credentials, backslashes, control characters, encoded dots, slashes or percent
 * signs in the path, and a path the parser would change (`..`, `.`).
 *
 * Hosts are compared in one canonical form everywhere (platform/addresses.ts): the URL parser's
 * (lower case, punycode, numeric IPv4 read, default port dropped) without a trailing dot, so
 * `https://erp.example./x` is `https://erp.example/x` to the registry, its tickets and validation.
 *
 * The portal itself is registered as `{PORTAL}` (single logout at `{PORTAL_SLO}`), read as the
 * configured public address, so a changed PUBLIC_URL needs no data change; `{SERVER}` is that
 * address without the portal's path (the example system the demo serves beside the portal).
 */
import { PORTAL_PATTERN, PORTAL_SLO, SERVER_PATTERN } from '../../db/schema.js';
import { canonicalHostname } from '../../platform/addresses.js';

export { PORTAL_PATTERN, PORTAL_SLO };

export interface RegisteredService {
  id: number;
  tenantId: number;
  name: string;
  pattern: string;
  sysCode: string | null;
  entryUrl: string | null;
  logoutUrl: string | null;
}

/** The portal as a registered service, whatever the tenant (for checks that need no lookup). */
export const PORTAL_SERVICE: RegisteredService = {
  id: 0,
  tenantId: 0,
  name: 'portal',
  pattern: PORTAL_PATTERN,
  sysCode: null,
  entryUrl: null,
  logoutUrl: PORTAL_SLO,
};

/** The portal's addresses the placeholders stand for. */
export interface PortalAddresses {
  /** e.g. http://localhost:8080/center/ */
  base: string;
  /** e.g. http://localhost:8080/sso/logout */
  slo: string;
  /** e.g. http://localhost:8080 */
  server: string;
}

// Anywhere: backslashes, whitespace and control characters. In the path: encoded dots, slashes,
// backslashes and percent signs (double encoding), which another parser may resolve differently.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const SUSPICIOUS = /\\|[\s\u0000-\u001f\u007f]/;
const SUSPICIOUS_IN_PATH = /%2e|%2f|%5c|%25/i;

/** The URL a service string means, or null when it is not a plain absolute http(s) URL. */
export function parseService(raw: string): URL | null {
  if (!raw || raw.length > 2048 || SUSPICIOUS.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  // One trailing dot is the same host (and is dropped); an empty label anywhere is no host name.
  const host = canonicalHostname(url);
  if (!host || host.startsWith('.') || host.endsWith('.') || host.includes('..')) return null;
  if (host !== url.hostname) url.hostname = host;
  // The raw text must already be in the form the parser gives (no "..", "./" or such left to
  // resolve): what is checked is then exactly what a browser will open.
  const rawPath =
    raw
      .slice(raw.indexOf('//') + 2)
      .replace(/^[^/?#]*/, '')
      .replace(/[?#].*$/, '') || '/';
  if (rawPath !== url.pathname || SUSPICIOUS_IN_PATH.test(rawPath)) return null;
  return url;
}

/** A pattern or entry address with `{PORTAL}` or `{SERVER}` (at its start) read as that address. */
export function resolvePattern(pattern: string, portal: PortalAddresses): string {
  if (pattern.startsWith(PORTAL_PATTERN)) return `${portal.base}${pattern.slice(PORTAL_PATTERN.length)}`;
  if (pattern.startsWith(SERVER_PATTERN)) return `${portal.server}${pattern.slice(SERVER_PATTERN.length)}`;
  return pattern;
}

/** A pattern's URL with its host in the canonical form, or null when it is no URL. */
function patternUrl(pattern: string): URL | null {
  let p: URL;
  try {
    p = new URL(pattern);
  } catch {
    return null;
  }
  const host = canonicalHostname(p);
  if (host && host !== p.hostname) p.hostname = host;
  return p;
}

export function matches(service: URL, pattern: string): boolean {
  const p = patternUrl(pattern);
  if (!p || service.protocol !== p.protocol || service.host !== p.host) return false;
  return p.pathname.endsWith('/') ? service.pathname.startsWith(p.pathname) : service.pathname === p.pathname;
}

/** The registered service a raw `service` parameter falls under, if any. */
export function findService(
  raw: string,
  services: readonly RegisteredService[],
  portal: PortalAddresses,
): { service: RegisteredService; url: URL } | null {
  const url = parseService(raw);
  if (!url) return null;
  const service = services.find((s) => matches(url, resolvePattern(s.pattern, portal)));
  return service ? { service, url } : null;
}

/**
 * Where single-logout requests for a ticket of `service` (issued for `ticketService`) go, and
 * whether that address is the installation's own: a service the seed registered with the portal's
 * placeholders (an operator cannot write one) is on the configured public address, which the
 * outbound address rule does not judge (ADR 034).
 */
export function logoutTarget(
  service: RegisteredService,
  ticketService: string,
  portal: PortalAddresses,
): { url: string; installation: boolean } {
  if (service.logoutUrl === PORTAL_SLO) return { url: portal.slo, installation: true };
  if (service.logoutUrl) return { url: service.logoutUrl, installation: false };
  const placeholder = service.pattern.startsWith(PORTAL_PATTERN) || service.pattern.startsWith(SERVER_PATTERN);
  return { url: ticketService, installation: placeholder };
}

/**
 * Who owns an address, for telling tenants apart: the canonical host and its port, with http and
 * https of one host as one owner (80 and 443 are the web's default ports, so no port), and the
 * path's segments as the servers in front of an application read them: without case and
 * percent-encoding of plain characters, without empty segments (nginx merges `//`) and without
 * `;parameters` (servlet containers drop them). Null when it is no URL.
 */
function ownerOf(pattern: string): { host: string; segments: string[] } | null {
  const p = patternUrl(pattern);
  if (!p) return null;
  const port = p.port === '' || p.port === '80' || p.port === '443' ? '' : `:${p.port}`;
  let path = p.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape stays as written.
  }
  const segments = path
    .toLowerCase()
    .split('/')
    .map((segment) => segment.replace(/;.*$/, ''))
    .filter((segment) => segment !== '');
  return { host: `${canonicalHostname(p)}${port}`, segments };
}

/**
 * Whether two patterns (placeholders read) can reach one application: then a ticket issued in
 * either tenant could arrive there, and a CAS client, which learns only the username, could not
 * tell whose user it is. A tenant's new pattern must overlap no other tenant's. Owners are compared
 * (above), and one path's segments beginning the other's is an overlap whether either pattern
 * covers a path alone or everything below it: `/finance` reaches the application at `/finance/`
 * behind most servers. `HTTP://ERP.EXAMPLE./Finance/` overlaps `https://erp.example/`, and
 * `https://erp.example//finance;x/` overlaps `https://erp.example/finance`.
 */
export function patternsOverlap(a: string, b: string): boolean {
  const x = ownerOf(a);
  const y = ownerOf(b);
  if (!x || !y || x.host !== y.host) return false;
  const [shorter, longer] = x.segments.length <= y.segments.length ? [x, y] : [y, x];
  return shorter.segments.every((segment, i) => longer.segments[i] === segment);
}
