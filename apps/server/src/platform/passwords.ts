/**
 * A new password, whoever sets it (ADR 038): a registrant, a user resetting or changing their own,
 * an operator for another user or a new tenant's first operator, the admin CLI. The password
 * travels encrypted (password-transport.ts); `accept` decrypts it and holds it to the tenant's
 * password rules (ADR 053: length, classes, not the username, no keyboard runs, not on the
 * common-password list) — with the old one's cipher, it must also differ from it — and is cheap,
 * so callers run it before anything that costs (a captcha spent, a lockout counted, a rate limit).
 * Only what passed can be hashed, and hashing is the costly step, run last: it first compares the
 * password with the user's last N (argon2 verifications, at most 24, only when a policy asks),
 * then hashes it (argon2id). Storing it, with the sessions it ends and the history it keeps, is
 * `storePassword` (db/passwords.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResultCode, checkPasswordRules, type PasswordRules } from '@portal/contracts';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from './errors.js';
import type { PasswordDecryptor } from './password-transport.js';

/** OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The stored form of a password (the demo's, the bootstrap's, and every `AcceptedPassword`'s). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** Whether `password` is the one `passwordHash` was made of (a damaged hash: no). */
export function isPasswordOf(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

const COMMON_LIST = join(dirname(fileURLToPath(import.meta.url)), '../../assets/common-passwords/passwords.txt');
let common: Set<string> | undefined;

/** Whether the password, lower-cased, is on the common-password list shipped with the product (read once). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(readFileSync(COMMON_LIST, 'utf8').split('\n').filter(Boolean));
  return common.has(password.toLowerCase());
}

/**
 * The first rule `password` breaks, as the error to answer with (null: none). The history is not
 * looked at here (it costs argon2 verifications): `AcceptedPassword.hash` does that.
 */
export function passwordRuleError(password: string, username: string, rules: PasswordRules): AppError | null {
  const [problem] = checkPasswordRules(password, username, rules);
  const bad = (key: ConstructorParameters<typeof AppError>[1], params?: Record<string, number>) =>
    new AppError(ResultCode.BAD_REQUEST, key, params);
  if (problem === 'required' || problem === 'tooShort')
    return bad('passwordTooShort', { min: rules.passwordMinLength });
  if (problem === 'missingClass') return bad(`passwordClasses${rules.passwordClasses}` as 'passwordClasses4');
  if (problem === 'containsUsername') return bad('passwordHasUsername');
  if (problem === 'keyboardSequence') return bad('passwordKeyboardRun');
  if (rules.passwordNotCommon && isCommonPassword(password)) return bad('passwordCommon');
  return null;
}

/** A password that follows the rules: hashing it (after the history check) is all that is left to do with it. */
export interface AcceptedPassword {
  /**
   * The hash to store; 400 `passwordReused` when it is one of the user's last N passwords (the
   * owner's, or `userId`'s: a user known only once their old password was checked).
   */
  hash(userId?: number): Promise<string>;
}

/** Who the password is for: the tenant whose rules hold (none: a tenant still being made, the defaults) and the user. */
export interface PasswordOwner {
  tenantId: number | null;
  username: string;
  /** An existing user (their history is compared); none for a new one. */
  userId?: number | undefined;
}

export interface PasswordsDeps {
  decryptor: PasswordDecryptor;
  /** The tenant's password rules (the security policy's password keys). */
  rulesOf: (tenantId: number | null) => Promise<PasswordRules>;
  /** The user's current password hash and the earlier ones, newest first, at most `n` in all. */
  recentHashes: (userId: number, n: number) => Promise<string[]>;
}

export interface Passwords {
  /**
   * The transported password `cipher`, decrypted and held to the owner's tenant's rules (400
   * `passwordUndecryptable`, or the message of the rule it breaks); with `unlike` (the old
   * password's cipher), also different from it (400 `passwordUnchanged`: a change that keeps a
   * password someone else set would change nothing, ADR 033).
   */
  accept(cipher: string, owner: PasswordOwner, options?: { unlike?: string | undefined }): Promise<AcceptedPassword>;
}

export function createPasswords(deps: PasswordsDeps): Passwords {
  async function acceptPlain(password: string, owner: PasswordOwner): Promise<AcceptedPassword> {
    const rules = await deps.rulesOf(owner.tenantId);
    const error = passwordRuleError(password, owner.username, rules);
    if (error) throw error;
    return {
      async hash(userId = owner.userId) {
        const n = rules.passwordHistory;
        if (n > 0 && userId !== undefined) {
          const recent = await deps.recentHashes(userId, n);
          // One at a time: each costs an argon2 verification, and the first match ends it.
          for (const earlier of recent)
            if (await isPasswordOf(earlier, password))
              throw new AppError(ResultCode.BAD_REQUEST, 'passwordReused', { n });
        }
        return hashPassword(password);
      },
    };
  }
  return {
    async accept(cipher, owner, { unlike } = {}) {
      const password = deps.decryptor.decrypt(cipher);
      const accepted = await acceptPlain(password, owner);
      if (unlike !== undefined && deps.decryptor.decrypt(unlike) === password)
        throw new AppError(ResultCode.BAD_REQUEST, 'passwordUnchanged');
      return accepted;
    },
  };
}
