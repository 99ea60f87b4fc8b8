/**
 * Validation rules of docs/product/validation.md as plain functions, shared by the server's checks and the web forms.
 * Each returns data, never a UI message: the caller picks the message from its catalogue.
 */
import { TENANT_CODE } from './admin-rules.js';
import { LIMITS } from './constants.js';
import { DEFAULT_PASSWORD_RULES, type PasswordRules } from './security.js';

/** Values that count as empty in forms and payloads (docs/product/validation.md#company). */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== 'string') return false;
  const t = value.trim();
  return t === '' || t === 'null' || t === 'undefined';
}

/**
 * Whether `code` can be a tenant's code at all (`TENANT_CODE`): a lookup by anything else finds no
 * tenant, and is not made (a code from an address or a cookie may hold what the database refuses).
 */
export const isTenantCode = (code: string): boolean => new RegExp(TENANT_CODE).test(code);

/** Tenant codes given as the strings null/undefined in any case are ignored (docs/product/screens.md#tenant-code). */
export function cleanTenantCode(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  if (t === '' || /^(null|undefined)$/i.test(t)) return null;
  return t;
}

export type StrengthLevel = 'low' | 'medium' | 'strong';

export interface PasswordStrength {
  /** How many of the classes digits, letters, other characters occur (0..3). */
  classes: number;
  level: StrengthLevel;
  /** Meter value: 10 at zero classes, 30 per class, 100 at three or more. */
  meter: number;
}

export function passwordStrength(password: string): PasswordStrength {
  let classes = 0;
  if (/\d/.test(password)) classes++;
  if (/[A-Za-z]/.test(password)) classes++;
  if (/[^A-Za-z0-9]/.test(password)) classes++;
  const level: StrengthLevel = classes <= 1 ? 'low' : classes === 2 ? 'medium' : 'strong';
  const meter = classes === 0 ? 10 : classes >= 3 ? 100 : classes * 30;
  return { classes, level, meter };
}

/** Strength below medium is refused with 密码强度不够 (docs/product/validation.md#password-strength). */
export function isStrongEnough(password: string): boolean {
  return passwordStrength(password).classes >= 2;
}

export type PasswordProblem = 'required' | 'tooShort' | 'missingClass' | 'containsUsername' | 'keyboardSequence';

const KEYBOARD_ROWS = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./', 'abcdefghijklmnopqrstuvwxyz'];

/** True when the password contains a run of 4 or more keys in keyboard or alphabet order. */
export function hasKeyboardSequence(password: string, run = 4): boolean {
  const p = password.toLowerCase();
  for (const row of KEYBOARD_ROWS) {
    const rev = [...row].reverse().join('');
    for (let i = 0; i + run <= p.length; i++) {
      const part = p.slice(i, i + run);
      if (row.includes(part) || rev.includes(part)) return true;
    }
  }
  return false;
}

/**
 * The registration password rule (docs/product/validation.md#registration): at least 8 characters with a digit, a lowercase and an
 * uppercase letter and a special character; must not contain the username; no keyboard runs. It is the default of the tenant's
 * password rules (`checkPasswordRules`).
 */
export function checkPassword(password: string, username?: string | null): PasswordProblem[] {
  return checkPasswordRules(password, username, DEFAULT_PASSWORD_RULES);
}

/** How many of the four classes (digit, lower case, upper case, other) a password has. */
export function passwordClassCount(password: string): number {
  return [/\d/, /[a-z]/, /[A-Z]/, /[^A-Za-z0-9]/].filter((c) => c.test(password)).length;
}

/**
 * A tenant's password rules (docs/product/security-policy.md) that need nothing but the password: its length, its classes, the
 * username, no keyboard runs (always). The history and the common-password list are the server's to check.
 */
export function checkPasswordRules(
  password: string,
  username: string | null | undefined,
  rules: Pick<PasswordRules, 'passwordMinLength' | 'passwordClasses' | 'passwordNotUsername'>,
): PasswordProblem[] {
  if (!password) return ['required'];
  const problems: PasswordProblem[] = [];
  if (password.length < rules.passwordMinLength) problems.push('tooShort');
  if (passwordClassCount(password) < rules.passwordClasses) problems.push('missingClass');
  if (
    rules.passwordNotUsername &&
    username &&
    username.trim().length > 0 &&
    password.toLowerCase().includes(username.trim().toLowerCase())
  ) {
    problems.push('containsUsername');
  }
  if (hasKeyboardSequence(password)) problems.push('keyboardSequence');
  return problems;
}

/** Repeat password equals the password after trimming both (docs/product/validation.md#registration). */
export function passwordsMatch(password: string, repeat: string): boolean {
  return password.trim() === repeat.trim();
}

/** Default mobile pattern: 11 digits, 1 then 3,4,5,7,8 or 9 (docs/product/validation.md#mobile, docs/product/limits.md#mobile-pattern). */
export const DEFAULT_PHONE_PATTERN = '^1[345789]\\d{9}$';

export function phonePattern(override?: string | null): RegExp {
  if (override) {
    try {
      return new RegExp(override);
    } catch {
      // An invalid override in configuration falls back to the documented default.
    }
  }
  return new RegExp(DEFAULT_PHONE_PATTERN);
}

/** A mobile number as others may see it: 138****0001 (the first three and last four digits). */
export function maskMobile(mobile: string): string {
  return mobile.length >= 7 ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : mobile;
}

export function isValidPhone(phone: string, override?: string | null): boolean {
  return phonePattern(override).test(phone);
}

/** Notice reply text: 2 to 255 characters (docs/product/validation.md#notice-reply). */
export function isValidReplyLength(text: string): boolean {
  const n = [...text].length;
  return n >= LIMITS.replyMinLength && n <= LIMITS.replyMaxLength;
}

/** Attachment extensions allowed on notice replies (docs/product/validation.md#attachments). */
export const ATTACHMENT_EXTENSIONS = [
  'mp4',
  'gz',
  'css',
  'js',
  'jpeg',
  'jpg',
  'png',
  'pdf',
  'doc',
  'docx',
  'gif',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'rar',
  'zip',
  'txt',
] as const;

/** The file picker's filter for attachments (`<input accept>`): the same extensions, each with its dot. */
export const ATTACHMENT_ACCEPT = ATTACHMENT_EXTENSIONS.map((ext) => `.${ext}`).join(',');

export function isAllowedAttachment(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || dot === fileName.length - 1) return false;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return (ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext);
}

/** Estatus of a joined enterprise (docs/product/behaviour.md#enterprise-status). */
export const ENTERPRISE_STATUS = { UNREVIEWED: 0, PASSED: 1, NOT_PASSED: 2 } as const;
