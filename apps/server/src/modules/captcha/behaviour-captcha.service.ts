/**
 * Behavioural captchas with AJ-Captcha's protocol (slider puzzle `blockPuzzle`, ordered clicks on
 * characters `clickWord`): get a challenge, check one answer per token, then spend the resulting
 * captchaVerification once in a business call. Limits per client (address + user agent) live in
 * the database, so they hold across instances.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { CAPTCHA_TYPES, CaptchaRepCode, LIMITS, type CaptchaData, type CaptchaType } from '@portal/contracts';
import type { Metrics } from '../../platform/metrics.js';
import type { Config } from '../../platform/config.js';
import { AppError } from '../../platform/errors.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import { aesDecrypt, aesEncrypt, newSecretKey } from './aj-crypto.js';
import type { CaptchaRepository } from './captcha.repository.js';
import {
  CLICK_CHARACTERS,
  FRAME,
  PIECE,
  PIECE_HEIGHT,
  drawClickWord,
  drawSlider,
  randomGlyphPoints,
  type Glyph,
} from './puzzle-images.js';

/** Test mode answers (docs/product/overview.md#test-mode). */
export const TEST_SLIDER_X = 150;
export const TEST_CLICK_POINTS = [
  { x: 60, y: 60 },
  { x: 150, y: 60 },
  { x: 240, y: 60 },
] as const;

/** The configured behavioural captcha (platform/config.ts, documented there and in the README) plus test mode. */
export type BehaviourCaptchaSettings = Config['behaviourCaptcha'] & { testMode: boolean };

export interface CaptchaReply {
  repCode: CaptchaRepCode;
  /** `{0}` of the message, for 0011. */
  param?: string;
  repData: CaptchaData | null;
}

type Point = { x: number; y: number };

const fail = (repCode: CaptchaRepCode, param?: string): CaptchaReply => ({
  repCode,
  repData: null,
  ...(param ? { param } : {}),
});

function isType(t: string | undefined): t is CaptchaType {
  return (CAPTCHA_TYPES as readonly string[]).includes(t ?? '');
}

function asPoint(v: unknown): Point | null {
  if (!v || typeof v !== 'object') return null;
  const { x, y } = v as Record<string, unknown>;
  return typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
}

function pick<T>(items: readonly T[], count: number): T[] {
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count) out.push(pool.splice(randomInt(pool.length), 1)[0]!);
  return out;
}

