/**
 * What proves who someone is, shared by the modules that ask for it: the portal's login, the
 * sign-on server's login and the password change with the old password (all checked by the auth
 * service, with its rate limit, captcha and lockout), and a signed-in user's own password (the
 * change dialog, on the same lockout). `app.ts` hands the auth service's functions to the others.
 */
import type { LoginOutcome, LoginVia } from '@portal/contracts';

/** What a login form sends to prove a person: the image captcha's key and answer, or a behavioural verification. */
export interface LoginCaptcha {
  captchaKey?: string | undefined;
  answer?: string | undefined;
  verification?: string | undefined;
}

export interface Credentials {
  tenantCode: string;
  username: string;
  /** The password, RSA-OAEP encrypted by the page (password transport). */
  passwordCipher: string;
  captcha: LoginCaptcha;
  ip: string;
  userAgent: string;
  /** Which door the attempt came through, for the login history (none: not a sign-in, e.g. a password change). */
  via?: LoginVia | undefined;
  /** The browser's "remember this browser" token (its cookie), which skips the factor step. */
  rememberToken?: string | undefined;
  /** Where the sign-in goes on after its factor step (kept with the pending sign-in). */
  factorContext?: Record<string, unknown> | undefined;
}

/**
 * One sign-in attempt for the login history (the sessions module's `recordLoginEvent`, which app.ts
 * hands to every path that checks who someone is: the portal login, the sign-on server, the factor
 * step, step-up). Unknown users: `userId` null, the name typed kept (cut to 64 characters).
 */
export interface LoginEventInput {
  /** The tenant the attempt named; null when it named none that exists. */
  tenantId: number | null;
  userId: number | null;
  username: string;
  outcome: LoginOutcome;
  via: LoginVia;
  /** The factor that was part of it (`totp`, `webauthn`, `sms`, `recovery`, `remembered`, `passkey`). */
  factor?: string | null | undefined;
  ip: string;
  userAgent?: string | null | undefined;
}

export type RecordLoginEvent = (e: LoginEventInput) => Promise<void>;

/** The login's checks: the user, or the login's one refusal (用户名、密码或验证码错误). */
export type VerifyCredentials = (c: Credentials) => Promise<{
  userId: number;
  tenantId: number;
  /** What the sign-in proved (OIDC `amr` values). */
  methods?: string[] | undefined;
  /** The password was the strongest proof the person has: it counts for step-up (ADR 051). */
  strongest?: boolean | undefined;
}>;

/** A signed-in user's own password, checked on the login's lockout. */
export type ConfirmPassword = (
  userId: number,
  passwordCipher: string,
  ip: string,
) => Promise<'ok' | 'wrong' | 'locked'>;

/**
 * The factor step's use of passkeys: the passkeys module provides it, the factors module uses it
 * (wired by app.ts). Options for the person's own passkeys, and the check of an answer against the
 * challenge kept in `state`; the lockout reservation is the caller's, before `verify`.
 */
export interface PasskeyFactor {
  options(tenantId: number, userId: number): Promise<{ options: unknown; state: Record<string, unknown> }>;
  verify(tenantId: number, userId: number, state: Record<string, unknown>, response: unknown): Promise<boolean>;
}
