/**
 * What the factors keep and check: TOTP secrets (encrypted with AES-256-GCM under the server's
 * factor key: a code can only be checked with the secret itself), TOTP codes (RFC 6238 through
 * `otpauth`: 6 digits, 30-second steps, SHA-1, a window of one step each side), and recovery codes
 * (random, shown once, kept as an HMAC under the same key so the table alone gives nothing away).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';

/** A TOTP step, in seconds. */
export const TOTP_PERIOD = 30;
/** Steps accepted either side of the server's clock. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function totpOf(secretBase32: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit TOTP secret (base32, as authenticator apps take it). */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/**
 * The time step a right code belongs to (within the window), or null. The caller still makes sure
 * the step is newer than the last one accepted (a code is used once).
 */
export function totpStepOf(secretBase32: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/[\s-]/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

/** The enrolment's address (`otpauth://totp/…`) and its QR code as an SVG data URL. */
export function enrolmentOf(secretBase32: string, label: string, issuer: string): { uri: string; qr: string } {
  const uri = totpOf(secretBase32, label, issuer).toString();
  const svg = renderSVG(uri, { ecc: 'M', border: 2 });
  return { uri, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

export function encryptSecret(key: Uint8Array, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(
    '.',
  );
}

export function decryptSecret(key: Uint8Array, stored: string): string {
  const [version, iv, body, tag] = stored.split('.');
  if (version !== 'v1' || !iv || !body || !tag) throw new Error('unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Ten codes of 10 characters (about 49 bits each), shown as `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (const b of randomBytes(20)) if (b < 248 && code.length < 10) code += ALPHABET[b % ALPHABET.length];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** What is kept of a recovery code: spaces, dashes and case do not matter when it is typed. */
export function recoveryHash(key: Uint8Array, code: string): string {
  const clean = code.toLowerCase().replace(/[\s-]/g, '');
  return createHmac('sha256', key).update(`recovery:${clean}`).digest('hex');
}
