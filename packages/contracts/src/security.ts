/**
 * A tenant's sign-in policy (second factors, remembered browsers, step-up, passwords, login history)
 * and the factor step every sign-in shares. docs/product/security-policy.md says what each key does.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** The second factors a person can hold. Recovery codes are a factor of last resort, never the only one. */
export const FACTOR_KINDS = ['totp', 'webauthn', 'sms', 'recovery'] as const;
export type FactorKind = (typeof FACTOR_KINDS)[number];

/** Who must have a second factor: nobody asked, offered to all, operators, everybody. */
export const FACTOR_REQUIREMENTS = ['off', 'optional', 'operators', 'everyone'] as const;
export type FactorRequirement = (typeof FACTOR_REQUIREMENTS)[number];

export const SecurityPolicy = Type.Object(
  {
    /** Who must have a second factor (`off`: none is asked for, even from those who enrolled one). */
    factorRequirement: Type.Enum([...FACTOR_REQUIREMENTS]),
    /** Which factors people may use and enrol. Recovery codes follow whether any other is allowed. */
    allowedFactors: Type.Array(Type.Enum([...FACTOR_KINDS]), { uniqueItems: true, maxItems: 4 }),
    /** Days a person the policy newly requires a factor of may still sign in without one, to enrol. */
    enrolGraceDays: Type.Integer({ minimum: 0, maximum: 90 }),
    /** Days "remember this browser" skips the factor step (0: not offered). */
    rememberBrowserDays: Type.Integer({ minimum: 0, maximum: 365 }),
    /** Minutes a factor check counts for sensitive operator actions (step-up). */
    stepUpMinutes: Type.Integer({ minimum: 1, maximum: 60 }),
    passwordMinLength: Type.Integer({ minimum: 8, maximum: 64 }),
    /** Character classes required of 4 (digit, lower case, upper case, other). */
    passwordClasses: Type.Integer({ minimum: 1, maximum: 4 }),
    /** Refuse a password containing the username. */
    passwordNotUsername: Type.Boolean(),
    /** Refuse any of the person's last N passwords (0: no history). */
    passwordHistory: Type.Integer({ minimum: 0, maximum: 24 }),
    /** Days after which a password must be changed at sign-in (0: never). */
    passwordMaxAgeDays: Type.Integer({ minimum: 0, maximum: 3650 }),
    /** Refuse the passwords of the common-password list shipped with the product. */
    passwordNotCommon: Type.Boolean(),
    /** Days sign-in attempts are kept in the login history. */
    loginHistoryDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  },
  { additionalProperties: false },
);
export type SecurityPolicy = Static<typeof SecurityPolicy>;

/**
 * The product's defaults: the registration password rule (8 characters, all four classes, not the
 * username; `checkPassword`), factors offered to everyone who wants one, none required. The
 * common-password list is off by default so that a tenant that sets nothing keeps exactly the
 * registration rule; the console recommends turning it on.
 */
export const DEFAULT_SECURITY_POLICY: SecurityPolicy = {
  factorRequirement: 'optional',
  allowedFactors: ['totp', 'webauthn', 'recovery'],
  enrolGraceDays: 7,
  rememberBrowserDays: 30,
  stepUpMinutes: 5,
  passwordMinLength: 8,
  passwordClasses: 4,
  passwordNotUsername: true,
  passwordHistory: 0,
  passwordMaxAgeDays: 0,
  passwordNotCommon: false,
  loginHistoryDays: 180,
};

/** What a tenant stored, each key checked on its own: a key that fails its rule takes the default. */
export function securityPolicyOf(stored: Record<string, unknown> | null | undefined): SecurityPolicy {
  const policy: Record<string, unknown> = { ...DEFAULT_SECURITY_POLICY };
  const rules = SecurityPolicy.properties as unknown as Record<string, Parameters<typeof Value.Check>[0]>;
  for (const [key, value] of Object.entries(stored ?? {})) {
    const rule = rules[key];
    if (rule && Value.Check(rule, value)) policy[key] = value;
  }
  return policy as SecurityPolicy;
}

/**
 * The answer of a sign-in whose password was right but which still needs a second factor (result
 * code FACTOR_REQUIRED): the challenge names the pending sign-in for a few minutes.
 */
export const FactorChallenge = Type.Object({
  challenge: Type.String(),
  /** The factors this person can answer with now, in the order the page offers them. */
  factors: Type.Array(Type.String()),
  /** The person must enrol a factor before going on (the policy requires one and they have none). */
  enrol: Type.Boolean(),
  /** Days of grace left to enrol, when the policy requires a factor the person does not have yet. */
  graceDaysLeft: Type.Union([Type.Integer(), Type.Null()]),
  /** Whether "remember this browser" may be offered, and for how many days. */
  rememberDays: Type.Integer(),
  /** An operator reset this person's factors since their last sign-in. */
  factorsReset: Type.Boolean(),
  /** With `sms` among the factors: the proven mobile the code goes to, masked (138****0000). */
  mobile: Type.Optional(Type.String()),
});
export type FactorChallenge = Static<typeof FactorChallenge>;

/** The factor step's answer: a TOTP or SMS code, a recovery code, or a WebAuthn assertion (JSON). */
export const FactorAnswer = Type.Object({
  challenge: Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
  kind: Type.Enum([...FACTOR_KINDS]),
  code: Type.Optional(Type.String({ minLength: 6, maxLength: 32, pattern: '^[A-Za-z0-9 -]+$' })),
  /** The WebAuthn AuthenticationResponseJSON, as @simplewebauthn/browser gives it. */
  assertion: Type.Optional(Type.Object({}, { additionalProperties: true, maxProperties: 16 })),
  /** Remember this browser for the policy's days. */
  remember: Type.Optional(Type.Boolean()),
});
export type FactorAnswer = Static<typeof FactorAnswer>;

