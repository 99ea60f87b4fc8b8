/**
 * The "remember this browser" cookie (ADR 051): a random token the factor step set after a right
 * second factor, read by the password step of every entry (the portal login, the sign-on server)
 * to skip the factor step. httpOnly, SameSite=Lax, Secure over https, for the whole site: the
 * portal's API and /cas both read it. The database keeps only its SHA-256 (remembered_browsers).
 */
export const REMEMBER_COOKIE = 'portal_rb';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The token of the request's cookie header, if it has a token's shape. */
export function rememberTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === REMEMBER_COOKIE && value && TOKEN.test(value)) return value;
  }
  return undefined;
}

/** The Set-Cookie value that stores (or, with maxAgeSeconds 0, removes) the token. */
export function rememberCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${REMEMBER_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
