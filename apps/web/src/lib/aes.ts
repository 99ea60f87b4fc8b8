/** AES for the behavioural captcha's answer, without WebCrypto (plain-http origins have no WebCrypto `subtle`). */
import { ecb } from '@noble/ciphers/aes.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/** base64(AES-128-ECB/PKCS#7(UTF-8 text)) with the UTF-8 bytes of a 16-character key (AJ-Captcha). */
export function aesEcbEncrypt(key: string, text: string): string {
  const bytes = ecb(utf8ToBytes(key)).encrypt(utf8ToBytes(text));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
