/**
 * Second factors (ADR 051): a person's TOTP authenticators and recovery codes, the factor step of
 * every sign-in (a challenge between the password and the session), remembered browsers and
 * step-up. Every code check first reserves an attempt on the login's lockout counter (ADR 003):
 * while the account is locked no code is checked at all, and however many checks run at once on
 * however many instances, at most the lockout threshold of them are made. Codes are never logged
 * or audited; outcomes are.
 */
import { randomBytes } from 'node:crypto';
import {
  LIMITS,
  LOGIN_VIAS,
  maskMobile,
  PARK_UTC_OFFSET_MS,
  ResultCode,
  type LoginOutcome,
  type LoginVia,
  type FactorAnswer,
  type FactorChallenge,
  type FactorKind,
  type SecurityPolicy,
} from '@portal/contracts';
import { AppError, errors } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/hash.js';
import type { PasskeyFactor, RecordLoginEvent } from '../../platform/credentials.js';
import type { ActiveSession } from '../../platform/session.js';
import { enrolGrace, factorRequired, type SecurityPolicies } from '../../platform/security-policy.js';
import type { FactorsRepository } from './factors.repository.js';
import {
  decryptSecret,
  encryptSecret,
  enrolmentOf,
  newRecoveryCodes,
  newTotpSecret,
  recoveryHash,
  totpStepOf,
} from './secrets.js';

/** How long a pending sign-in waits for its factor. */
export const CHALLENGE_SECONDS = 5 * 60;

/** Where a sign-in goes on from: the portal login, the sign-on server (its service), a step-up. */
export type ChallengePurpose = 'portal' | 'cas';

export interface Client {
  ip: string;
  userAgent: string;
}

/**
 * The sign-in may go on: the methods it proved (OIDC amr values), and whether the password was the
 * strongest proof the person has (no usable factor): then it counts for step-up as a factor would.
 */
export type GateResult =
  { pass: true; methods: string[]; strongest: boolean } | { pass: false; challenge: FactorChallenge };

/** A right answer: whose sign-in, where it goes on, what it proved, and the remember cookie if asked. */
export interface Answered {
  tenantId: number;
  userId: number;
  purpose: ChallengePurpose;
  context: Record<string, unknown>;
  methods: string[];
  remember: { token: string; maxAgeSeconds: number } | null;
}

export interface FactorsDeps {
  repo: FactorsRepository;
  policies: Pick<SecurityPolicies, 'of'>;
  /** Encrypts TOTP secrets and keys recovery-code hashes (server secrets). */
  key: Uint8Array;
  /**
   * The login's lockout (ADR 003, the auth service's): `reserve` counts an attempt before a code is
   * checked, atomically, and is false while the account is locked; `clear` forgets the failures
   * after a right answer.
   */
  lockout: { reserve(userId: number): Promise<boolean>; clear(userId: number): Promise<void> };
  /** The passkeys module's seam, when app.ts wires it. */
  passkeys?: PasskeyFactor | undefined;
  /** A signed-in person's password, on the login's lockout (step-up for someone without a factor). */
  confirmPassword?: (userId: number, passwordCipher: string, ip: string) => Promise<'ok' | 'wrong' | 'locked'>;
  /**
   * SMS codes as a factor (the sms module's send and check, its limits, lifetime and sender, under
   * its `factor` purpose), through app.ts. Only ever to the person's own proven mobile.
   */
  sms?: SmsFactor | undefined;
  /** Every answer of the factor step into the login history (the sessions module). */
  recordLoginEvent?: RecordLoginEvent | undefined;
  /** Tells the person that a factor of theirs was added or removed, or new recovery codes made (a notice). */
  factorChanged?:
    ((tenantId: number, userId: number, change: FactorChange, kind?: string) => Promise<void>) | undefined;
}

/** The sms module, as the factor step uses it. */
export interface SmsFactor {
  /** Sends a new code (throws 429 with a message when its limits refuse). */
  send(tenantId: number, phone: string, ip: string): Promise<void>;
  /** True when `code` is the live code of this phone (and spends it). */
  check(tenantId: number, phone: string, code: string): Promise<boolean>;
  /** Seconds before another code may be asked for. */
  resendSeconds: number;
}

/** What a person is told changed among their factors. */
export type FactorChange = 'added' | 'removed' | 'reset' | 'recovery_regenerated';

