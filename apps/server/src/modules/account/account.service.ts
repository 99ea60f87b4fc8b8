/**
 * Forgot password, change password, and proving one's own mobile number. Neither of the first two
 * tells whether an account exists: a reset code is asked for with the account and its mobile
 * number, answered the same way before anything depends on them (the lookup and the message happen
 * after the answer), and a wrong pair fails like a wrong code. A new password follows the
 * password rule; setting it ends the user's other sessions.
 * A number is proven the account holder's by a code sent to it and checked for that account: at
 * registration, by a finished reset, or by 验证手机号 here; only a proven number takes up the
 * enterprise invitations sent to it (ADR 023).
 */
import { createHash, randomBytes } from 'node:crypto';
import { isValidPhone, maskMobile, normalizeUsername, ResultCode, type OwnMobile } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import type { Passwords } from '../../platform/passwords.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ConfirmPassword, LoginCaptcha, VerifyCredentials } from '../../platform/credentials.js';
import type { Tenants } from '../../platform/tenants.js';
import type { ActiveSession } from '../../platform/session.js';
import type { AccountRepository } from './account.repository.js';

export interface AccountDeps {
  repo: AccountRepository;
  /** A new password's rule and hash (ADR 038). */
  passwords: Passwords;
  limiter: RateLimiter;
  bus: Pick<InvalidationBus, 'publish'>;
  /** Sends a password-reset code (throws when it may not: cooldown, caps, provider). */
  sendCode: (tenantId: number, phone: string, ip: string) => Promise<void>;
  /** Spends the code; true when it was the live reset code of this phone. */
  checkCode: (tenantId: number, phone: string, code: string) => Promise<boolean>;
  /** Sends a code proving the signed-in user's own number (throws when it may not: cooldown, caps, provider). */
  sendProofCode: (tenantId: number, phone: string, ip: string) => Promise<void>;
  /** Spends the code; true when it was the live proof code of this phone. */
  checkProofCode: (tenantId: number, phone: string, code: string) => Promise<boolean>;
  verifyHuman: (p: { number?: string | undefined; answer: string }) => Promise<boolean>;
  /** The login's checks (rate limit, captcha, password, lockout): the user, or the login refusal. */
  verifyCredentials: VerifyCredentials;
  /** The signed-in user's own password, on the login's lockout. */
  confirmPassword: ConfirmPassword;
  /** Work left to run after the answer (the reset lookup and message); errors only logged. */
  later: (work: () => Promise<void>) => void;
  tenants: Pick<Tenants, 'idOf' | 'codeOf'>;
  phonePattern: string;
}

/**
 * Reset codes asked for, and codes tried, per address per hour (the tries also keep anyone from
 * spending someone else's code); seconds a verified reset stays open.
 */
export const RESET_LIMITS = { perIpPerHour: 10, verifiesPerIpPerHour: 30, grantTtlSeconds: 600 } as const;
/**
 * Codes a signed-in user may try on their own number per hour (each code is void after a few
 * wrong answers besides; sending is bounded by the SMS cooldown and daily caps).
 */
export const MOBILE_PROOF_TRIES_PER_HOUR = 30;

