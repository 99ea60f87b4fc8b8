import type { LoginBody, PublicKeyData } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { captchaClientId } from '../../../lib/client-id';
import { rsaOaepEncrypt } from '../../../lib/crypto';
import { setToken } from '../../../lib/session';
import { storage } from '../../../lib/storage';

export interface LoginInput {
  username: string;
  password: string;
  /** The image captcha's answer, or … */
  imgvercode?: string;
  /** … a passed behavioural captcha, when the server asks for that one. */
  captchaVerification?: string;
}

let publicKey: Promise<PublicKeyData> | null = null;

function getPublicKey(): Promise<PublicKeyData> {
  publicKey ??= request<PublicKeyData>('/api/front/account/auth/publicKey', { anonymous: true, silent: true }).catch(
    (err) => {
      publicKey = null;
      throw err;
    },
  );
  return publicKey;
}

export async function login(input: LoginInput): Promise<string> {
  const { publicKey: pem } = await getPublicKey();
  const body: LoginBody = {
    username: input.username.trim(),
    password: await rsaOaepEncrypt(pem, input.password),
    ...(input.captchaVerification
      ? { captchaVerification: input.captchaVerification }
      : { imgvercode: (input.imgvercode ?? '').trim(), captchaKey: captchaClientId() }),
    host: window.location.host,
  };
  const tenantCode = storage.get<string>('tenantCode');
  const service = new URLSearchParams(window.location.search).get('service');
  return request<string>('/api/auth/jwt/front/token', {
    query: { tenantCode, service },
    body: { ...body },
    anonymous: true,
    silent: true,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login, onSuccess: (token) => setToken(token) });
}