/** The password keys of the policy: what every password set is held to, and what pages show of it. */
export const PasswordRules = Type.Pick(SecurityPolicy, [
  'passwordMinLength',
  'passwordClasses',
  'passwordNotUsername',
  'passwordHistory',
  'passwordMaxAgeDays',
  'passwordNotCommon',
]);
export type PasswordRules = Static<typeof PasswordRules>;

/** The password part of a policy (the tenant's runtime config carries it to the pages; never the factor keys). */
export function passwordRulesOf(policy: SecurityPolicy): PasswordRules {
  return {
    passwordMinLength: policy.passwordMinLength,
    passwordClasses: policy.passwordClasses,
    passwordNotUsername: policy.passwordNotUsername,
    passwordHistory: policy.passwordHistory,
    passwordMaxAgeDays: policy.passwordMaxAgeDays,
    passwordNotCommon: policy.passwordNotCommon,
  };
}

export const DEFAULT_PASSWORD_RULES: PasswordRules = passwordRulesOf(DEFAULT_SECURITY_POLICY);

/** The tenant's policy as the console edits it: what is in force, and the product's defaults beside it. */
export const SecurityPolicyView = Type.Object({
  policy: SecurityPolicy,
  defaults: SecurityPolicy,
});
export type SecurityPolicyView = Static<typeof SecurityPolicyView>;
const ChallengeToken = Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });
const FactorName = Type.String({ minLength: 1, maxLength: 64 });

/** A pending sign-in, named by its challenge (enrol later, passkey options). */
export const FactorChallengeRef = Type.Object({ challenge: ChallengeToken });
export type FactorChallengeRef = Static<typeof FactorChallengeRef>;

/** A new TOTP authenticator's name; during a sign-in that must enrol, with its challenge. */
export const TotpStart = Type.Object({ name: FactorName, challenge: Type.Optional(ChallengeToken) });
export type TotpStart = Static<typeof TotpStart>;

/**
 * A TOTP enrolment waiting for its first code: the secret to type in by hand, the otpauth:// address
 * and its QR code (an SVG data URL). The secret is shown this once and never again.
 */
export const TotpEnrolment = Type.Object({
  id: Type.String(),
  secret: Type.String(),
  uri: Type.String(),
  qr: Type.String(),
});
export type TotpEnrolment = Static<typeof TotpEnrolment>;

export const TotpConfirm = Type.Object({ code: Type.String({ minLength: 6, maxLength: 16, pattern: '^[0-9 -]+$' }) });
export type TotpConfirm = Static<typeof TotpConfirm>;

/** The first code of an authenticator enrolled during a sign-in, with the sign-in's challenge. */
export const TotpConfirmInSignIn = Type.Object({ challenge: ChallengeToken, code: TotpConfirm.properties.code });
export type TotpConfirmInSignIn = Static<typeof TotpConfirmInSignIn>;

/** Recovery codes, shown once (after the first factor, and on regeneration). */
export const RecoveryCodes = Type.Object({ recoveryCodes: Type.Union([Type.Array(Type.String()), Type.Null()]) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;

export const FactorRename = Type.Object({ name: FactorName });

/** A person's own factors (never a secret). */
export const MyFactors = Type.Object({
  factors: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      name: Type.String(),
      createdAt: Type.String(),
      lastUsedAt: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  recoveryCodesLeft: Type.Integer(),
  /** The proven mobile, masked, when the policy allows SMS codes (changed where the mobile is changed). */
  smsMobile: Type.Union([Type.String(), Type.Null()]),
  allowed: Type.Array(Type.String()),
  requirement: Type.String(),
});
export type MyFactors = Static<typeof MyFactors>;

/**
 * Step-up: a factor's code, a passkey's assertion (with the challenge its options came with), or
 * (for a person without a factor) the password, RSA-encrypted as at login.
 */
export const StepUpBody = Type.Object({
  kind: Type.Optional(Type.Enum([...FACTOR_KINDS])),
  code: Type.Optional(Type.String({ minLength: 6, maxLength: 32, pattern: '^[A-Za-z0-9 -]+$' })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  challenge: Type.Optional(ChallengeToken),
  /** The WebAuthn AuthenticationResponseJSON, as @simplewebauthn/browser gives it. */
  assertion: Type.Optional(Type.Object({}, { additionalProperties: true, maxProperties: 16 })),
});
export type StepUpBody = Static<typeof StepUpBody>;

/** What a step-up can be answered with now (the console's dialog asks this first). */
export const StepUpFactors = Type.Object({
  factors: Type.Array(Type.String()),
  /** With `sms`: the proven mobile, masked. */
  mobile: Type.Union([Type.String(), Type.Null()]),
});
export type StepUpFactors = Static<typeof StepUpFactors>;

/** A step-up's passkey request: the options for the browser and the challenge to answer with. */
export const StepUpPasskey = Type.Object({
  challenge: Type.String(),
  options: Type.Object({}, { additionalProperties: true }),
});
export type StepUpPasskey = Static<typeof StepUpPasskey>;

/** An SMS code was sent: to which number (masked), and when another may be asked for. */
export const FactorSmsSent = Type.Object({ mobile: Type.String(), resendSeconds: Type.Integer() });
export type FactorSmsSent = Static<typeof FactorSmsSent>;
