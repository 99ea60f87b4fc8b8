import type { ImageCaptchaData } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api/client';
import { captchaClientId } from '../../../lib/client-id';

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
