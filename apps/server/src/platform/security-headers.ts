/**
 * The security headers of every response, computed once at start (@fastify/helmet rebuilds
 * helmet's middleware on every request, which took about a sixth of the main thread's time in a
 * profile of infoV2, ADR 005; the headers never change). Documents (the SPA, the sign-on pages)
 * get helmet's set with our content security policy; API answers (JSON, never rendered or framed)
 * the short set OWASP's REST security cheat sheet gives, which is a third of the bytes on the
 * busiest responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // antd writes its styles at run time (CSS-in-JS).
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    // The portal's own frames (its sub-application realms, itself with iframe=1); a tenant's
    // registered origins join per document (documentPolicy).
    frameSrc: ["'self'"],
    frameAncestors: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // No upgrade-insecure-requests: plain-http intranet origins are a supported deployment.
  },
};

/** Origins a tenant's document may use beyond its own (its registered applications, ADR 025). */
export interface DocumentOrigins {
  /** Sub-applications: scripts, styles, images, fonts, calls and frames. */
  apps: string[];
  /** Framed services. */
  frames: string[];
}

/**
 * An origin as a policy may name it: http(s), a host name of letters, digits, hyphens and dots
 * (or an IP literal), and a port. A URL parser takes hosts such as `*.example.com`, `*` or
 * `a;b`, which in a policy would be a wildcard or end the directive (ADR 036).
 */
const PLAIN_ORIGIN = /^https?:\/\/(?:(?:[a-z0-9-]+\.)*[a-z0-9-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;
export const isPlainOrigin = (origin: string): boolean => PLAIN_ORIGIN.test(origin);

/**
 * The content security policy of a tenant's document: the portal's own, with the tenant's
 * registered origins where they are needed, and nowhere else. Only plain origins are written,
 * whatever a caller passes: this is where an origin meets the header.
 */
export function documentPolicy(origins: DocumentOrigins): string {
  const apps = origins.apps.filter(isPlainOrigin);
  const frames = origins.frames.filter(isPlainOrigin);
  const extra: Record<string, string[]> = {
    scriptSrc: apps,
    styleSrc: apps,
    imgSrc: apps,
    fontSrc: apps,
    connectSrc: apps,
    frameSrc: [...new Set([...apps, ...frames])],
  };
  return Object.entries(CONTENT_SECURITY_POLICY.directives)
    .map(([name, values]) => {
      const kebab = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      return [kebab, ...values, ...(extra[name] ?? [])].join(' ');
    })
    .join(';');
}

export function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY, hsts: false, crossOriginEmbedderPolicy: false })(
    {} as IncomingMessage,
    res as unknown as ServerResponse,
    (err?: unknown) => {
      if (err) throw err;
    },
  );
  return headers;
}

/** For /api answers: nothing may load from them, frame them, sniff them or cache them. */
export function apiSecurityHeaders(): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}
