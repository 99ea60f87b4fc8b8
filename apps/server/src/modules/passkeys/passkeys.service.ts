/**
 * Passkeys (WebAuthn, ADR 055): a signed-in person enrols passkeys (several, named, removable);
 * anyone signs in with one without a username or password (a discoverable credential, with user
 * verification); the factor step of a password sign-in asks for one (`PasskeyFactor`). Attestation
 * is not asked for ('none'): the server trusts the public key it is given at enrolment, from a
 * signed-in person, and from then on only signatures made with it. Every challenge is random,
 * lives five minutes and is spent by its first answer.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  PASSKEYS_PER_PERSON,
  ResultCode,
  type PasskeyAssertion,
  type PasskeyItem,
  type PasskeyRegistration,
} from '@portal/contracts';
import type { LoginOutcome } from '@portal/contracts';
import type { PasskeyFactor, RecordLoginEvent } from '../../platform/credentials.js';
import { AppError, errors } from '../../platform/errors.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ActiveSession } from '../../platform/session.js';
import type { ChallengePurpose, PasskeysRepository, StoredPasskey } from './passkeys.repository.js';

/** How long a ceremony's challenge may be answered. */
export const CHALLENGE_SECONDS = 300;
/** ES256 and RS256: what every platform authenticator and security key offers. */
const ALGORITHMS = [-7, -257];

/** Who a passwordless sign-in proved to be, and how (OIDC `amr` values). */
export interface PasskeySignIn {
  userId: number;
  tenantId: number;
  username: string;
  mustChangePassword: boolean;
  /** `hwk` (a key bound to its device) or `swk` (a synced passkey), and `mfa`: possession plus user verification. */
  methods: string[];
}

export interface PasskeysServiceDeps {
  repo: PasskeysRepository;
  /** The relying party: RP ID (PUBLIC_URL's host name), the origin answers must come from, a name to show. */
  rp: { id: string; origin: string; name: string };
  limiter: Pick<RateLimiter, 'hit'>;
  /** Sign-in attempts per address and minute (the login's own limit). */
  perIpPerMinute: number;
  /**
   * Reserves an attempt on the person's login lockout counter (auth): false when the account is
   * locked, and then nothing is checked. A right answer resets the counter when the session opens.
   */
  reserveAttempt: (userId: number) => Promise<boolean>;
  /** Whether the tenant's policy allows passkeys (allowedFactors holds 'webauthn'). */
  allowed: (tenantId: number) => Promise<boolean>;
  /** The tenant a portal login names (tenants.idOf: 400 for an unknown one). */
  tenantIdOf: (code: string | undefined) => Promise<number>;
  /**
   * Opens a portal session for a proven person (auth): resets the lockout counter, audits
   * `login.passkey`, marks the session's factor as proven now; its token.
   */
  openPortal: (who: PasskeySignIn, client: { ip: string; userAgent: string }) => Promise<string>;
  /** A sign-on server sign-in succeeded (auth): resets the lockout counter and audits `sso.login.passkey`. */
  succeeded: (userId: number, ip: string) => Promise<void>;
  /** A sign-on server sign-in refused for a password someone else set (auth's audit of ADR 033). */
  passwordChangeRefused: (tenantId: number, userId: number, ip: string) => Promise<void>;
  /**
   * Whether the session proved a factor within the step-up minutes (the factors module's): adding
   * or removing a passkey is sensitive, or a stolen session could enrol its own and step up with it.
   */
  stepUpFresh?: ((session: ActiveSession) => Promise<boolean>) | undefined;
  /** The login history (sessions): one row per passwordless attempt, factor `webauthn`, as every sign-in path writes. */
  recordLoginEvent?: RecordLoginEvent | undefined;
}

/** Who is signing in, from where, through which door (the login history's columns). */
export interface PasskeyClient {
  ip: string;
  userAgent: string;
  via: 'portal' | 'cas' | 'oidc';
}

const stepUpRequired = () => new AppError(ResultCode.STEP_UP_REQUIRED, 'stepUpRequired');