export function createBehaviourCaptchaService(deps: {
  repo: CaptchaRepository;
  metrics: Pick<Metrics, 'captcha'>;
  limiter: RateLimiter;
  settings: BehaviourCaptchaSettings;
}) {
  const { repo, limiter, settings: cfg } = deps;

  /**
   * Counts a request of `client` against `limit` per minute: null when it may go on, else the
   * protocol's answer (locked: 6202; over the limit: `code`). A 429 of the limiter becomes `code`.
   */
  async function admit(kind: 'get' | 'check', client: string, limit: number, code: CaptchaRepCode) {
    try {
      const locked = await limiter.hitUnlessLocked(`aj:${kind}:${client}`, `aj:lock:${client}`, limit, 60);
      return locked > 0 ? fail(CaptchaRepCode.LOCKED) : null;
    } catch (err) {
      if (err instanceof AppError && err.httpStatus === 429) return fail(code);
      throw err;
    }
  }

  /** The failure that reaches `failuresBeforeLock` within a minute locks the client. */
  async function recordFailure(client: string): Promise<void> {
    try {
      await limiter.hit(`aj:fail:${client}`, cfg.failuresBeforeLock - 1, 60);
    } catch (err) {
      if (!(err instanceof AppError && err.httpStatus === 429)) throw err;
      await limiter.lock(`aj:lock:${client}`, cfg.lockSeconds);
    }
  }

  async function newSlider(): Promise<{ answer: Point; data: CaptchaData }> {
    const x = cfg.testMode ? TEST_SLIDER_X : randomInt(PIECE.width + 10, FRAME.width - PIECE.width - 4);
    const y = cfg.testMode ? 40 : randomInt(4, FRAME.height - PIECE_HEIGHT - 4);
    const images = await drawSlider(x, y);
    return {
      answer: { x, y },
      data: { originalImageBase64: images.original, jigsawImageBase64: images.jigsaw, result: false },
    };
  }

  async function newClickWord(): Promise<{ answer: Point[]; data: CaptchaData }> {
    const chars = pick(CLICK_CHARACTERS, LIMITS.captcha.clickCount + 1);
    const points = cfg.testMode ? [...TEST_CLICK_POINTS, { x: 150, y: 120 }] : randomGlyphPoints(chars.length);
    const glyphs: Glyph[] = chars.map((char, i) => ({ char, ...points[i]! }));
    // The first three are asked, in this order; the fourth is a decoy.
    const asked = glyphs.slice(0, LIMITS.captcha.clickCount);
    return {
      answer: asked.map(({ x, y }) => ({ x, y })),
      data: { originalImageBase64: await drawClickWord(glyphs), wordList: asked.map((g) => g.char), result: false },
    };
  }

  function passes(type: CaptchaType, answer: unknown, given: unknown): boolean {
    if (type === 'blockPuzzle') {
      const a = asPoint(answer);
      const p = asPoint(given);
      return !!a && !!p && Math.abs(Math.trunc(p.x) - a.x) <= cfg.sliderTolerancePx;
    }
    const a = Array.isArray(answer) ? answer.map(asPoint) : [];
    const p = Array.isArray(given) ? given.map(asPoint) : [];
    if (a.length !== p.length || a.length !== LIMITS.captcha.clickCount) return false;
    return a.every((q, i) => {
      const r = p[i];
      return !!q && !!r && Math.abs(r.x - q.x) <= cfg.clickTolerancePx && Math.abs(r.y - q.y) <= cfg.clickTolerancePx;
    });
  }

  return {
    kind(): 'anji' | 'image' {
      return cfg.enabled ? 'anji' : 'image';
    },

    async get(input: { captchaType?: string | undefined; client: string }): Promise<CaptchaReply> {
      if (!input.captchaType) return fail(CaptchaRepCode.BLANK, 'captchaType');
      if (!isType(input.captchaType)) return fail(CaptchaRepCode.FORMAT, 'captchaType');
      const refused = await admit('get', input.client, cfg.getPerMinute, CaptchaRepCode.GET_LIMIT);
      if (refused) return refused;
      const made = input.captchaType === 'blockPuzzle' ? await newSlider() : await newClickWord();
      const token = randomBytes(16).toString('hex');
      const secretKey = cfg.aes ? newSecretKey() : null;
      await repo.saveChallenge({
        token,
        type: input.captchaType,
        answer: made.answer,
        secretKey,
        ttlSeconds: LIMITS.behaviourCaptchaTtlSeconds,
      });
      return { repCode: CaptchaRepCode.SUCCESS, repData: { ...made.data, token, secretKey } };
    },

    async check(input: {
      captchaType?: string | undefined;
      pointJson?: string | undefined;
      token?: string | undefined;
      client: string;
    }): Promise<CaptchaReply> {
      for (const field of ['captchaType', 'token', 'pointJson'] as const) {
        if (!input[field]) return fail(CaptchaRepCode.BLANK, field);
      }
      const type = input.captchaType!;
      if (!isType(type)) return fail(CaptchaRepCode.FORMAT, 'captchaType');
      const refused = await admit('check', input.client, cfg.checkPerMinute, CaptchaRepCode.CHECK_LIMIT);
      if (refused) return refused;

      const challenge = await repo.takeChallenge(input.token!);
      if (!challenge || challenge.type !== type) return fail(CaptchaRepCode.EXPIRED);
      const plain = challenge.secretKey ? aesDecrypt(input.pointJson!, challenge.secretKey) : input.pointJson!;
      let given: unknown = null;
      try {
        given = plain === null ? null : JSON.parse(plain);
      } catch {
        given = null;
      }
      if (plain === null || !passes(type, challenge.answer, given)) {
        deps.metrics.captcha('behaviour', false);
        await recordFailure(input.client);
        return fail(CaptchaRepCode.FAILED);
      }
      deps.metrics.captcha('behaviour', true);
      // What the client builds too, from the same plain text: AJ-Captcha's captchaVerification.
      const proof = `${input.token}---${plain}`;
      const verification = challenge.secretKey ? aesEncrypt(proof, challenge.secretKey) : proof;
      await repo.saveVerification(verification, LIMITS.captchaVerificationTtlSeconds);
      return { repCode: CaptchaRepCode.SUCCESS, repData: { captchaType: type, token: input.token!, result: true } };
    },

    /** True once for a captchaVerification from a passed check within its lifetime. */
    async consumeVerification(value: string): Promise<boolean> {
      return value.length > 0 && value.length <= 2048 && repo.takeVerification(value);
    },
  };
}

export type BehaviourCaptchaService = ReturnType<typeof createBehaviourCaptchaService>;
