/**
 * The sign-on server's logic (CAS protocol 3.0): login with a ticket-granting cookie, service
 * tickets for registered services only, one validation attempt per ticket, logout with single
 * logout to every service of the session. Credentials are checked by the function the app wires
 * in (the portal login's rules, captcha and lockout).
 */
import { randomBytes } from 'node:crypto';
import { ResultCode } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { randomAlnum, sha256Hex } from '../../platform/hash.js';
import { escapeMarkup } from '../../platform/html.js';
import type { Credentials, VerifyCredentials } from '../../platform/credentials.js';
import type { Outbound } from '../../platform/outbound.js';
import type { Tenants } from '../../platform/tenants.js';
import {
  findService,
  logoutTarget,
  parseService,
  resolvePattern,
  type PortalAddresses,
  type RegisteredService,
} from './service-registry.js';
import type { Translations } from '../../db/schema.js';
import type { SsoRepository, SsoSession, Tenant, TenantWithServices } from './sso.repository.js';

export const TICKET_PREFIX = 'ST-';

export type LogoutTarget = ReturnType<typeof logoutTarget>;

export interface SsoSettings {
  sessionMaxSeconds: number;
  sessionIdleSeconds: number;
  ticketTtlSeconds: number;
  portal: PortalAddresses;
  /** How long a single-logout POST may take before it is given up. */
  logoutTimeoutMs: number;
  /** The most single-logout requests one logout sends (the rest are counted and logged, not sent). */
  logoutCallbacksMax: number;
  /** The sign-on server users sign in at (SSO_URL, else this server's own /cas). */
  casBase: string;
}

export interface SsoDeps {
  repo: SsoRepository;
  settings: SsoSettings;
  /** The one rule for a tenant code (a request without one is looked up by its service). */
  tenants: Pick<Tenants, 'named' | 'defaultCode'>;
  /** Throws the login's AppError when refused; the user's id and tenant when accepted. */
  verifyCredentials: VerifyCredentials;
  /** Sends one single-logout request; failures and refusals are logged, never thrown. */
  postLogout: (target: LogoutTarget, body: string, timeoutMs: number) => Promise<void>;
  /** Told of the single-logout requests a logout did not send because of the cap. */
  logoutsDropped: (count: number, sessionId: string) => void;
  /**
   * Whether `service` is where the OpenID Provider's sign-in for `tenantCode` continues (its
   * interaction address): the sign-on page then always shows the form and, signed in, goes back
   * there without a ticket. Nothing else is.
   */
  isProviderReturn?: (service: string, tenantCode: string) => boolean;
  /**
   * Told of every SSO session a logout or a new sign-in ended, after it ended: the OpenID Provider
   * tells the clients it signed into (back-channel logout). Never throws.
   */
  sessionEnded?: (ssoSessionId: string) => Promise<void>;
}

export type CasFailureCode =
  'INVALID_REQUEST' | 'INVALID_TICKET_SPEC' | 'INVALID_TICKET' | 'INVALID_SERVICE' | 'INTERNAL_ERROR';

export type Validation =
  | {
      ok: true;
      user: string;
      attributes: {
        authenticationDate: string;
        isFromNewLogin: boolean;
        longTermAuthenticationRequestTokenUsed: boolean;
        tenantCode: string;
        userId: number;
        name: string;
      };
    }
  | { ok: false; code: CasFailureCode; description: string };

/** What GET /cas/login does. */
export type LoginStep =
  | { kind: 'redirect'; url: string }
  /** The sign-on form, for this tenant. */
  | { kind: 'page'; tenant: Tenant }
  /** No service asked for and already signed in: the page says who. */
  | { kind: 'signedIn'; tenant: Tenant; user: { name: string; translations: Translations<{ name: string }> } }
  | { kind: 'refused'; reason: 'unknownTenant' | 'unknownService' };

export const hashCookie = sha256Hex;

