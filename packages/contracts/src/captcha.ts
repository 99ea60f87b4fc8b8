/**
 * The behavioural captcha (the AJ-Captcha protocol: slider puzzle and click-word) and which captcha a
 * tenant uses.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Text } from './fields.js';

/** AJ-Captcha's two behavioural types: the slider puzzle and the ordered click on characters. */
export const CAPTCHA_TYPES = ['blockPuzzle', 'clickWord'] as const;
export type CaptchaType = (typeof CAPTCHA_TYPES)[number];

/** AJ-Captcha's result codes (`repCode`), kept as strings as that protocol sends them. */
export const CaptchaRepCode = {
  SUCCESS: '0000',
  BLANK: '0011',
  /** A parameter of the wrong format (an unknown captchaType). */
  FORMAT: '0016',
  EXPIRED: '6110',
  FAILED: '6111',
  GET_LIMIT: '6201',
  LOCKED: '6202',
  CHECK_LIMIT: '6204',
  ERROR: '9999',
} as const;
export type CaptchaRepCode = (typeof CaptchaRepCode)[keyof typeof CaptchaRepCode];

// Fields are checked by the captcha service itself, so that a missing one answers AJ-Captcha's
// repCode 0011 "{0}不能为空" instead of the portal's 400 envelope.
export const CaptchaFetch = Type.Object({
  captchaType: Type.Optional(Text(32)),
  clientUid: Type.Optional(Text(128)),
  ts: Type.Optional(Type.Union([Type.Integer(), Text(32)])),
});
export type CaptchaFetch = Static<typeof CaptchaFetch>;

export const CaptchaData = Type.Object({
  originalImageBase64: Type.Optional(Type.String()),
  jigsawImageBase64: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  secretKey: Type.Optional(Nullable(Type.String())),
  wordList: Type.Optional(Type.Array(Type.String())),
  result: Type.Optional(Type.Boolean()),
  captchaType: Type.Optional(Type.String()),
});
export type CaptchaData = Static<typeof CaptchaData>;

export const CaptchaResponse = Type.Object({
  repCode: Type.String(),
  repMsg: Nullable(Type.String()),
  repData: Nullable(CaptchaData),
  success: Type.Boolean(),
});
export type CaptchaResponse = Static<typeof CaptchaResponse>;

export const CaptchaCheck = Type.Object({
  captchaType: Type.Optional(Text(32)),
  pointJson: Type.Optional(Text(2048)),
  token: Type.Optional(Text(64)),
  clientUid: Type.Optional(Text(128)),
  ts: Type.Optional(Type.Union([Type.Integer(), Text(32)])),
});
export type CaptchaCheck = Static<typeof CaptchaCheck>;

/** What a business call (registration, SMS) carries after a passed behavioural captcha. */
export const CaptchaVerification = Type.String({ minLength: 1, maxLength: 2048 });

/** `data` of getCaptchaType: `anji` turns on the behavioural captcha, else the image captcha. */
export const CaptchaKind = Type.Union([Type.Literal('anji'), Type.Literal('image')]);
export type CaptchaKind = Static<typeof CaptchaKind>;
