/**
 * Login and session: the login form, sign-on tickets, the image captcha, the public key the password
 * is encrypted with, and the signed-in user's information.
 */
import { Type, type Static } from 'typebox';
import { CaptchaVerification } from './captcha.js';
import { Nullable, Text } from './fields.js';

export const LoginQuery = Type.Object({
  service: Type.Optional(Text(2048)),
  tenantCode: Type.Optional(Text(64)),
});
export type LoginQuery = Static<typeof LoginQuery>;

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  /** base64(RSA-OAEP-SHA256(UTF-8 password)) — see docs/api.md#password-transport. */
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  /** The image captcha's answer (when getCaptchaType answers `image`). */
  imgvercode: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  /** The client id that fetched the captcha image (`data` of the captcha call). */
  captchaKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  /** A passed behavioural captcha (when getCaptchaType answers `anji`), spent by this call. */
  captchaVerification: Type.Optional(CaptchaVerification),
  host: Type.Optional(Text(255)),
});
export type LoginBody = Static<typeof LoginBody>;

export const TokenData = Type.String();

/** /front/esa/system/sso: the external system to enter. */
export const SystemSignOnBody = Type.Object({
  sysCode: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
});
export type SystemSignOnBody = Static<typeof SystemSignOnBody>;

/**
 * A CAS service ticket as a client accepts it: `ST-` and letters, digits, `-` (CAS 3.0 §3.7), and
 * `.` (Apereo CAS appends its host name; mod_auth_cas accepts it too), up to the 256 characters
 * the protocol recommends. The sign-on server here writes only `ST-` and 43 of [A-Za-z0-9].
 */
export const SERVICE_TICKET = '^ST-[A-Za-z0-9.-]{1,253}$';

/** getTokenBySt: `st` (docs/product/behaviour.md#sign-on) and the exact service address the ticket was issued for. */
export const TokenByStQuery = Type.Object({
  st: Type.String({ minLength: 4, maxLength: 256, pattern: SERVICE_TICKET }),
  service: Type.String({ minLength: 1, maxLength: 2048 }),
});
export type TokenByStQuery = Static<typeof TokenByStQuery>;

/** The registration form's image captcha, bound to a random number the page makes. */
export const RegisterCaptchaQuery = Type.Object({
  number: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export type RegisterCaptchaQuery = Static<typeof RegisterCaptchaQuery>;

export const ImageCaptchaQuery = Type.Object({
  type: Type.Optional(Text(16)),
  data: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export type ImageCaptchaQuery = Static<typeof ImageCaptchaQuery>;

/** The image itself as a data URL, ready for an <img src>. */
export const ImageCaptchaData = Type.Object({ image: Type.String() });
export type ImageCaptchaData = Static<typeof ImageCaptchaData>;

export const PublicKeyData = Type.Object({ publicKey: Type.String(), keyId: Type.String() });
export type PublicKeyData = Static<typeof PublicKeyData>;

export const UserInfo = Type.Object({
  username: Type.String(),
  name: Type.String(),
  userId: Type.String(),
  groupId: Nullable(Type.String()),
  groupName: Nullable(Type.String()),
  tenantId: Type.String(),
  tenantCode: Type.String(),
  /** Ours (ADR 020): the park's name, in the request's language. */
  tenantName: Type.String(),
  image: Nullable(Type.String()),
  defaultApplyCode: Nullable(Type.String()),
  defaultApplyId: Nullable(Type.String()),
  defaultRoleId: Nullable(Type.String()),
  defaultEntId: Nullable(Type.String()),
  defaultEntGuId: Nullable(Type.String()),
  homeUri: Nullable(Type.String()),
  /** Ours (ADR 011): the default workbench for the next login, like the other defaults. */
  defaultWorkbenchId: Nullable(Type.String()),
  /** Ours (ADR 011): the session's current role, application and workbench, which the switch dialogs preselect. */
  roleId: Nullable(Type.String()),
  applyId: Nullable(Type.String()),
  workbenchId: Nullable(Type.String()),
});
export type UserInfo = Static<typeof UserInfo>;

export const InfoQuery = Type.Object({
  token: Type.Optional(Text(2048)),
  fastRoleCode: Type.Optional(Text(64)),
  roleId: Type.Optional(Text(64)),
  wbCode: Type.Optional(Text(64)),
  benchCode: Type.Optional(Text(64)),
});
export type InfoQuery = Static<typeof InfoQuery>;
