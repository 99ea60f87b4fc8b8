/**
 * What a behavioural captcha sends, exactly as AJ-Captcha's clients build it (docs/product/data.md#captcha-protocol): positions
 * scaled to the 310×155 reference frame, `pointJson` AES-encrypted when the challenge carries a
 * secretKey, and the `captchaVerification` a business call spends: AES(token---pointJson plain).
 */
import { LIMITS } from '@portal/contracts';
import { aesEcbEncrypt } from '../../lib/aes';

export interface Point {
  x: number;
  y: number;
}

const { frameWidth, frameHeight, sliderY } = LIMITS.captcha;

/** The slider's answer: the piece's left edge in the reference frame; y is always 5. */
export function sliderAnswer(leftPx: number, displayWidth: number): Point {
  return { x: (leftPx * frameWidth) / displayWidth, y: sliderY };
}

/** Click-word answers: each click scaled to the reference frame and rounded, in click order. */
export function clickAnswer(clicks: readonly Point[], displayWidth: number, displayHeight: number): Point[] {
  return clicks.map((p) => ({
    x: Math.round((p.x * frameWidth) / displayWidth),
    y: Math.round((p.y * frameHeight) / displayHeight),
  }));
}

export interface SealedAnswer {
  pointJson: string;
  captchaVerification: string;
}

export function sealAnswer(token: string, answer: Point | Point[], secretKey: string | null | undefined): SealedAnswer {
  const plain = JSON.stringify(answer);
  const proof = `${token}---${plain}`;
  return secretKey
    ? { pointJson: aesEcbEncrypt(secretKey, plain), captchaVerification: aesEcbEncrypt(secretKey, proof) }
    : { pointJson: plain, captchaVerification: proof };
}
