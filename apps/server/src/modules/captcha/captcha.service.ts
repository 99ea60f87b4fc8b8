import { LIMITS } from '@portal/contracts';
import type { Metrics } from '../../platform/metrics.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { CaptchaRepository } from './captcha.repository.js';
import { drawCaptcha, randomAnswer } from './image-captcha.js';

/** Answer of every image captcha in test mode (docs/product/overview.md#test-mode). */
export const TEST_CAPTCHA_ANSWER = '8888';

export interface CaptchaServiceDeps {
  repo: CaptchaRepository;
  metrics: Pick<Metrics, 'captcha'>;
  limiter: RateLimiter;
  testMode: boolean;
  perClientPerMinute: number;
}

/** Which form an image captcha belongs to: a login's can't be spent on a registration. */
export type ImageCaptchaPurpose = 'login' | 'register';

export function createCaptchaService({ repo, metrics, limiter, testMode, perClientPerMinute }: CaptchaServiceDeps) {
  return {
    /** Issues a new image captcha bound to `clientId`; limited per client id and per address. */
    async issue(purpose: ImageCaptchaPurpose, clientId: string, ip: string): Promise<{ image: string }> {
      await limiter.hit(`captcha:client:${clientId}`, perClientPerMinute, 60);
      await limiter.hit(`captcha:ip:${ip}`, perClientPerMinute * 10, 60);
      const answer = testMode ? TEST_CAPTCHA_ANSWER : randomAnswer();
      await repo.save(`${purpose}:${clientId}`, answer.toLowerCase(), LIMITS.imageCaptchaTtlSeconds);
      return { image: drawCaptcha(answer) };
    },
    /** True when `answer` matches the live challenge of `clientId`; the challenge is spent either way. */
    async verify(purpose: ImageCaptchaPurpose, clientId: string, answer: string): Promise<boolean> {
      const expected = await repo.take(`${purpose}:${clientId}`);
      const passed = expected !== null && expected === answer.trim().toLowerCase();
      metrics.captcha('image', passed);
      return passed;
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