/** A time as the portal shows times: the park's (China) time, `YYYY-MM-DD HH:mm:ss`. */
const parkTime = (d: Date) => new Date(d.getTime() + PARK_UTC_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');

/** A step-up's passkey challenge (login_challenges.purpose), answered only by its own session. */
const STEP_UP = 'step_up';

const AMR: Record<FactorKind, string> = { totp: 'otp', webauthn: 'hwk', sms: 'sms', recovery: 'otp' };

const challengeGone = () => new AppError(ResultCode.LOGIN_FAILED, 'factorChallengeExpired');
const wrongCode = () => new AppError(ResultCode.LOGIN_FAILED, 'factorWrong');
const locked = () => new AppError(ResultCode.LOGIN_FAILED, 'factorLocked');

export function createFactorsService(deps: FactorsDeps) {
  const { repo, key } = deps;

  /** Factors the person can answer with now, in the order the page offers them. */
  async function usable(tenantId: number, userId: number, policy: SecurityPolicy): Promise<FactorKind[]> {
    const rows = (await repo.factorsOf(userId)).filter((f) => f.confirmed);
    const allowed = new Set(policy.allowedFactors);
    const out: FactorKind[] = [];
    if (deps.passkeys && allowed.has('webauthn') && rows.some((f) => f.kind === 'webauthn')) out.push('webauthn');
    if (allowed.has('totp') && rows.some((f) => f.kind === 'totp')) out.push('totp');
    if ((await smsMobile(userId, policy)) !== null) out.push('sms');
    if (out.length > 0 && allowed.has('recovery') && (await repo.recoveryLeft(userId)) > 0) out.push('recovery');
    void tenantId;
    return out;
  }

  /** The mobile SMS codes go to: the person's proven one, when the policy allows SMS codes; else null. */
  async function smsMobile(userId: number, policy: SecurityPolicy): Promise<string | null> {
    if (!deps.sms || !policy.allowedFactors.includes('sms')) return null;
    return repo.provenMobile(userId);
  }

  /** Sends a factor code to the person's proven mobile (never to a number a request names). */
  async function sendSms(tenantId: number, userId: number, ip: string) {
    const policy = await deps.policies.of(tenantId);
    const phone = await smsMobile(userId, policy);
    if (!phone || !deps.sms) throw new AppError(ResultCode.BAD_REQUEST, 'factorSmsUnavailable');
    await deps.sms.send(tenantId, phone, ip);
    return { mobile: maskMobile(phone), resendSeconds: deps.sms.resendSeconds };
  }

  async function required(policy: SecurityPolicy, userId: number): Promise<boolean> {
    return factorRequired(policy, policy.factorRequirement === 'operators' && (await repo.isOperator(userId)));
  }

  async function openChallenge(
    p: { tenantId: number; userId: number; purpose: string; context: Record<string, unknown> } & Client,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await repo.openChallenge({ ...p, tokenHash: sha256Hex(token), ttlSeconds: CHALLENGE_SECONDS });
    return token;
  }

  /** A pending sign-in (never a step-up's challenge, which only its session may answer). */
  async function liveChallenge(token: string) {
    const c = await repo.challenge(sha256Hex(token));
    if (!c || c.purpose === STEP_UP) throw challengeGone();
    return c;
  }

  /**
   * A pending sign-in asked to enrol goes on only while the person still has no usable factor: one
   * added since (in another sign-in, or by the person) is what must be answered now, and a
   * challenge opened before it must not add another or skip it.
   */
  async function stillWithout(c: { tenantId: number; userId: number }): Promise<void> {
    const policy = await deps.policies.of(c.tenantId);
    if ((await usable(c.tenantId, c.userId, policy)).length > 0) throw challengeGone();
  }

  /** One answer of the factor step into the login history (`via`: the door, `kind`: the factor). */
  async function event(
    who: { tenantId: number; userId: number },
    outcome: LoginOutcome,
    via: string,
    kind: string | null,
    client: Partial<Client>,
  ): Promise<void> {
    if (!deps.recordLoginEvent) return;
    const holder = await repo.holder(who.userId);
    await deps.recordLoginEvent({
      ...who,
      username: holder?.username ?? '',
      outcome,
      via: (LOGIN_VIAS as readonly string[]).includes(via) ? (via as LoginVia) : 'portal',
      factor: kind,
      ip: client.ip ?? '',
      userAgent: client.userAgent ?? null,
    });
  }

  /** Reserves an attempt, runs the check, and settles the counter and the audit by its outcome. */
  async function checked(
    who: { tenantId: number; userId: number },
    kind: string,
    client: Client,
    via: string,
    check: () => Promise<boolean>,
  ): Promise<void> {
    if (!(await deps.lockout.reserve(who.userId))) {
      await repo.audit({ ...who, action: 'factor.locked', ip: client.ip, detail: { kind, via } });
      await event(who, 'locked', via, kind, client);
      throw locked();
    }
    if (!(await check())) {
      await repo.audit({ ...who, action: 'factor.failed', ip: client.ip, detail: { kind, via } });
      await event(who, 'wrong_factor', via, kind, client);
      throw wrongCode();
    }
    await deps.lockout.clear(who.userId);
  }

  /** A TOTP code against the person's authenticators (confirmed ones, or `pendingOnly` the one enrolling). */
  async function totpMatches(userId: number, code: string, pendingOnly = false): Promise<boolean> {
    for (const f of await repo.factorsOf(userId)) {
      if (f.kind !== 'totp' || !f.secretCipher || f.confirmed === pendingOnly) continue;
      const step = totpStepOf(decryptSecret(key, f.secretCipher), code);
      // A right code of a step already used (or older) is a replay: refused.
      if (step !== null && (await repo.acceptStep(f.id, step))) return true;
    }
    return false;
  }

  async function checkAnswer(
    c: { tenantId: number; userId: number; challenge: Record<string, unknown> | null },
    a: Pick<FactorAnswer, 'kind' | 'code' | 'assertion'>,
    enrolling: boolean,
  ): Promise<boolean> {
    if (a.kind === 'totp') return a.code !== undefined && totpMatches(c.userId, a.code, enrolling);
    if (a.kind === 'recovery') return a.code !== undefined && repo.spendRecovery(c.userId, recoveryHash(key, a.code));
    if (a.kind === 'sms') {
      if (!deps.sms || a.code === undefined) return false;
      const phone = await smsMobile(c.userId, await deps.policies.of(c.tenantId));
      return phone !== null && deps.sms.check(c.tenantId, phone, a.code.replace(/[\s-]/g, ''));
    }
    if (a.kind === 'webauthn') {
      const state = c.challenge?.webauthn as Record<string, unknown> | undefined;
      if (!deps.passkeys || !state || !a.assertion) return false;
      return deps.passkeys.verify(c.tenantId, c.userId, state, a.assertion);
    }
    return false;
  }

  /** Whether the session proved a factor within the tenant's step-up minutes. */
  async function fresh(session: ActiveSession): Promise<boolean> {
    const policy = await deps.policies.of(session.tenantId);
    const age = await repo.factorAge(session.id);
    return age !== null && age <= policy.stepUpMinutes * 60;
  }

  /**
   * A change to the person's factors from a session is a sensitive action: whoever holds a stolen
   * session could otherwise add a factor of their own (or make new recovery codes) and prove it to
   * pass every step-up after, or remove the person's factors (40309 past the step-up minutes).
   */
  async function freshOnly(session: ActiveSession): Promise<void> {
    if (!(await fresh(session))) throw new AppError(ResultCode.STEP_UP_REQUIRED, 'stepUpRequired');
  }

  async function newRecovery(tenantId: number, userId: number, ip: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    await repo.replaceRecovery(
      tenantId,
      userId,
      codes.map((c) => recoveryHash(key, c)),
      ip,
    );
    return codes;
  }

  async function startTotp(tenantId: number, userId: number, name: string) {
    const secret = newTotpSecret();
    const id = await repo.addTotp(tenantId, userId, name, encryptSecret(key, secret));
    // The authenticator app's entry: the tenant's name and the username.
    const names = await repo.names(userId);
    const { uri, qr } = enrolmentOf(secret, names?.username ?? '', names?.tenantName ?? '');
    return { id: String(id), secret, uri, qr };
  }

  /**
   * Confirms a pending TOTP with its first right code; the first factor also gets recovery codes.
   * Not on the lockout: the secret was just shown to whoever confirms, so a guess wins nothing
   * (and a person fumbling with a new app does not lock their account).
   */
  async function confirmTotp(tenantId: number, userId: number, code: string, client: Client, via: string) {
    const hadRecovery = (await repo.recoveryLeft(userId)) > 0;
    if (!(await totpMatches(userId, code, true))) {
      await repo.audit({ tenantId, userId, action: 'factor.failed', ip: client.ip, detail: { kind: 'totp', via } });
      throw wrongCode();
    }
    await repo.audit({ tenantId, userId, action: 'factor.enrolled', ip: client.ip, detail: { kind: 'totp' } });
    await deps.factorChanged?.(tenantId, userId, 'added', 'totp');
    // None where the policy leaves recovery codes out: they would be shown and never taken.
    const allowed = (await deps.policies.of(tenantId)).allowedFactors.includes('recovery');
    return { recoveryCodes: hadRecovery || !allowed ? null : await newRecovery(tenantId, userId, client.ip) };
  }

  return {
    /**
     * After the password: pass (no factor asked: policy off, not required and none held, or a
     * remembered browser), or the challenge to answer. `hasFactor` is what the login's own
     * statement read, so a person without factors under a policy that does not require one costs
     * nothing more than the cached policy.
     */
    async gate(
      p: {
        tenantId: number;
        userId: number;
        hasFactor: boolean;
        purpose: ChallengePurpose;
        context: Record<string, unknown>;
        rememberToken?: string | undefined;
      } & Client,
    ): Promise<GateResult> {
      const policy = await deps.policies.of(p.tenantId);
      const bare: GateResult = { pass: true, methods: ['pwd'], strongest: true };
      if (policy.factorRequirement === 'off') return bare;
      // Under `optional` only an enrolled factor starts the step (a proven mobile alone does not);
      // where one is required, a proven mobile with SMS allowed counts as having one (ADR 051).
      const must = await required(policy, p.userId);
      if (!p.hasFactor && !must) return bare;
      const factors = await usable(p.tenantId, p.userId, policy);
      if (factors.length === 0 && !must) return bare;
      if (
        factors.length > 0 &&
        p.rememberToken &&
        policy.rememberBrowserDays > 0 &&
        (await repo.remembered(p.userId, sha256Hex(p.rememberToken)))
      ) {
        return { pass: true, methods: ['pwd'], strongest: false };
      }
      const holder = await repo.holder(p.userId);
      const factorsReset =
        !!holder?.factorsResetAt && (!holder.lastLoginAt || holder.factorsResetAt > holder.lastLoginAt);
      let graceDaysLeft: number | null = null;
      const enrol = factors.length === 0;
      if (enrol) {
        graceDaysLeft = enrolGrace(policy, await repo.factorDue(p.userId)).daysLeft;
      }
      const token = await openChallenge({ ...p, purpose: p.purpose, context: { ...p.context, enrol } });
      await event(p, enrol ? 'enrol_required' : 'factor_required', p.purpose, null, p);
      return {
        pass: false,
        challenge: {
          challenge: token,
          factors,
          enrol,
          graceDaysLeft,
          rememberDays: policy.rememberBrowserDays,
          factorsReset,
          ...(factors.includes('sms') ? { mobile: maskMobile((await repo.provenMobile(p.userId))!) } : {}),
        },
      };
    },

    /** The WebAuthn options of a pending sign-in (its state kept with the challenge). */
    async passkeyOptions(token: string): Promise<unknown> {
      const c = await liveChallenge(token);
      if (!deps.passkeys) throw errors.notFound();
      const { options, state } = await deps.passkeys.options(c.tenantId, c.userId);
      await repo.setChallengeState(c.id, { ...(c.challenge ?? {}), webauthn: state });
      return options;
    },

    /** Sends the code of a pending sign-in to the person's proven mobile (a few per challenge). */
    async smsForChallenge(token: string, ip: string) {
      const c = await liveChallenge(token);
      if (c.context.enrol === true) throw new AppError(ResultCode.BAD_REQUEST, 'factorSmsUnavailable');
      if (!(await repo.countSmsSend(c.id, LIMITS.smsFactorSendsPerChallenge))) {
        throw new AppError(ResultCode.TOO_MANY_REQUESTS, 'factorSmsTooMany');
      }
      return sendSms(c.tenantId, c.userId, ip);
    },

    /**
     * Confirms the authenticator enrolled during a sign-in and answers its recovery codes, to be
     * shown before the sign-in goes on; the challenge then remembers that it was enrolled.
     */
    async confirmDuringSignIn(token: string, code: string, client: Client, via: string) {
      const c = await liveChallenge(token);
      if (c.context.enrol !== true || c.challenge?.enrolled === 'totp') throw errors.notFound();
      await stillWithout(c);
      const { recoveryCodes } = await confirmTotp(c.tenantId, c.userId, code, client, via);
      await repo.setChallengeState(c.id, { ...(c.challenge ?? {}), enrolled: 'totp' });
      return { recoveryCodes };
    },

    /** The factor step's answer: spends the challenge when right. */
    async answer(a: FactorAnswer, client: Client, via: string): Promise<Answered> {
      const c = await liveChallenge(a.challenge);
      const enrolling = c.context.enrol === true;
      if (enrolling && a.kind !== 'totp') throw wrongCode();
      const policy = await deps.policies.of(c.tenantId);
      if (!enrolling && !policy.allowedFactors.includes(a.kind)) throw wrongCode();
      const who = { tenantId: c.tenantId, userId: c.userId };
      if (enrolling) {
        // The authenticator added during the sign-in goes on once confirmed (confirmDuringSignIn,
        // whose answer carried the recovery codes the page showed).
        if (c.challenge?.enrolled !== 'totp') throw wrongCode();
      } else {
        await checked(who, a.kind, client, via, () => checkAnswer(c, a, false));
      }
      if (!(await repo.completeChallenge(c.id))) throw challengeGone();
      await repo.audit({ ...who, action: 'factor.succeeded', ip: client.ip, detail: { kind: a.kind, via } });
      await event(who, 'succeeded', via, a.kind, client);
      let remember: Answered['remember'] = null;
      if (a.remember && policy.rememberBrowserDays > 0) {
        const token = randomBytes(32).toString('base64url');
        await repo.remember({ ...who, ...client, tokenHash: sha256Hex(token), days: policy.rememberBrowserDays });
        remember = { token, maxAgeSeconds: policy.rememberBrowserDays * 86_400 };
      }
      const { context } = c;
      return {
        ...who,
        purpose: c.purpose as ChallengePurpose,
        context,
        methods: ['pwd', AMR[a.kind], 'mfa'],
        remember,
      };
    },

    /** Within the grace days, a person asked to enrol may go on without (this once). */
    async later(token: string, client: Client): Promise<Omit<Answered, 'remember'>> {
      const c = await liveChallenge(token);
      if (c.context.enrol !== true) throw wrongCode();
      await stillWithout(c);
      const policy = await deps.policies.of(c.tenantId);
      const holder = await repo.holder(c.userId);
      if (enrolGrace(policy, holder?.factorDueSince ?? null).over) {
        throw new AppError(ResultCode.LOGIN_FAILED, 'factorEnrolRequired');
      }
      if (!(await repo.completeChallenge(c.id))) throw challengeGone();
      await event({ tenantId: c.tenantId, userId: c.userId }, 'succeeded', c.purpose, null, client);
      return {
        tenantId: c.tenantId,
        userId: c.userId,
        purpose: c.purpose as ChallengePurpose,
        context: c.context,
        methods: ['pwd'],
      };
    },

    /** Enrolment during a sign-in that must enrol: the same as a signed-in person's. */
    async enrolDuringSignIn(token: string, name: string) {
      const c = await liveChallenge(token);
      if (c.context.enrol !== true) throw errors.notFound();
      await stillWithout(c);
      const policy = await deps.policies.of(c.tenantId);
      if (!policy.allowedFactors.includes('totp')) throw errors.noPermission();
      return startTotp(c.tenantId, c.userId, name);
    },

    /** The person's factors (never a secret). */
    async list(session: ActiveSession) {
      const policy = await deps.policies.of(session.tenantId);
      const rows = await repo.factorsOf(session.userId);
      return {
        factors: rows
          .filter((f) => f.confirmed)
          .map((f) => ({
            id: String(f.id),
            kind: f.kind,
            name: f.name,
            createdAt: parkTime(f.createdAt),
            lastUsedAt: f.lastUsedAt ? parkTime(f.lastUsedAt) : null,
          })),
        recoveryCodesLeft: await repo.recoveryLeft(session.userId),
        smsMobile: await smsMobile(session.userId, policy).then((m) => (m ? maskMobile(m) : null)),
        allowed: policy.allowedFactors,
        requirement: policy.factorRequirement,
      };
    },

    async startTotp(session: ActiveSession, name: string) {
      const policy = await deps.policies.of(session.tenantId);
      if (!policy.allowedFactors.includes('totp') || policy.factorRequirement === 'off') {
        throw new AppError(ResultCode.NO_PERMISSION, 'factorNotAllowed');
      }
      await freshOnly(session);
      return startTotp(session.tenantId, session.userId, name);
    },

    async confirmTotp(session: ActiveSession, code: string, client: Client) {
      return confirmTotp(session.tenantId, session.userId, code, client, 'portal');
    },

    async rename(session: ActiveSession, id: number, name: string): Promise<void> {
      if (!(await repo.rename(session.userId, id, name))) throw errors.notFound();
    },

    async remove(session: ActiveSession, id: number, ip: string): Promise<void> {
      await freshOnly(session);
      if (!(await repo.remove(session.tenantId, session.userId, id, ip))) throw errors.notFound();
      await deps.factorChanged?.(session.tenantId, session.userId, 'removed', 'totp');
    },

    async regenerateRecovery(session: ActiveSession, ip: string): Promise<string[]> {
      const rows = (await repo.factorsOf(session.userId)).filter((f) => f.confirmed);
      if (rows.length === 0) throw new AppError(ResultCode.BAD_REQUEST, 'factorNoneYet');
      await freshOnly(session);
      const codes = await newRecovery(session.tenantId, session.userId, ip);
      await deps.factorChanged?.(session.tenantId, session.userId, 'recovery_regenerated');
      return codes;
    },

    async forgetBrowsers(session: ActiveSession): Promise<number> {
      return repo.forgetBrowsers(session.userId);
    },

    /**
     * Step-up: a factor (or, for someone with none, the password) proven now, on the lockout like
     * every check; the session then counts as fresh for the policy's minutes.
     */
    async stepUpFactors(session: ActiveSession) {
      const policy = await deps.policies.of(session.tenantId);
      const factors = await usable(session.tenantId, session.userId, policy);
      const mobile = factors.includes('sms') ? await repo.provenMobile(session.userId) : null;
      return { factors, mobile: mobile ? maskMobile(mobile) : null };
    },

    /** A step-up's passkey options: kept with a challenge only this session may answer. */
    async stepUpPasskey(session: ActiveSession, client: Client) {
      const policy = await deps.policies.of(session.tenantId);
      const factors = await usable(session.tenantId, session.userId, policy);
      if (!deps.passkeys || !factors.includes('webauthn')) throw new AppError(ResultCode.BAD_REQUEST, 'factorWrong');
      const { options, state } = await deps.passkeys.options(session.tenantId, session.userId);
      const token = randomBytes(32).toString('base64url');
      await repo.openChallenge({
        tokenHash: sha256Hex(token),
        tenantId: session.tenantId,
        userId: session.userId,
        purpose: STEP_UP,
        context: { sessionId: session.id },
        challenge: { webauthn: state },
        ...client,
        ttlSeconds: CHALLENGE_SECONDS,
      });
      return { challenge: token, options: options as unknown as Record<string, unknown> };
    },

    /** A step-up's SMS code, to the person's proven mobile. */
    async stepUpSms(session: ActiveSession, ip: string) {
      return sendSms(session.tenantId, session.userId, ip);
    },

    async stepUp(
      session: ActiveSession,
      a: {
        kind?: FactorKind | undefined;
        code?: string | undefined;
        password?: string | undefined;
        challenge?: string | undefined;
        assertion?: object | undefined;
      },
      client: Client,
    ): Promise<void> {
      const who = { tenantId: session.tenantId, userId: session.userId };
      const policy = await deps.policies.of(session.tenantId);
      const factors = await usable(session.tenantId, session.userId, policy);
      if (factors.length === 0) {
        if (!a.password || !deps.confirmPassword) throw new AppError(ResultCode.BAD_REQUEST, 'stepUpPasswordNeeded');
        const r = await deps.confirmPassword(session.userId, a.password, client.ip);
        if (r === 'locked') throw locked();
        if (r === 'wrong') throw new AppError(ResultCode.LOGIN_FAILED, 'stepUpPasswordWrong');
      } else {
        const kind = a.kind ?? 'totp';
        if (!factors.includes(kind)) throw wrongCode();
        // A passkey answers the challenge its options came with, opened by this very session.
        const c = kind === 'webauthn' && a.challenge ? await repo.challenge(sha256Hex(a.challenge)) : null;
        if (kind === 'webauthn' && (!c || c.purpose !== STEP_UP || c.context.sessionId !== session.id)) {
          throw challengeGone();
        }
        await checked(who, kind, client, 'step_up', () =>
          checkAnswer(
            { ...who, challenge: c?.challenge ?? null },
            { kind, code: a.code, assertion: a.assertion },
            false,
          ),
        );
        if (c && !(await repo.completeChallenge(c.id))) throw challengeGone();
      }
      await repo.stepUp(session.id);
      await repo.audit({ ...who, action: 'factor.step_up', ip: client.ip });
    },

    fresh,
  };
}

export type FactorsService = ReturnType<typeof createFactorsService>;
