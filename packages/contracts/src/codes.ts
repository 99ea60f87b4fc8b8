/**
 * Result codes carried in the envelope's `status` (docs/product/errors.md#result-codes). 200 is success; every other code
 * means what docs/product/errors.md#result-codes says, and the web client maps each of them in one place.
 */
export const ResultCode = {
  OK: 200,
  /** Request was malformed: schema validation, bad JSON, missing field. */
  BAD_REQUEST: 400,
  /** Signed-request failures: stale timestamp, reused nonce, bad signature. */
  BAD_SIGNATURE: 40001,
  /** Credentials or captcha refused at login; deliberately one code for all causes. */
  LOGIN_FAILED: 40002,
  UNAUTHORIZED: 401,
  SESSION_INVALID: 40101,
  SESSION_TIMEOUT: 40109,
  TICKET_EXPIRED: 40121,
  NO_PERMISSION_LOGOUT: 40301,
  NO_PERMISSION: 40303,
  /**
   * Sign-in refused because the account or its tenant is disabled: answered only after the right
   * password, a wrong one getting LOGIN_FAILED as for any account (ADR 045).
   */
  ACCOUNT_DISABLED: 40304,
  /**
   * The account's password was set by someone else (the bootstrap, an operator) and must be
   * changed first: the session may change it and log out, nothing else (ADR 033).
   */
  PASSWORD_CHANGE_REQUIRED: 40305,
  FORCED_LOGOUT: 40307,
  /**
   * The password was right and a second factor is needed (or must be enrolled first): `data` is the
   * FactorChallenge the factor step answers.
   */
  FACTOR_REQUIRED: 40308,
  /** A sensitive operator action needs a factor check within the policy's step-up minutes. */
  STEP_UP_REQUIRED: 40309,
  NOT_FOUND: 404,
  /** Already taken: a username, mobile number or company name at registration. */
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  UNAVAILABLE: 503,
} as const;

export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** Codes after which the client must drop the session (docs/product/errors.md#result-codes). */
export const LOGOUT_CODES: readonly number[] = [
  ResultCode.UNAUTHORIZED,
  ResultCode.SESSION_INVALID,
  ResultCode.SESSION_TIMEOUT,
  ResultCode.TICKET_EXPIRED,
  ResultCode.NO_PERMISSION_LOGOUT,
  ResultCode.FORCED_LOGOUT,
];

/** The HTTP status that accompanies each result code on the wire. */
export function httpStatusOf(code: number): number {
  if (code === ResultCode.OK) return 200;
  if (code >= 100 && code < 600) return code;
  const family = Math.floor(code / 100);
  if (family >= 400 && family < 600) return family;
  return 400;
}
