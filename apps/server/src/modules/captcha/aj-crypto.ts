/**
 * AJ-Captcha's crypto: AES-128-ECB with PKCS#7 padding, the key being the 16 characters of the
 * challenge's secretKey taken as UTF-8, the text base64. ECB is AJ-Captcha's choice, kept for
 * compatibility: it only hides click positions for 120 s, and the key is new for every challenge.
 */
import { createCipheriv, createDecipheriv, randomInt } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new secretKey: 16 characters of [A-Za-z0-9]. */
export function newSecretKey(): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

export function aesEncrypt(text: string, secretKey: string): string {
  const c = createCipheriv('aes-128-ecb', Buffer.from(secretKey, 'utf8'), null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
}

/** The plain text, or null when `base64` is not a ciphertext under this key. */
export function aesDecrypt(base64: string, secretKey: string): string | null {
  try {
    const d = createDecipheriv('aes-128-ecb', Buffer.from(secretKey, 'utf8'), null);
    return Buffer.concat([d.update(Buffer.from(base64, 'base64')), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}
