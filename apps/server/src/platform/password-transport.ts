/**
 * Password transport (docs/api.md#password-transport): the browser sends base64(RSA-OAEP-SHA256(UTF-8 password))
 * under the server's public key. Replaying a captured login body fails on the signed request's
 * nonce and on the single-use captcha it carries.
 */
import { constants, createPrivateKey, privateDecrypt, type KeyObject } from 'node:crypto';
import { ResultCode } from '@portal/contracts';
import { AppError } from './errors.js';

export interface PasswordDecryptor {
  decrypt(cipherBase64: string): string;
}

export function createPasswordDecryptor(privateKeyPem: string): PasswordDecryptor {
  const key: KeyObject = createPrivateKey(privateKeyPem);
  return {
    decrypt(cipherBase64) {
      try {
        const buf = Buffer.from(cipherBase64, 'base64');
        if (buf.length !== 256) throw new Error('length');
        const plain = privateDecrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, buf);
        return plain.toString('utf8');
      } catch {
        throw new AppError(ResultCode.BAD_REQUEST, 'passwordUndecryptable');
      }
    },
  };
}