const signInFailed = () => new AppError(ResultCode.LOGIN_FAILED, 'passkeyFailed');

/** The challenge an answer signed, read from its clientDataJSON; null when it is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    return typeof data.challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(data.challenge) ? data.challenge : null;
  } catch {
    return null;
  }
}

/** The user handle an authenticator keeps: the account's subject (a random UUID) as 16 bytes. */
const userHandleOf = (subject: string) => Buffer.from(subject.replaceAll('-', ''), 'hex');

const transportsOf = (t: string[]) => t as AuthenticatorTransport[];

export function createPasskeysService(deps: PasskeysServiceDeps) {
  const { repo, rp } = deps;

  async function requireAllowed(tenantId: number) {
    if (!(await deps.allowed(tenantId))) throw new AppError(ResultCode.NO_PERMISSION, 'passkeyNotAllowed');
  }

  async function freshOnly(session: ActiveSession) {
    if (deps.stepUpFresh && !(await deps.stepUpFresh(session))) throw stepUpRequired();
  }

  async function newChallenge<T extends { challenge: string }>(
    options: T,
    purpose: ChallengePurpose,
    userId: number | null,
  ): Promise<T> {
    await repo.saveChallenge(options.challenge, purpose, userId, CHALLENGE_SECONDS);
    return options;
  }

  /** Checks an assertion against a stored credential and records the use; false for any failure. */
  async function verifyAssertion(
    credential: StoredPasskey,
    assertion: PasskeyAssertion,
    expectedChallenge: string,
    requireUserVerification: boolean,
  ): Promise<{ backedUp: boolean } | null> {
    let result;
    try {
      result = await verifyAuthenticationResponse({
        response: assertion as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification,
        credential: {
          id: credential.credentialId,
          publicKey: isoBase64URL.toBuffer(credential.publicKey),
          counter: credential.signCount,
          transports: transportsOf(credential.transports),
        },
      });
    } catch {
      // A bad signature, another origin, a counter that went backwards: all one refusal.
      return null;
    }
    if (!result.verified) return null;
    const info = result.authenticationInfo;
    // Written only if the counter moved on from what was read: two answers racing, one wins.
    const recorded = await repo.recordUse(
      credential.id,
      credential.signCount,
      info.newCounter,
      info.credentialBackedUp,
    );
    return recorded ? { backedUp: info.credentialBackedUp } : null;
  }

  /**
   * One passwordless attempt into the login history. An answer that names no credential of the
   * tenant (or a spent challenge) names no one: the row is the tenant's, with no user and no name.
   */
  async function record(
    tenantId: number,
    who: { userId: number; username: string } | null,
    outcome: LoginOutcome,
    client: PasskeyClient,
  ): Promise<void> {
    if (!deps.recordLoginEvent) return;
    await deps.recordLoginEvent({
      tenantId,
      userId: who?.userId ?? null,
      username: who?.username ?? '',
      outcome,
      via: client.via,
      factor: 'webauthn',
      ip: client.ip,
      userAgent: client.userAgent || null,
    });
  }

  const factor: PasskeyFactor = {
    async options(tenantId, userId) {
      const credentials = await repo.credentialsOf(tenantId, userId);
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        allowCredentials: credentials.map((c) => ({ id: c.credentialId, transports: transportsOf(c.transports) })),
        userVerification: 'preferred',
        timeout: CHALLENGE_SECONDS * 1000,
      });
      return { options, state: { challenge: options.challenge } };
    },
    async verify(tenantId, userId, state, response) {
      const expected = state.challenge;
      const answer = response as PasskeyAssertion | null;
      if (typeof expected !== 'string' || !answer || typeof answer !== 'object' || typeof answer.id !== 'string')
        return false;
      const credential = (await repo.credentialsOf(tenantId, userId)).find((c) => c.credentialId === answer.id);
      if (!credential) return false;
      return (await verifyAssertion(credential, answer, expected, false)) !== null;
    },
  };

  const service = {
    factor,

    async list(session: ActiveSession): Promise<PasskeyItem[]> {
      const rows = await repo.list(session.tenantId, session.userId);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.createdAt,
        lastUsedAt: r.lastUsedAt,
        passwordless: r.passwordless,
        backedUp: r.backedUp,
      }));
    },

    /** The options for the browser to create a passkey for the signed-in person. */
    async enrolOptions(session: ActiveSession) {
      await requireAllowed(session.tenantId);
      await freshOnly(session);
      const person = await repo.person(session.tenantId, session.userId);
      if (!person) throw errors.unauthorized();
      const held = await repo.credentialsOf(session.tenantId, session.userId);
      if (held.length >= PASSKEYS_PER_PERSON)
        throw new AppError(ResultCode.CONFLICT, 'passkeyLimit', { max: PASSKEYS_PER_PERSON });
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: person.username,
        userDisplayName: person.name,
        userID: userHandleOf(person.subject),
        attestationType: 'none',
        // The authenticator makes no second credential for this person.
        excludeCredentials: held.map((c) => ({ id: c.credentialId, transports: transportsOf(c.transports) })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
        extensions: { credProps: true },
        supportedAlgorithmIDs: ALGORITHMS,
        timeout: CHALLENGE_SECONDS * 1000,
      });
      return newChallenge(options, 'enrol', session.userId);
    },

    /** Verifies the browser's new credential against the person's live challenge and keeps it. */
    async enrol(session: ActiveSession, name: string, registration: PasskeyRegistration, ip: string) {
      await requireAllowed(session.tenantId);
      const failed = () => new AppError(ResultCode.BAD_REQUEST, 'passkeyEnrolFailed');
      const challenge = challengeOf(registration.response.clientDataJSON);
      if (!challenge || !(await repo.takeChallenge(challenge, 'enrol', session.userId))) throw failed();
      let result;
      try {
        result = await verifyRegistrationResponse({
          response: registration as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch {
        throw failed();
      }
      if (!result.verified) throw failed();
      const info = result.registrationInfo;
      const discoverable = registration.clientExtensionResults.credProps?.rk === true;
      const id = await repo.add(
        {
          tenantId: session.tenantId,
          userId: session.userId,
          name: name.trim() || 'Passkey',
          credentialId: info.credential.id,
          publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
          signCount: info.credential.counter,
          transports: (registration.response.transports ?? []).slice(0, 8),
          aaguid: info.aaguid,
          backedUp: info.credentialBackedUp,
          passwordless: discoverable && info.userVerified,
        },
        PASSKEYS_PER_PERSON,
        { tenantId: session.tenantId, userId: session.userId, ip },
      );
      if (id === 'full') throw new AppError(ResultCode.CONFLICT, 'passkeyLimit', { max: PASSKEYS_PER_PERSON });
      if (id === 'taken') throw new AppError(ResultCode.CONFLICT, 'passkeyTaken');
      return id;
    },

    async rename(session: ActiveSession, id: number, name: string, ip: string) {
      const done = await repo.rename(session.tenantId, session.userId, id, name.trim() || 'Passkey', {
        tenantId: session.tenantId,
        userId: session.userId,
        ip,
      });
      if (!done) throw errors.notFound();
    },

    async remove(session: ActiveSession, id: number, ip: string) {
      await freshOnly(session);
      const done = await repo.remove(session.tenantId, session.userId, id, {
        tenantId: session.tenantId,
        userId: session.userId,
        ip,
      });
      if (!done) throw errors.notFound();
    },

    /** Options for a passwordless sign-in: any passkey of this site, with user verification. */
    async signInOptions(ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      await deps.limiter.hit(`login:ip:${ip}`, deps.perIpPerMinute, 60);
      const options = await generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: 'required',
        timeout: CHALLENGE_SECONDS * 1000,
      });
      return newChallenge(options, 'sign_in', null);
    },

    /**
     * A passwordless sign-in into `tenantId`: the challenge is spent first, the credential must be
     * one of the tenant's, its person's lockout counter takes an attempt before the signature is
     * checked, user verification is required. Refusals are one message (a disabled account is said
     * to be so once the passkey proved it, as with a password, ADR 045); each is audited.
     */
    async signIn(tenantId: number, assertion: PasskeyAssertion, client: PasskeyClient): Promise<PasskeySignIn> {
      const { ip } = client;
      await deps.limiter.hit(`login:ip:${ip}`, deps.perIpPerMinute, 60);
      const fail = async (
        who: { userId: number; username: string } | null,
        action: 'login.passkey_failed' | 'login.locked',
        why: string,
      ) => {
        await repo.audit({ tenantId, userId: who?.userId ?? null, action, ip, detail: { why } });
        await record(tenantId, who, action === 'login.locked' ? 'locked' : 'wrong_factor', client);
        return action === 'login.locked' ? new AppError(ResultCode.LOGIN_FAILED, 'passkeyLocked') : signInFailed();
      };
      const challenge = challengeOf(assertion.response.clientDataJSON);
      if (!challenge || !(await repo.takeChallenge(challenge, 'sign_in', null)))
        throw await fail(null, 'login.passkey_failed', 'challenge');
      await requireAllowed(tenantId);
      const owner = await repo.owner(tenantId, assertion.id);
      if (!owner) throw await fail(null, 'login.passkey_failed', 'unknownCredential');
      if (assertion.response.userHandle !== undefined) {
        const handle = isoBase64URL.fromBuffer(userHandleOf(owner.subject));
        if (assertion.response.userHandle !== handle) throw await fail(owner, 'login.passkey_failed', 'userHandle');
      }
      if (owner.locked || !(await deps.reserveAttempt(owner.userId))) throw await fail(owner, 'login.locked', 'locked');
      const verified = await verifyAssertion(owner, assertion, challenge, true);
      if (!verified) throw await fail(owner, 'login.passkey_failed', 'signature');
      if (owner.disabled) {
        await repo.audit({ tenantId, userId: owner.userId, action: 'login.disabled', ip });
        await record(tenantId, owner, 'disabled', client);
        throw new AppError(ResultCode.ACCOUNT_DISABLED, 'accountDisabled');
      }
      return {
        userId: owner.userId,
        tenantId: owner.tenantId,
        username: owner.username,
        mustChangePassword: owner.mustChangePassword,
        methods: [verified.backedUp ? 'swk' : 'hwk', 'mfa'],
      };
    },

    /**
     * The portal login's passwordless sign-in: a portal session and its token. A person whose
     * password someone else set gets a session that can only change it (ADR 033), as with a password.
     */
    async portalSignIn(
      tenantCode: string | undefined,
      assertion: PasskeyAssertion,
      client: { ip: string; userAgent: string },
    ) {
      const tenantId = await deps.tenantIdOf(tenantCode);
      const who = await service.signIn(tenantId, assertion, { ...client, via: 'portal' });
      const token = await deps.openPortal(who, client);
      // As the password login: a session that can only change the password is still a sign-in, named so.
      const outcome = who.mustChangePassword ? 'password_change_required' : 'succeeded';
      await record(tenantId, who, outcome, { ...client, via: 'portal' });
      return token;
    },

    /**
     * The sign-on page's passwordless sign-in, before its SSO session opens: refused for a person
     * who must change a password someone else set first (the change comes before any sign-on).
     */
    async ssoSignIn(
      tenantId: number,
      assertion: PasskeyAssertion,
      client: PasskeyClient & { via: 'cas' | 'oidc' },
    ): Promise<PasskeySignIn> {
      const who = await service.signIn(tenantId, assertion, client);
      if (who.mustChangePassword) {
        await deps.passwordChangeRefused(who.tenantId, who.userId, client.ip);
        await record(tenantId, who, 'password_change_required', client);
        throw new AppError(ResultCode.PASSWORD_CHANGE_REQUIRED, 'passwordChangeRequired');
      }
      await deps.succeeded(who.userId, client.ip);
      await record(tenantId, who, 'succeeded', client);
      return who;
    },

    /** Housekeeping: drops the challenges nobody answered. */
    removeExpiredChallenges: () => repo.removeExpiredChallenges(),
  };
  return service;
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