const bad = (
  key:
    | 'phoneInvalid'
    | 'tenantUnknown'
    | 'humanCheckFailed'
    | 'smsCodeInvalid'
    | 'mobileMissing'
    | 'mobileAlreadyVerified',
) => new AppError(ResultCode.BAD_REQUEST, key);
/** Changes of one's own password per hour: each costs an argon2 hash, and guesses the old one. */
const PASSWORD_CHANGES_PER_HOUR = 10;
const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export function createAccountService(deps: AccountDeps) {
  const { repo } = deps;

  async function setPassword(p: Parameters<AccountRepository['setPassword']>[0]): Promise<boolean> {
    const done = await repo.setPassword(p);
    if (done) await deps.bus.publish({ kind: 'user', id: p.userId });
    return done;
  }

  return {
    /** Step 2 of forgot password: the same answer whether or not the pair is an account. */
    async requestResetCode(
      input: { tenantCode?: string | undefined; username: string; mobile: string },
      proof: { number?: string | undefined; answer: string },
      ip: string,
    ): Promise<void> {
      await deps.limiter.hit(`reset:ip:${ip}`, RESET_LIMITS.perIpPerHour, 3600);
      const mobile = input.mobile.trim();
      if (!isValidPhone(mobile, deps.phonePattern)) throw bad('phoneInvalid');
      const tenantId = await deps.tenants.idOf(input.tenantCode);
      if (!(await deps.verifyHuman(proof))) throw bad('humanCheckFailed');
      const username = normalizeUsername(input.username);
      deps.later(async () => {
        const userId = await repo.userByAccountAndMobile(tenantId, username, mobile);
        if (userId !== null) await deps.sendCode(tenantId, mobile, ip);
      });
    },

    /** Step 2 → 3: a right code for the account's own number gives a grant to set a password. */
    async verifyResetCode(
      input: {
        tenantCode?: string | undefined;
        username: string;
        mobile: string;
        smsCode: string;
      },
      ip: string,
    ): Promise<string> {
      await deps.limiter.hit(`reset-verify:ip:${ip}`, RESET_LIMITS.verifiesPerIpPerHour, 3600);
      const tenantId = await deps.tenants.idOf(input.tenantCode);
      const mobile = input.mobile.trim();
      // The code is checked (and counted) whether or not the pair is an account.
      const [userId, right] = await Promise.all([
        repo.userByAccountAndMobile(tenantId, normalizeUsername(input.username), mobile),
        deps.checkCode(tenantId, mobile, input.smsCode.trim()),
      ]);
      if (userId === null || !right) throw bad('smsCodeInvalid');
      const token = randomBytes(32).toString('base64url');
      await repo.createReset(userId, sha256(token), RESET_LIMITS.grantTtlSeconds, mobile);
      return token;
    },

    /** Step 3: the new password, once per grant; every session of the user ends. */
    async finishReset(resetToken: string, passwordCipher: string, ip: string): Promise<void> {
      const tokenHash = sha256(resetToken);
      const reset = await repo.liveReset(tokenHash);
      if (!reset) throw new AppError(ResultCode.BAD_REQUEST, 'resetExpired');
      const accepted = await deps.passwords.accept(passwordCipher, {
        tenantId: reset.tenantId,
        username: reset.username,
        userId: reset.userId,
      });
      const passwordHash = await accepted.hash();
      const done = await setPassword({
        userId: reset.userId,
        passwordHash,
        ip,
        action: 'password.reset',
        resetTokenHash: tokenHash,
      });
      if (!done) throw new AppError(ResultCode.BAD_REQUEST, 'resetExpired');
    },

    /** /user/register-result without a session: the old password proves the account, as at login. */
    async changeWithCredentials(
      input: {
        tenantCode?: string | undefined;
        username: string;
        oldPwd: string;
        newPwd: string;
        captcha: LoginCaptcha;
      },
      ip: string,
      userAgent: string,
    ): Promise<void> {
      const username = normalizeUsername(input.username);
      // The new password's rule first: a refused one must not spend the captcha or count as a login.
      // An unknown tenant is the login's to refuse (as any failed login); its rules are the defaults.
      const tenantId = await deps.tenants.idOf(input.tenantCode).catch(() => null);
      const password = await deps.passwords.accept(input.newPwd, { tenantId, username }, { unlike: input.oldPwd });
      const { userId } = await deps.verifyCredentials({
        tenantCode: deps.tenants.codeOf(input.tenantCode),
        username,
        passwordCipher: input.oldPwd,
        captcha: input.captcha,
        ip,
        userAgent,
      });
      await setPassword({ userId, passwordHash: await password.hash(userId), ip, action: 'password.change' });
    },

    /** The signed-in user's own number, masked, and whether it is proven theirs. */
    async ownMobile(session: ActiveSession): Promise<OwnMobile> {
      const { mobile, verifiedMobile } = await repo.mobileOf(session.userId);
      return { mobile: mobile && maskMobile(mobile), verified: mobile !== null && verifiedMobile === mobile };
    },

    /**
     * 验证手机号, step 1: a code to the signed-in user's own number, never to one they name (the
     * SMS cooldown and daily caps per number and address bound it); the masked number it went to.
     */
    async sendOwnMobileCode(session: ActiveSession, ip: string): Promise<string> {
      const { mobile, verifiedMobile } = await repo.mobileOf(session.userId);
      if (!mobile) throw bad('mobileMissing');
      if (verifiedMobile === mobile) throw bad('mobileAlreadyVerified');
      await deps.sendProofCode(session.tenantId, mobile, ip);
      return maskMobile(mobile);
    },

    /** 验证手机号, step 2: the right code proves the number the account has now (audited). */
    async proveOwnMobile(session: ActiveSession, smsCode: string, ip: string): Promise<void> {
      await deps.limiter.hit(`mobile-proof:user:${session.userId}`, MOBILE_PROOF_TRIES_PER_HOUR, 3600);
      const { mobile, verifiedMobile } = await repo.mobileOf(session.userId);
      if (!mobile) throw bad('mobileMissing');
      if (verifiedMobile === mobile) throw bad('mobileAlreadyVerified');
      if (!(await deps.checkProofCode(session.tenantId, mobile, smsCode.trim()))) throw bad('smsCodeInvalid');
      // The number changed since the code was sent: the code proved the old one only.
      if (!(await repo.proveMobile(session.userId, mobile, ip))) throw bad('smsCodeInvalid');
    },

    /** The signed-in user's own change (the header dialog): other sessions end, this one stays. */
    async change(session: ActiveSession, oldCipher: string, newCipher: string, ip: string): Promise<void> {
      await deps.limiter.hit(`password-change:user:${session.userId}`, PASSWORD_CHANGES_PER_HOUR, 3600);
      const old = await deps.confirmPassword(session.userId, oldCipher, ip);
      if (old !== 'ok')
        throw new AppError(ResultCode.BAD_REQUEST, old === 'locked' ? 'passwordLocked' : 'oldPasswordWrong');
      const username = await repo.username(session.userId);
      const accepted = await deps.passwords.accept(
        newCipher,
        { tenantId: session.tenantId, username, userId: session.userId },
        { unlike: oldCipher },
      );
      const passwordHash = await accepted.hash();
      await setPassword({
        userId: session.userId,
        passwordHash,
        ip,
        action: 'password.change',
        keepSession: session.id,
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