/** A service ticket: `ST-` and 256 random bits (CAS 3.0 §3.7 grammar). */
export const newTicket = () => `${TICKET_PREFIX}${randomAlnum()}`;

/** The ticket-granting cookie's value: `TGC-` (CAS 3.0 §3.6's recommended prefix) and 256 random bits. */
export const newTicketGrantingCookie = () => `TGC-${randomAlnum()}`;

/** What a ticket this server issued looks like: anything else is not one of ours. */
const TICKET_GRAMMAR = /^ST-[A-Za-z0-9-]{1,253}$/;

/** CAS's boolean parameters: present and "true" (any case), or a bare flag. */
export const flag = (v: string | undefined) => v !== undefined && (v === '' || v.toLowerCase() === 'true');

/** The service address with `ticket` appended, the rest of it exactly as registered and given. */
function withTicket(service: URL, ticket: string): string {
  const [address, hash] = service.href.split('#', 2) as [string, string | undefined];
  const joined = `${address}${address.includes('?') ? '&' : '?'}ticket=${encodeURIComponent(ticket)}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

/** SAML LogoutRequest of CAS single logout; the session index is the service ticket. */
export function logoutRequestXml(ticket: string, id = randomBytes(16).toString('hex'), at = new Date()): string {
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ` +
    `xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="LR-${id}" Version="2.0" ` +
    `IssueInstant="${at.toISOString()}"><saml:NameID>@NOT_USED@</saml:NameID>` +
    `<samlp:SessionIndex>${escapeMarkup(ticket)}</samlp:SessionIndex></samlp:LogoutRequest>`
  );
}

/**
 * Sends single-logout requests (as CAS servers do: a form POST of a SAML LogoutRequest) through the
 * server's outbound client: the address rule holds (an operator registered the address), a redirect
 * is not followed, the answer is not read. A service that does not answer in time, fails or is
 * refused is logged and left: the session has ended anyway.
 */
export function createLogoutPoster(
  outbound: Pick<Outbound, 'send'>,
  warn: (err: unknown, url: string) => void,
): SsoDeps['postLogout'] {
  return async (target, body, timeoutMs) => {
    try {
      await outbound.send(target.url, {
        purpose: 'sso_logout',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        timeoutMs,
        maxResponseBytes: 0,
        installation: target.installation,
      });
    } catch (err) {
      warn(err, target.url);
    }
  };
}

