/**
 * Standalone login, sessions and logout. The token is a JWT naming a server-side session, so that
 * logout (and later: switches, single logout) revokes it everywhere at once.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import { ResultCode, type FactorChallenge } from '@portal/contracts';
import { SignJWT, jwtVerify } from 'jose';
import type { Credentials, LoginCaptcha, LoginEventInput, RecordLoginEvent } from '../../platform/credentials.js';
import { AppError, errors } from '../../platform/errors.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import { createLocalCache } from '../../platform/local-cache.js';
import type { PasswordDecryptor } from '../../platform/password-transport.js';
import { hashPassword, isPasswordOf } from '../../platform/passwords.js';
import type { Metrics } from '../../platform/metrics.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ActiveSession } from '../../platform/session.js';
import type {
  AuditEntry,
  AuthRepository,
  LiveSession,
  LockoutPolicy,
  NewSession,
  SwitchTarget,
} from './auth.repository.js';

/** Switches per user and hour before 429. */
const SWITCHES_PER_HOUR = 120;

const SWITCH_REFUSALS = {
  roleId: 'roleNotHeld',
  applicationId: 'appNotGranted',
  workbenchId: 'workbenchNotHeld',
  enterpriseId: 'entNotJoined',
} as const;

/** See docs/decisions/003-login-lockout.md. */
export const LOCKOUT: LockoutPolicy = {
  threshold: 5,
  baseLockSeconds: 60,
  maxLockSeconds: 15 * 60,
  resetSeconds: 12 * 60 * 60,
};

export interface AuthServiceDeps {
  repo: AuthRepository;
  metrics: Pick<Metrics, 'login'>;
  decryptor: PasswordDecryptor;
  /** Spends the proof; true when it was good. Which kind counts is the captcha module's business. */
  verifyCaptcha: (proof: LoginCaptcha) => Promise<boolean>;
  /** The CAS client: the user a service ticket names, or null when the sign-on server refuses it. */
  validateTicket: (ticket: string, service: string) => Promise<{ username: string; tenantCode: string } | null>;
  /** Whether a service address is the portal's own (under PUBLIC_URL + public path). */
  isPortalService: (service: string) => boolean;
  limiter: RateLimiter;
  bus: Pick<InvalidationBus, 'publish' | 'subscribe'>;
  jwtKey: Uint8Array;
  sessionTtlHours: number;
  loginPerIpPerMinute: number;
  /** How long a verified token's session may be served from memory (0: always read it). */
  sessionCacheMs: number;
  /** Every sign-in attempt into the login history (the sessions module); none: not recorded. */
  recordLoginEvent?: RecordLoginEvent;
  /** The sign-on session a service ticket was issued from (the sign-on server's), for the portal session it opens. */
  ssoSessionOfTicket?: (ticket: string) => Promise<string | null>;
  /** Told of every authenticated request's session (last seen, written after the answer). */
  seen?: (sessionId: string) => void;
  /**
   * The factor step (modules/factors, wired by app.ts): after a right password, whether the
   * sign-in goes on or must answer a second factor first (40308 with the challenge).
   */
  factorGate?: FactorGate | undefined;
}

/** The admin CLI says who it is in its user agent: its sign-ins are the CLI's in the history. */
const CLI_AGENT = /^portal-admin-cli/;

/** What the factor step says of a sign-in whose password was right. */
export type FactorGate = (p: {
  tenantId: number;
  userId: number;
  hasFactor: boolean;
  purpose: 'portal' | 'cas';
  context: Record<string, unknown>;
  rememberToken?: string | undefined;
  ip: string;
  userAgent: string;
}) => Promise<{ pass: true; methods: string[]; strongest: boolean } | { pass: false; challenge: FactorChallenge }>;

const loginFailed = () => new AppError(ResultCode.LOGIN_FAILED, 'loginFailed');
/** Said only to whoever gave the account's right password (ADR 045). */
const accountDisabled = () => new AppError(ResultCode.ACCOUNT_DISABLED, 'accountDisabled');
/** A user whose password someone else set: only its change (and a logout) is open to them (ADR 033). */
const passwordChangeRequired = () => new AppError(ResultCode.PASSWORD_CHANGE_REQUIRED, 'passwordChangeRequired');

