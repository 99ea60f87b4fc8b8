import type { LoginBody } from '@portal/contracts';
import { request } from '../../../lib/api/client';
import { captchaClientId } from '../../../lib/client-id';
import { encryptPassword } from '../../../lib/api/password';
import { setToken } from '../../../lib/session';
import { currentTenant } from '../../../lib/tenant';

export interface LoginInput {
  username: string;
  password: string;
  /** The image captcha's answer, or … */
  imgvercode?: string;
  /** … a passed behavioural captcha, when the server asks for that one. */
  captchaVerification?: string;
}

export async function login(input: LoginInput): Promise<string> {
  const body: LoginBody = {
    username: input.username.trim(),
    password: await encryptPassword(input.password),
    ...(input.captchaVerification
      ? { captchaVerification: input.captchaVerification }
      : { imgvercode: (input.imgvercode ?? '').trim(), captchaKey: captchaClientId() }),
    host: window.location.host,
  };
  const service = new URLSearchParams(window.location.search).get('service');
  return request<string>('/api/auth/jwt/front/token', {
    query: { tenantCode: currentTenant(), service },
    body: { ...body },
    anonymous: true,
    failures: { handledBy: 'the login form: the server message for 5 s and a new captcha' },
  });
}

/** The portal's own login: the token is kept, the session starts. */
export async function signInToPortal(input: LoginInput): Promise<void> {
  setToken(await login(input));
}
