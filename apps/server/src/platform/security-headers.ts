/**
 * The security headers of every response (helmet's, with our content security policy), computed
 * once at start. @fastify/helmet rebuilds helmet's middleware on every request, which took about a
 * sixth of the main thread's time in a profile of infoV2 (ADR 005); the headers never change.
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
    frameSrc: ['*'],
    frameAncestors: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    // No upgrade-insecure-requests: plain-http intranet origins are a supported deployment.
  },
};

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
