/**
 * Secrets generated on first start and kept in the database, so that every instance behind a load
 * balancer shares them: the RSA key pair for password transport, the request-signing secret and the
 * JWT key. Concurrent first starts agree through INSERT … ON CONFLICT DO NOTHING.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { serverSecrets } from '../db/schema.js';

export interface Secrets {
  rsaPrivateKeyPem: string;
  rsaPublicKeyPem: string;
  rsaKeyId: string;
  signSecret: string;
  jwtKey: Uint8Array;
  /** Keys the stored hashes of SMS codes. */
  smsKey: Uint8Array;
  /** Signs download addresses of uploaded files (ADR 024). */
  downloadKey: Uint8Array;
  /** Signs the OpenID Provider's cookies, so that every instance reads every instance's cookie. */
  oidcCookieKey: string;
  /** Encrypts TOTP secrets (AES-256-GCM) and keys the hashes of recovery codes. */
  factorKey: Uint8Array;
}

/**
 * The secret `name`, made by `make` on first use (also in a transaction: the demo's seed). `make`
 * runs only when the secret is missing: the RSA key pair costs a fifth of a CPU-second or more, and
 * every start after the first reads the stored one.
 */
export async function ensureSecret(db: Db | Tx, name: string, make: () => string): Promise<string> {
  const stored = async () =>
    (await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name)))[0]?.value;
  const found = await stored();
  if (found) return found;
  await db.insert(serverSecrets).values({ name, value: make() }).onConflictDoNothing({ target: serverSecrets.name });
  const value = await stored();
  if (!value) throw new Error(`secret ${name} could not be stored`);
  return value;
}

export async function loadSecrets(db: Db): Promise<Secrets> {
  const keyPair = await ensureSecret(db, 'rsa_key_pair', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return JSON.stringify({ privateKey, publicKey });
  });
  const { privateKey, publicKey } = JSON.parse(keyPair) as { privateKey: string; publicKey: string };
  const signSecret = await ensureSecret(db, 'sign_secret', () => randomBytes(32).toString('base64url'));
  const jwtKey = await ensureSecret(db, 'jwt_key', () => randomBytes(32).toString('base64url'));
  const smsKey = await ensureSecret(db, 'sms_key', () => randomBytes(32).toString('base64url'));
  const downloadKey = await ensureSecret(db, 'download_key', () => randomBytes(32).toString('base64url'));
  const oidcCookieKey = await ensureSecret(db, 'oidc_cookie_key', () => randomBytes(32).toString('base64url'));
  const factorKey = await ensureSecret(db, 'factor_key', () => randomBytes(32).toString('base64url'));
  return {
    rsaPrivateKeyPem: privateKey,
    rsaPublicKeyPem: publicKey,
    rsaKeyId: createHash('sha256').update(publicKey).digest('hex').slice(0, 16),
    signSecret,
    jwtKey: Buffer.from(jwtKey, 'base64url'),
    smsKey: Buffer.from(smsKey, 'base64url'),
    downloadKey: Buffer.from(downloadKey, 'base64url'),
    oidcCookieKey,
    factorKey: Buffer.from(factorKey, 'base64url'),
  };
}
