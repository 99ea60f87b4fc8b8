import type { PublicKeyData } from '@portal/contracts';
import { rsaOaepEncrypt } from '../crypto';
import { request } from './client';

let publicKey: Promise<PublicKeyData> | null = null;

function getPublicKey(): Promise<PublicKeyData> {
  publicKey ??= request<PublicKeyData>('/api/front/account/auth/publicKey', {
    anonymous: true,
    failures: { handledBy: 'the form that sends the password, as its own failure' },
  }).catch((err) => {
    publicKey = null;
    throw err;
  });
  return publicKey;
}

/** base64(RSA-OAEP-SHA256(password)) under the server's public key (docs/api.md#password-transport). */
export async function encryptPassword(password: string): Promise<string> {
  const { publicKey: pem } = await getPublicKey();
  return rsaOaepEncrypt(pem, password);
}
