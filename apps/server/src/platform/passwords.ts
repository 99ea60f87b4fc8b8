/**
 * A new password, whoever sets it (ADR 038): a registrant, a user resetting or changing their own,
 * an operator for another user or a new tenant's first operator. The password travels encrypted
 * (password-transport.ts); `accept` decrypts it and holds it to the password rule — with the old
 * one's cipher, it must also differ from it — and is cheap, so callers run it before anything that
 * costs (a captcha spent, a lockout counted, a rate limit). Only what passed can be hashed, and
 * hashing (argon2id) is the costly step, run last. Storing it, with the sessions it ends, is
 * `storePassword` (db/passwords.ts).
 */
import { ResultCode, checkPassword } from '@portal/contracts';
import { hash } from '@node-rs/argon2';
import { AppError } from './errors.js';
import type { PasswordDecryptor } from './password-transport.js';

/** OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The stored form of a password (the demo's, the bootstrap's, and every `AcceptedPassword`'s). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A password that follows the rule: hashing it is all that is left to do with it. */
export interface AcceptedPassword {
  hash(): Promise<string>;
}

export interface Passwords {
  /**
   * The transported password `cipher`, decrypted and held to the rule for `username` (400
   * `passwordUndecryptable`, `passwordRule`); with `unlike` (the old password's cipher), also
   * different from it (400 `passwordUnchanged`: a change that keeps a password someone else set
   * would change nothing, ADR 033).
   */
  accept(cipher: string, username: string, options?: { unlike?: string | undefined }): AcceptedPassword;
}

export function createPasswords(decryptor: PasswordDecryptor): Passwords {
  return {
    accept(cipher, username, { unlike } = {}) {
      const password = decryptor.decrypt(cipher);
      if (checkPassword(password, username).length > 0) throw new AppError(ResultCode.BAD_REQUEST, 'passwordRule');
      if (unlike !== undefined && decryptor.decrypt(unlike) === password)
        throw new AppError(ResultCode.BAD_REQUEST, 'passwordUnchanged');
      return { hash: () => hashPassword(password) };
    },
  };
}
