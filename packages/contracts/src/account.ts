/**
 * Passwords and one's own mobile number: forgot password in three steps, the change after a
 * temporary password, the signed-in user's own change, and proving the mobile number.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Text } from './fields.js';

/** Step 1–2 of forgot password: a code goes to `mobile` only if it is the account's own number. */
export const ResetCodeRequest = Type.Object({
  tenantCode: Type.Optional(Text(64)),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  mobile: Text(20),
  /** The captcha, as for sendPhoneCode. */
  imageCode: Text(1024),
  number: Type.Optional(Text(64)),
});
export type ResetCodeRequest = Static<typeof ResetCodeRequest>;

export const ResetVerifyRequest = Type.Object({
  tenantCode: Type.Optional(Text(64)),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  mobile: Text(20),
  smsCode: Type.String({ minLength: 1, maxLength: 12 }),
});
export type ResetVerifyRequest = Static<typeof ResetVerifyRequest>;
export const ResetGrant = Type.Object({ resetToken: Type.String() });
export type ResetGrant = Static<typeof ResetGrant>;

export const ResetFinishRequest = Type.Object({
  resetToken: Type.String({ minLength: 1, maxLength: 128 }),
  /** base64(RSA-OAEP-SHA256(UTF-8 password)). */
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type ResetFinishRequest = Static<typeof ResetFinishRequest>;

/**
 * The signed-in user's own mobile number (masked; null when the account has none) and whether it
 * is proven to be theirs: only a proven number takes up the enterprise invitations sent to it.
 */
export const OwnMobile = Type.Object({ mobile: Nullable(Type.String()), verified: Type.Boolean() });
export type OwnMobile = Static<typeof OwnMobile>;
/** The code the text message to one's own number carried. */
export const OwnMobileProof = Type.Object({ smsCode: Type.String({ minLength: 1, maxLength: 12 }) });
export type OwnMobileProof = Static<typeof OwnMobileProof>;

/** /user/register-result without a session: the account's credentials and the login captcha. */
export const ChangePasswordRequest = Type.Object({
  tenantCode: Type.Optional(Text(64)),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  oldPwd: Type.String({ minLength: 1, maxLength: 1024 }),
  newPwd: Type.String({ minLength: 1, maxLength: 1024 }),
  imgvercode: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  captchaKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  captchaVerification: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
});
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

/** The signed-in user's own change (`updatePassword`, docs/product/calls.md#call-list): both passwords encrypted. */
export const UpdatePasswordBody = Type.Object({
  oldPwd: Type.String({ minLength: 1, maxLength: 1024 }),
  newPwd: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type UpdatePasswordBody = Static<typeof UpdatePasswordBody>;
