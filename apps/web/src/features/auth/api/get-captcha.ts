import type { ImageCaptchaData } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { randomId } from '../../../lib/crypto';
import { storage } from '../../../lib/storage';

/** The random client id that binds a login captcha to this browser (spec §3). */
export function captchaClientId(): string {
  let id = storage.get<string>('captchaClientId');
  if (!id) {
    id = randomId(24);
    storage.set('captchaClientId', id);
  }
  return id;
}

export function getCaptcha(clientId: string): Promise<ImageCaptchaData> {
  return request<ImageCaptchaData>('/api/auth/kaptcha/get', {
    query: { type: 'LOGIN', data: clientId },
    anonymous: true,
    silent: true,
  });
}

/** The login captcha; `counter` changes to fetch a new one (click on the image, after each attempt). */
export function useCaptcha(counter: number) {
  return useQuery({
    queryKey: ['login-captcha', counter],
    queryFn: () => getCaptcha(captchaClientId()),
    staleTime: Infinity,
    gcTime: 0,
    retry: 1,
  });
}
