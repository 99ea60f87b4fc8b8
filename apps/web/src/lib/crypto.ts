/**
 * Crypto that works on plain-http intranet origins, where WebCrypto's `subtle` is missing
 * (browsers offer it only in secure contexts): HMAC-SHA256 from @noble/hashes, RSA-OAEP-SHA256 from node-forge (loaded on demand).
 * AES for the behavioural captcha is in aes.ts, so only the captcha's chunk carries it.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function hmacSha256Hex(secret: string, text: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(text)));
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Random [A-Za-z0-9] text from the browser's CSPRNG (available without a secure context). */
export function randomId(length = 24): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let s = '';
  for (const b of bytes) s += ALNUM[b % ALNUM.length];
  return s;
}

/** base64(RSA-OAEP-SHA256(UTF-8 text)) under an SPKI PEM public key (docs/api.md#password-transport). */
export async function rsaOaepEncrypt(publicKeyPem: string, text: string): Promise<string> {
  const { default: forge } = await import('node-forge');
  const key = forge.pki.publicKeyFromPem(publicKeyPem);
  const cipher = key.encrypt(forge.util.encodeUtf8(text), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(cipher);
}