export function createAuthService(deps: AuthServiceDeps) {
  const { repo, decryptor } = deps;
  // Imported once: jose would otherwise import a raw or Node key into WebCrypto on every call.
  const jwtKey = webcrypto.subtle.importKey('raw', deps.jwtKey, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  // Verified against when the user does not exist, so both paths cost one argon2 verification.
  const dummyHash = hashPassword(randomBytes(16).toString('hex'));
  // token → its live session; a hit skips both the JWT check and the database read.
  const sessions = createLocalCache<LiveSession>({ ttlMs: deps.sessionCacheMs, max: 50_000 });
  deps.bus.subscribe((e) => {
    if (e.kind === 'all') sessions.clear();
    else if (e.kind === 'session') sessions.deleteWhere((s) => s.id === e.id);
    else if (e.kind === 'user') sessions.deleteWhere((s) => s.userId === e.id);
  });

  /**
   * The login's checks, shared by the portal login and the sign-on server: rate limit, the
   * captcha (spent first, so the endpoint cannot test passwords without one), the password and
   * the lockout. Refusals are one message whatever failed, but one: a disabled account (or
   * tenant) is said to be disabled once its right password was given, and only then (ADR 045). A
   * wrong password for it is any wrong password: the same answer, and it counts towards the lockout.
   */
  async function checkCredentials(
    input: Credentials,
  ): Promise<{ userId: number; tenantId: number; mustChangePassword: boolean; hasFactor: boolean }> {
    await deps.limiter.hit(`login:ip:${input.ip}`, deps.loginPerIpPerMinute, 60);
    const captchaOk = await deps.verifyCaptcha(input.captcha);
    if (!captchaOk) {
      deps.metrics.login('captcha_failed');
      await repo.audit({ tenantId: null, userId: null, action: 'login.captcha_failed', ip: input.ip });
      if (input.via && deps.recordLoginEvent) {
        // The history is the tenant's: the name typed says whose it is (no password was checked).
        const { tenantId, user } = await repo.findTarget(input.tenantCode, input.username);
        await record(input, { tenantId, userId: user?.id ?? null, outcome: 'captcha_failed' });
      }
      throw loginFailed();
    }
    const password = decryptor.decrypt(input.passwordCipher);
    const { tenantId, user } = await repo.findTarget(input.tenantCode, input.username);
    const matches = await isPasswordOf(user?.passwordHash ?? (await dummyHash), password);
    const audit = (action: AuditEntry['action']): AuditEntry => ({
      tenantId,
      userId: user?.id ?? null,
      action,
      ip: input.ip,
      // Cut by characters: cut by UTF-16 units, half a pair could remain, which no JSON column holds.
      detail: { username: [...input.username].slice(0, 64).join('') },
    });
    if (!user || !matches || user.locked) {
      deps.metrics.login(user?.locked ? 'locked' : 'failure');
      const entry = audit(user?.locked ? 'login.locked' : 'login.failed');
      // A disabled account's wrong passwords count too: its lockout holds when it is enabled again.
      if (user) await repo.recordFailure(user.id, LOCKOUT, entry);
      else await repo.audit(entry);
      await record(input, { tenantId, userId: user?.id ?? null, outcome: user?.locked ? 'locked' : 'wrong_password' });
      throw loginFailed();
    }
    if (user.disabled) {
      deps.metrics.login('disabled');
      await repo.audit(audit('login.disabled'));
      await record(input, { tenantId, userId: user.id, outcome: 'disabled' });
      throw accountDisabled();
    }
    deps.metrics.login('success');
    // A password past the tenant's maximum age leads into the must-change flow (ADR 053); everybody
    // else's sign-in stays the statements above (the age was read with the user).
    if (user.passwordExpired && !user.mustChangePassword) {
      await repo.markPasswordExpired(user.id, audit('login.password_expired'));
      return { userId: user.id, tenantId: user.tenantId, mustChangePassword: true, hasFactor: user.hasFactor };
    }
    return {
      userId: user.id,
      tenantId: user.tenantId,
      mustChangePassword: user.mustChangePassword,
      hasFactor: user.hasFactor,
    };
  }

  /**
   * The factor step after a right password: the methods proven when the sign-in goes on, else
   * 40308 with the challenge (the lockout counter is not reset: only the factor's answer does).
   */
  async function factorStep(
    who: { userId: number; tenantId: number; hasFactor: boolean },
    input: Credentials,
    purpose: 'portal' | 'cas',
  ): Promise<{ methods: string[]; strongest: boolean }> {
    if (!deps.factorGate) return { methods: ['pwd'], strongest: !who.hasFactor };
    const step = await deps.factorGate({
      ...who,
      purpose,
      context: input.factorContext ?? {},
      rememberToken: input.rememberToken,
      ip: input.ip,
      userAgent: input.userAgent,
    });
    if (step.pass) return { methods: step.methods, strongest: step.strongest };
    throw new AppError(ResultCode.FACTOR_REQUIRED, 'factorRequired', undefined, undefined, step.challenge);
  }

  /** One attempt into the login history, when the attempt is a sign-in (it names its door). */
  async function record(
    input: Pick<Credentials, 'username' | 'ip' | 'userAgent' | 'via'>,
    e: Pick<LoginEventInput, 'tenantId' | 'userId' | 'outcome'>,
  ): Promise<void> {
    if (!input.via || !deps.recordLoginEvent) return;
    await deps.recordLoginEvent({
      ...e,
      username: input.username,
      via: input.via,
      ip: input.ip,
      userAgent: input.userAgent,
    });
  }

  /** The live session a token names (cached, ADR 005), or 401. */
  async function live(token: string | undefined): Promise<LiveSession> {
    if (!token) throw errors.unauthorized();
    const cached = sessions.get(token);
    if (cached) return cached;
    const version = sessions.version;
    let sessionId: string | undefined;
    try {
      const { payload } = await jwtVerify(token, await jwtKey, { algorithms: ['HS256'] });
      sessionId = payload.jti;
    } catch {
      throw errors.unauthorized();
    }
    if (!sessionId || !/^[0-9a-f-]{36}$/.test(sessionId)) throw errors.unauthorized();
    const session = await repo.activeSession(sessionId);
    if (!session) throw errors.unauthorized();
    sessions.set(token, session, { ttlMs: session.expiresAt * 1000 - Date.now(), version });
    return session;
  }

  async function openPortalSession(
    userId: number,
    input: { ip: string; userAgent: string },
    ticket: string | null,
    how: Pick<NewSession, 'action' | 'factorProven'> = {},
  ) {
    const ssoSessionId = ticket && deps.ssoSessionOfTicket ? await deps.ssoSessionOfTicket(ticket) : null;
    const session = await repo.openSession({
      userId,
      ip: input.ip,
      userAgent: input.userAgent,
      ttlHours: deps.sessionTtlHours,
      serviceTicket: ticket,
      ssoSessionId,
      ...how,
    });
    // Disabled between the password check and now: refused as any failed login is.
    if (!session) throw loginFailed();
    return issueToken(session.id, userId, session.expiresAt);
  }

  // The token names the session and its user; everything else (tenant, role, context) is the
  // session's row, looked up on every call (ADR 005), so nothing in the token can go stale.
  async function issueToken(sessionId: string, userId: number, expiresAt: number): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(sessionId)
      .setIssuedAt()
      .setExpirationTime(expiresAt)
      .sign(await jwtKey);
  }

  return {
    /**
     * The login's checks without a portal session (the sign-on server's login, a password change
     * with the old password): a success resets the failure count and is audited (`sso.login`, or
     * `password.verify` for the change). A user who must change their password first passes only
     * for that change (`forPasswordChange`): a sign-on would hand other systems a session the
     * change was meant to come before.
     */
    async verifyCredentials(
      input: Credentials,
      { forPasswordChange = false } = {},
    ): Promise<{ userId: number; tenantId: number; methods: string[]; strongest: boolean }> {
      const { userId, tenantId, mustChangePassword, hasFactor } = await checkCredentials(input);
      if (mustChangePassword && !forPasswordChange) {
        await repo.audit({ tenantId, userId, action: 'sso.login.password_change_required', ip: input.ip });
        await record(input, { tenantId, userId, outcome: 'password_change_required' });
        throw passwordChangeRequired();
      }
      // `strongest`: the password was the strongest proof the person has (ADR 051, step-up).
      const { methods, strongest } = forPasswordChange
        ? { methods: ['pwd'], strongest: false }
        : await factorStep({ userId, tenantId, hasFactor }, input, 'cas');
      await repo.recordSuccess(userId, input.ip, forPasswordChange ? 'password.verify' : 'sso.login');
      if (!forPasswordChange) await record(input, { tenantId, userId, outcome: 'succeeded' });
      return { userId, tenantId, methods, strongest };
    },

    /** A sign-on server's sign-in whose factor was answered: the success the password step held back. */
    async factorAnswered(userId: number, ip: string): Promise<void> {
      await repo.recordSuccess(userId, ip, 'sso.login');
    },

    /**
     * A signed-in user's own password (the old password of the change dialog, the step-up of a
     * person without a factor), on the login's lockout as every factor check is: an attempt is
     * reserved first, atomically, so however many checks run at once at most the threshold are
     * made, and while the account is locked no password is checked at all; a right one forgets
     * the failures. Only the signed-in user learns which it was.
     */
    async confirmPassword(userId: number, passwordCipher: string, ip: string): Promise<'ok' | 'wrong' | 'locked'> {
      const password = decryptor.decrypt(passwordCipher);
      const user = await repo.passwordOf(userId);
      if (!user) return 'wrong';
      const entry = (action: AuditEntry['action']): AuditEntry => ({ tenantId: user.tenantId, userId, action, ip });
      if (!(await repo.reserveAttempt(userId, LOCKOUT))) {
        await repo.audit(entry('password.locked'));
        return 'locked';
      }
      if (await isPasswordOf(user.passwordHash, password)) {
        await repo.clearAttempts(userId);
        return 'ok';
      }
      // A failure that locked the account is still a wrong password; the next attempt says locked.
      await repo.audit(entry('password.confirm_failed'));
      return 'wrong';
    },

    /** The portal's own login: verified credentials open a session and give its token. */
    async login(input: Credentials): Promise<string> {
      const attempt = { ...input, via: input.via ?? (CLI_AGENT.test(input.userAgent) ? 'cli' : 'portal') } as const;
      const { userId, tenantId, mustChangePassword, hasFactor } = await checkCredentials(attempt);
      const { strongest } = await factorStep({ userId, tenantId, hasFactor }, attempt, 'portal');
      // For a person without a (usable) factor the password is the strongest proof there is: the
      // sign-in counts for step-up as the password dialog would (ADR 051).
      const token = await openPortalSession(userId, input, null, { factorProven: strongest });
      // A session only for the password's change is not a full sign-in: the history says so.
      await record(attempt, {
        tenantId,
        userId,
        outcome: mustChangePassword ? 'password_change_required' : 'succeeded',
      });
      return token;
    },

    /** The portal login after its factor step: the session counts as having proven a factor now. */
    async loginAfterFactor(
      userId: number,
      client: { ip: string; userAgent: string },
      factor: boolean,
    ): Promise<string> {
      return openPortalSession(userId, client, null, { factorProven: factor });
    },

    /**
     * Reserves an attempt on the user's login lockout before a factor is checked (a passkey's
     * signature): false when the account is locked, and then nothing may be checked. The attempt
     * counts as a failure until a session opens (which resets the counter) or `confirmSignIn`.
     */
    async reserveAttempt(userId: number): Promise<boolean> {
      return repo.reserveAttempt(userId, LOCKOUT);
    },

    /** A right answer after `reserveAttempt`: the failures counted so far are forgotten. */
    async clearAttempts(userId: number): Promise<void> {
      await repo.clearAttempts(userId);
    },

    /**
     * A portal session for a user another proof than a password identified (a passkey, checked by
     * its module): audited with `action`; `factorProven` marks the session's factor as proven now.
     * The user's lockout counter resets; a disabled user or tenant gets the login's refusal.
     */
    async openSessionFor(
      userId: number,
      client: { ip: string; userAgent: string },
      how: Required<Pick<NewSession, 'action' | 'factorProven'>>,
    ): Promise<string> {
      return openPortalSession(userId, client, null, how);
    },

    /** A sign-in checked elsewhere succeeded (the sign-on server's passkey sign-in): the counter resets, audited. */
    async confirmSignIn(userId: number, ip: string, action: AuditEntry['action']): Promise<void> {
      await repo.recordSuccess(userId, ip, action);
    },

    /** Audits a sign-on refused because the user must change a password someone else set (ADR 033). */
    async refusePendingPasswordChange(tenantId: number, userId: number, ip: string): Promise<void> {
      await repo.audit({ tenantId, userId, action: 'sso.login.password_change_required', ip });
    },

    /**
     * A login through the sign-on server: the service ticket is validated by the CAS client
     * (over HTTP, as any CAS client does); the session remembers it for single logout.
     */
    async loginWithTicket(ticket: string, service: string, input: { ip: string; userAgent: string }): Promise<string> {
      // Only a ticket issued for the portal itself opens a portal session: one that some other
      // system received (and could replay here) must not.
      if (!deps.isPortalService(service)) throw new AppError(ResultCode.TICKET_EXPIRED, 'ticketInvalid');
      const user = await deps.validateTicket(ticket, service);
      if (!user) throw new AppError(ResultCode.TICKET_EXPIRED, 'ticketInvalid');
      const userId = await repo.userOf(user.tenantCode, user.username);
      if (userId === null) throw new AppError(ResultCode.TICKET_EXPIRED, 'ticketInvalid');
      return openPortalSession(userId, input, ticket);
    },

    /** Single logout: the sessions opened with this ticket end on every instance. */
    async logoutByTicket(ticket: string): Promise<number> {
      const ids = await repo.revokeByTicket(ticket);
      for (const id of ids) await deps.bus.publish({ kind: 'session', id });
      return ids.length;
    },

    /**
     * The live session a token names, or 401. A session whose user must change the password first
     * is refused (40305) unless the route is the change or the logout (`pendingPasswordChange`).
     */
    async authenticate(token: string | undefined, { pendingPasswordChange = false } = {}): Promise<ActiveSession> {
      const session = await live(token);
      deps.seen?.(session.id);
      if (session.mustChangePassword && !pendingPasswordChange) throw passwordChangeRequired();
      return session;
    },

    /**
     * Of these sessions, the ones still live, read from the database (never from this instance's
     * memory): for what holds a session open past a single request, such as a live stream.
     */
    async liveSessions(ids: string[]): Promise<Set<string>> {
      const valid = ids.filter((id) => /^[0-9a-f-]{36}$/.test(id));
      return valid.length === 0 ? new Set() : repo.liveSessions(valid);
    },

    /**
     * Switches the session's role, application, workbench or enterprise (ADR 011): a privilege
     * change, so a new token; the old one is refused from then on, on every instance.
     */
    async switchContext(session: ActiveSession, target: SwitchTarget, client: { ip: string; userAgent: string }) {
      if (Object.values(target).every((v) => v === undefined))
        throw new AppError(ResultCode.BAD_REQUEST, 'switchNothing');
      // Each switch writes a session and an audit row: a person switches a few times an hour.
      await deps.limiter.hit(`switch:user:${session.userId}`, SWITCHES_PER_HOUR, 3600);
      const r = await repo.switchSession(session.id, target, client);
      if (r === null) throw errors.unauthorized();
      if ('refused' in r) throw new AppError(ResultCode.NO_PERMISSION, SWITCH_REFUSALS[r.refused]);
      await deps.bus.publish({ kind: 'session', id: session.id });
      // The profile names the default enterprise, which an enterprise switch changed.
      if (target.enterpriseId !== undefined) await deps.bus.publish({ kind: 'user', id: session.userId });
      return issueToken(r.id, session.userId, r.expiresAt);
    },

    /** Ends the session on every instance. */
    async logout(session: ActiveSession, ip: string): Promise<void> {
      await repo.revokeSession(session.id, ip);
      await deps.bus.publish({ kind: 'session', id: session.id });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
