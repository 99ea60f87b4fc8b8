import type { CaptchaKind, CaptchaResponse, CaptchaType } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { request, requestRaw } from '../../../lib/api/client';
import { captchaClientId } from '../../../lib/client-id';

/** The widget says what failed in its own frame (加载失败, 验证失败), as AJ-Captcha's does. */
const WIDGET = { handledBy: 'the captcha widget, in its frame' };

/** A new challenge (AJ-Captcha `get`): images, token and secretKey, or a repCode saying why not. */
export function fetchChallenge(captchaType: CaptchaType): Promise<CaptchaResponse> {
  return requestRaw<CaptchaResponse>('/api/front/captcha/get', {
    body: { captchaType, clientUid: captchaClientId(), ts: Date.now() },
    anonymous: true,
    failures: WIDGET,
  });
}

/** The one check a token allows (AJ-Captcha `check`). */
export function checkAnswer(captchaType: CaptchaType, token: string, pointJson: string): Promise<CaptchaResponse> {
  return requestRaw<CaptchaResponse>('/api/front/captcha/check', {
    body: { captchaType, pointJson, token, clientUid: captchaClientId(), ts: Date.now() },
    anonymous: true,
    failures: WIDGET,
  });
}

/** `anji` when the server asks for the behavioural captcha (docs/product/calls.md#call-list), else `image`. */
export function useCaptchaKind() {
  return useQuery({
    queryKey: ['captcha-kind'],
    queryFn: () =>
      request<CaptchaKind>('/api/front/captcha/getCaptchaType', {
        body: {},
        anonymous: true,
        failures: { handledBy: 'the form, which offers to ask again' },
      }),
    staleTime: Infinity,
    retry: 1,
  });
}
