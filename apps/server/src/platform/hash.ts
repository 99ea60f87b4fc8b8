import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 of a text as hex: what is kept of a secret the database must not hold (cookies, tokens). */
export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `length` characters of [A-Za-z0-9], uniformly random: 43 of them carry 256 bits. CAS 3.0 §3.7
 * allows only these and `-` in tickets, and clients enforce it (mod_auth_cas, for one, treats any
 * other ticket as none); device credentials use the same alphabet, safe in any header.
 */
export function randomAlnum(length = 43): string {
  let out = '';
  while (out.length < length) {
    // Bytes from 248 up are dropped, so that each of the 62 characters is equally likely.
    for (const b of randomBytes(length)) if (b < 248 && out.length < length) out += ALNUM[b % 62];
  }
  return out;
}

/**
 * A credential for a machine (a device's ingest key): a public key id, a 256-bit secret, and what
 * is kept of it (its SHA-256; the secret is random enough that no slow hash is needed). `token` is
 * what the machine sends, `<keyId>.<secret>`, and is shown once.
 */
export function newApiKey(): { keyId: string; token: string; secretHash: string } {
  const keyId = randomAlnum(12);
  const secret = randomAlnum(43);
  return { keyId, token: `${keyId}.${secret}`, secretHash: sha256Hex(secret) };
}
