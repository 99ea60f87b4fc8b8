/**
 * The proof of a person a form sends, checked as the server's configured kind says (the answer of
 * getCaptchaType): with the behavioural captcha on, only its verification counts, else only the
 * image captcha's answer for the purpose it was drawn for. The proof is spent whatever the outcome.
 */
import type { LoginCaptcha } from '../../platform/credentials.js';
import type { BehaviourCaptchaService } from './behaviour-captcha.service.js';
import type { CaptchaService, ImageCaptchaPurpose } from './captcha.service.js';

export function createProofOfPerson(captcha: Pick<CaptchaService, 'verify'>, behaviour: BehaviourCaptchaService) {
  async function check(purpose: ImageCaptchaPurpose, imageKey?: string, answer?: string, verification?: string) {
    if (behaviour.kind() === 'anji') return behaviour.consumeVerification(verification ?? '');
    return !!imageKey && !!answer && captcha.verify(purpose, imageKey, answer);
  }

  return {
    /** The login form's proof: the image captcha's key and answer, or `captchaVerification`. */
    login: (p: LoginCaptcha) => check('login', p.captchaKey, p.answer, p.verification),
    /** Registration, SMS and password reset: one answer field carries either kind. */
    human: (p: { number?: string | undefined; answer: string }) => check('register', p.number, p.answer, p.answer),
  };
}
