import { createDecipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clickAnswer, sealAnswer, sliderAnswer } from './answer';

const decrypt = (b64: string, key: string) => {
  const d = createDecipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([d.update(Buffer.from(b64, 'base64')), d.final()]).toString('utf8');
};

describe('captcha answers (AJ-Captcha client rules)', () => {
  it('scales the slider to the 310 px frame with y fixed at 5', () => {
    expect(sliderAnswer(150, 310)).toEqual({ x: 150, y: 5 });
    // Registration draws 400 px wide: 193.5 px there is 150 px of the frame.
    expect(sliderAnswer(193.5, 400).x).toBeCloseTo(149.96, 2);
    expect(sliderAnswer(0, 400)).toEqual({ x: 0, y: 5 });
  });

  it('scales clicks to 310×155 and rounds them, keeping their order', () => {
    const clicks = [
      { x: 77.4, y: 77.4 },
      { x: 193.5, y: 77.6 },
      { x: 10, y: 199 },
    ];
    expect(clickAnswer(clicks, 400, 200)).toEqual([
      { x: 60, y: 60 },
      { x: 150, y: 60 },
      { x: 8, y: 154 },
    ]);
  });

  it('encrypts pointJson and builds captchaVerification from the same plain text', () => {
    const key = 'q1W2e3R4t5Y6u7I8';
    const token = 'a'.repeat(32);
    const sealed = sealAnswer(token, { x: 150.25, y: 5 }, key);
    expect(decrypt(sealed.pointJson, key)).toBe('{"x":150.25,"y":5}');
    expect(decrypt(sealed.captchaVerification, key)).toBe(`${token}---{"x":150.25,"y":5}`);
  });

  it('sends plain JSON when the challenge has no secretKey (encryption off)', () => {
    const points = [
      { x: 60, y: 60 },
      { x: 150, y: 60 },
      { x: 240, y: 60 },
    ];
    const plain = JSON.stringify(points);
    expect(sealAnswer('t', points, null)).toEqual({ pointJson: plain, captchaVerification: `t---${plain}` });
  });
});