export function createSsoService(deps: SsoDeps) {
  const { repo, settings } = deps;

  /**
   * The tenant a request is for: the one it names; else the one whose registry holds the service
   * (standard CAS clients send no tenantCode); else, or when several tenants register it, the
   * default tenant.
   */
  async function tenantOf(code: string | undefined, service?: string): Promise<TenantWithServices | null> {
    const named = deps.tenants.named(code);
    if (named) return repo.tenantByCode(named);
    if (service) {
      const all = await repo.allServices();
      const codes = new Set(
        all.filter((s) => findService(service, [s], settings.portal) !== null).map((s) => s.tenantCode),
      );
      if (codes.size === 1) return repo.tenantByCode([...codes][0]!);
    }
    return repo.tenantByCode(deps.tenants.defaultCode);
  }

  const registered = (services: readonly RegisteredService[], service: string) =>
    findService(service, services, settings.portal);

  async function ticketFor(session: SsoSession, svc: { service: RegisteredService; url: URL }, fromNewLogin: boolean) {
    const ticket = newTicket();
    await repo.issueTicket({
      ticket,
      ssoSessionId: session.id,
      serviceId: svc.service.id,
      service: svc.url.href,
      fromNewLogin,
      ttlSeconds: settings.ticketTtlSeconds,
    });
    return withTicket(svc.url, ticket);
  }

  /**
   * Ends the SSO session a cookie names (or the one with this id) and tells each of its services
   * (single logout) and the OpenID Provider's clients.
   */
  async function endSession(cookie: string | { id: string }) {
    const key = typeof cookie === 'string' ? { cookieHash: hashCookie(cookie) } : cookie;
    const ended = await repo.endSession(key, settings.logoutCallbacksMax);
    if (!ended) return null;
    const providerDone = deps.sessionEnded?.(ended.session.id);
    if (ended.total > ended.tickets.length) deps.logoutsDropped(ended.total - ended.tickets.length, ended.session.id);
    const services = await repo.services(ended.session.tenantId);
    await Promise.all(
      ended.tickets.map((t) => {
        const svc = services.find((s) => s.id === t.serviceId);
        if (!svc) return undefined;
        const body = `logoutRequest=${encodeURIComponent(logoutRequestXml(t.ticket))}`;
        return deps.postLogout(logoutTarget(svc, t.service, settings.portal), body, settings.logoutTimeoutMs);
      }),
    );
    await providerDone;
    return ended;
  }

  /** Where a sign-in for `service` goes: the OpenID Provider's interaction, a registered service, or none. */
  function targetOf(tenant: TenantWithServices, service: string | undefined) {
    const providerReturn = service && deps.isProviderReturn?.(service, tenant.code) ? service : null;
    const svc = service && !providerReturn ? registered(tenant.services, service) : null;
    if (service && !svc && !providerReturn) throw new SsoRefusal('unknownService');
    return { providerReturn, svc };
  }

  async function open(
    tenant: TenantWithServices,
    { providerReturn, svc }: ReturnType<typeof targetOf>,
    user: { userId: number; tenantId: number },
    methods: string[],
    previousCookie: string | undefined,
    client: { ip: string; userAgent: string },
    /** The password was the strongest proof the person has: it counts for step-up as a factor would. */
    strongest = false,
  ): Promise<{ cookie: string; redirect: string }> {
    // A new login in this browser replaces its earlier SSO session (perhaps another user's).
    if (previousCookie) await endSession(previousCookie);
    const cookie = newTicketGrantingCookie();
    const id = await repo.openSession(
      hashCookie(cookie),
      user.tenantId,
      user.userId,
      settings.sessionMaxSeconds,
      client,
      methods,
      strongest,
    );
    // Disabled between the proof and now: refused as any failed login is.
    if (!id) throw new AppError(ResultCode.LOGIN_FAILED, 'loginFailed');
    const session = { id, tenantId: user.tenantId, userId: user.userId };
    // Without a service the sign-on page itself says who is signed in.
    const signedIn = `/cas/login?${new URLSearchParams({ tenantCode: tenant.code })}`;
    if (providerReturn) return { cookie, redirect: providerReturn };
    return { cookie, redirect: svc ? await ticketFor(session, svc, true) : signedIn };
  }

  /**
   * A sign-in at the sign-on server, however the person proves who they are (`prove`: the
   * password, or a passkey through the function app.ts wires in), in the tenant the request means:
   * the service must be registered (or be the OpenID Provider's return) before anything is
   * proved; the new SSO session remembers what was proved (`methods`, OIDC `amr` values).
   */
  async function signInWith(
    where: {
      tenantCode: string;
      service: string | undefined;
      previousCookie?: string | undefined;
      /** Where the sign-in comes from (my sessions, online users). */
      client: { ip: string; userAgent: string };
    },
    prove: (
      tenant: { id: number; code: string },
      /** The sign-in is the OpenID Provider's (it continues at its interaction). */
      providerReturn: boolean,
    ) => Promise<{ userId: number; tenantId: number; methods: string[]; strongest?: boolean | undefined }>,
  ): Promise<{ cookie: string; redirect: string }> {
    const tenant = await tenantOf(where.tenantCode, where.service);
    if (!tenant) throw new SsoRefusal('unknownTenant');
    const target = targetOf(tenant, where.service);
    const user = await prove({ id: tenant.id, code: tenant.code }, target.providerReturn !== null);
    return open(tenant, target, user, user.methods, where.previousCookie, where.client, user.strongest === true);
  }

  return {
    /** GET /cas/login: straight back with a ticket (SSO), back without one (gateway), or the form. */
    async loginStep(q: {
      service?: string | undefined;
      renew?: string | undefined;
      gateway?: string | undefined;
      tenantCode?: string | undefined;
      cookie?: string | undefined;
    }): Promise<LoginStep> {
      const tenant = await tenantOf(q.tenantCode, q.service);
      if (!tenant) return { kind: 'refused', reason: 'unknownTenant' };
      // The OpenID Provider sends the browser here only when it needs a sign-in: the form.
      if (q.service && deps.isProviderReturn?.(q.service, tenant.code)) return { kind: 'page', tenant };
      const svc = q.service ? registered(tenant.services, q.service) : null;
      if (q.service && !svc) return { kind: 'refused', reason: 'unknownService' };
      // renew takes precedence over gateway (CAS 3.0 §2.1.1).
      const renew = flag(q.renew);
      // A live session of this tenant gets its ticket in the same statement that touches it.
      const issue = svc
        ? {
            ticket: newTicket(),
            tenantId: tenant.id,
            serviceId: svc.service.id,
            service: svc.url.href,
            ttlSeconds: settings.ticketTtlSeconds,
          }
        : undefined;
      const session =
        q.cookie && !renew ? await repo.touchSession(hashCookie(q.cookie), settings.sessionIdleSeconds, issue) : null;
      if (svc && issue && session?.issued) return { kind: 'redirect', url: withTicket(svc.url, issue.ticket) };
      if (svc && !renew && flag(q.gateway)) return { kind: 'redirect', url: svc.url.href };
      if (!svc && session && session.tenantId === tenant.id) {
        return {
          kind: 'signedIn',
          tenant,
          user: (await repo.userName(session.userId)) ?? { name: '', translations: {} },
        };
      }
      return { kind: 'page', tenant };
    },

    /**
     * POST /cas/login: a new SSO session (cookie) and where to go: the service with a ticket, or
     * the page. A sign-in that needs a second factor is refused with 40308 (its challenge) by the
     * credentials check, and goes on in `continueLogin` once answered.
     */
    async login(
      c: Credentials,
      service: string | undefined,
      previousCookie?: string,
    ): Promise<{ cookie: string; redirect: string }> {
      return signInWith(
        { tenantCode: c.tenantCode, service, previousCookie, client: { ip: c.ip, userAgent: c.userAgent } },
        async (tenant, providerReturn) => {
          const user = await deps.verifyCredentials({
            ...c,
            tenantCode: tenant.code,
            // The OpenID Provider's sign-in comes through here too: the history names its door.
            via: providerReturn ? 'oidc' : 'cas',
            factorContext: { tenantCode: tenant.code, ...(service ? { service } : {}) },
          });
          return { ...user, methods: user.methods ?? ['pwd'] };
        },
      );
    },

    /** The sign-in of `login` after its factor step: `context` is what `login` kept with the challenge. */
    async continueLogin(
      user: { userId: number; tenantId: number },
      context: Record<string, unknown>,
      methods: string[],
      client: { ip: string; userAgent: string },
      previousCookie?: string,
    ): Promise<{ cookie: string; redirect: string }> {
      const service = typeof context.service === 'string' ? context.service : undefined;
      const code = typeof context.tenantCode === 'string' ? context.tenantCode : '';
      const tenant = await tenantOf(code, service);
      if (!tenant || tenant.id !== user.tenantId) throw new SsoRefusal('unknownTenant');
      return open(tenant, targetOf(tenant, service), user, methods, previousCookie, client);
    },

    signInWith,

    /** serviceValidate and friends: the ticket's one validation attempt. */
    async validate(q: {
      ticket?: string | undefined;
      service?: string | undefined;
      renew?: string | undefined;
    }): Promise<Validation> {
      if (!q.ticket || !q.service) {
        return { ok: false, code: 'INVALID_REQUEST', description: `'ticket' and 'service' are required` };
      }
      if (!TICKET_GRAMMAR.test(q.ticket)) {
        return { ok: false, code: 'INVALID_TICKET', description: `Ticket '${q.ticket.slice(0, 64)}' not recognized` };
      }
      const given = parseService(q.service)?.href ?? null;
      const renew = flag(q.renew);
      const t = await repo.takeTicket(q.ticket, given, renew);
      if (!t || t.expired || t.sessionEnded) {
        return { ok: false, code: 'INVALID_TICKET', description: `Ticket '${q.ticket}' not recognized` };
      }
      if (given !== t.service) {
        return { ok: false, code: 'INVALID_SERVICE', description: `Ticket '${q.ticket}' does not match the service` };
      }
      if (renew && !t.fromNewLogin) {
        return {
          ok: false,
          code: 'INVALID_TICKET_SPEC',
          description: 'The ticket was not issued by a new login (renew)',
        };
      }
      return {
        ok: true,
        user: t.username,
        attributes: {
          authenticationDate: t.authenticatedAt.toISOString(),
          isFromNewLogin: t.fromNewLogin,
          longTermAuthenticationRequestTokenUsed: false,
          tenantCode: t.tenantCode,
          userId: t.userId,
          name: t.name,
        },
      };
    },

    /**
     * /front/esa/system/sso: the address that signs the user of a portal session into an external
     * system of the tenant. A portal session that came from a live SSO session gets a service
     * ticket for the system at once; any other goes through the sign-on server's login (which
     * needs no form while the browser's SSO session lives). Null for an unknown system.
     */
    async systemEntry(portal: { sessionId: string; tenantId: number }, sysCode: string): Promise<string | null> {
      const svc = (await repo.services(portal.tenantId)).find((s) => s.sysCode === sysCode);
      const url = svc ? parseService(resolvePattern(svc.entryUrl ?? svc.pattern, settings.portal)) : null;
      if (!svc || !url || !findService(url.href, [svc], settings.portal)) return null;
      const live = await repo.sessionOfPortalSession(portal.sessionId, settings.sessionIdleSeconds);
      if (live && live.tenantId === portal.tenantId) return ticketFor(live, { service: svc, url }, false);
      const tenantCode = (await repo.tenantCode(portal.tenantId)) ?? deps.tenants.defaultCode;
      const q = new URLSearchParams({ loginType: '2', tenantCode, service: url.href });
      return `${settings.casBase}/cas/login?${q}`;
    },

    /**
     * Ends an SSO session by id, as a logout does (single logout to its services, back-channel
     * logout to the OpenID clients): the OpenID Provider's RP-initiated logout.
     */
    async endSessionById(id: string): Promise<void> {
      await endSession({ id });
    },

    /** The sign-on session a service ticket was issued from (a portal session opened with it belongs to it). */
    async sessionOfTicket(ticket: string): Promise<string | null> {
      return repo.sessionOfTicket(ticket);
    },

    /**
     * GET /cas/logout: ends the SSO session, tells every service that validated a ticket of it
     * (single logout, in parallel, each bounded by a timeout; at most `logoutCallbacksMax`
     * requests, every service's newest ticket first), and returns where to go: the given
     * service if it is registered, else nowhere (the logged-out page).
     */
    async logout(q: { cookie?: string | undefined; service?: string | undefined; tenantCode?: string | undefined }) {
      const ended = q.cookie ? await endSession(q.cookie) : null;
      if (!q.service) return { redirect: null };
      const services = ended
        ? await repo.services(ended.session.tenantId)
        : ((await tenantOf(q.tenantCode, q.service))?.services ?? []);
      const svc = registered(services, q.service);
      return { redirect: svc ? svc.url.href : null };
    },
  };
}

export class SsoRefusal extends Error {
  constructor(readonly reason: 'unknownTenant' | 'unknownService') {
    super(reason);
  }
}

export type SsoService = ReturnType<typeof createSsoService>;
