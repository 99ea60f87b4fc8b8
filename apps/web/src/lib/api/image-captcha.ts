/**
 * The image captchas (docs/product/calls.md#call-list): the login's, keyed by the browser's captcha client id, and the
 * registration's, keyed by a random number the form sends back with its answer.
 */
import type { ImageCaptchaData } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { randomId } from '../crypto';
import { captchaClientId } from '../client-id';
import { request } from './client';

/** A captcha that does not load says so in place of its image (click to try again). */
const IMAGE = { handledBy: 'the captcha image, which says it failed' };

export function getCaptcha(clientId: string): Promise<ImageCaptchaData> {
  return request<ImageCaptchaData>('/api/auth/kaptcha/get', {
    query: { type: 'LOGIN', data: clientId },
    anonymous: true,
    failures: IMAGE,
  });
}

/** The login captcha; `counter` changes to fetch a new one (click on the image, after each attempt). */
export function useCaptcha(counter: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['login-captcha', counter],
    queryFn: () => getCaptcha(captchaClientId()),
    staleTime: Infinity,
    gcTime: 0,
    retry: 1,
  });
}

/** The registration captcha (`number` is sent back with the answer); a new one per `counter`. */
export function useRegisterCaptcha(counter: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['register-captcha', counter],
    queryFn: async () => {
      const number = randomId(16);
      const data = await request<ImageCaptchaData>('/api/front/account/auth/kaptcha', {
        query: { number },
        anonymous: true,
        failures: IMAGE,
      });
      return { number, image: data.image };
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: 1,
  });
}
