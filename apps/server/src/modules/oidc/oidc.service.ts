/**
 * The portal as an OpenID Provider, one per tenant (issuer `{PUBLIC_URL}/oidc/{tenantCode}`), built
 * on oidc-provider (ADR 048): created when a tenant's issuer is first asked, kept in a map, and
 * dropped on every instance when the tenant or its signing keys change. Everything it keeps lives in
 * PostgreSQL (the adapter below), so any instance answers any request and a rebuilt provider loses
 * nothing.
 *
 * The sign-on session is the CAS one (sso_sessions): a login finishes from it without a form, and
 * every grant, code, token and provider session that came from it carries its id, so that ending
 * it (any path) refuses them all.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, {
  errors,
  type Adapter,
  type AdapterPayload,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { PORTAL_ADMIN_SCOPE } from '@portal/contracts';
import type { RecordLoginEvent } from '../../platform/credentials.js';
import { sha256Hex } from '../../platform/hash.js';
import { localized, type Lang } from '../../platform/i18n.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import type { Outbound } from '../../platform/outbound.js';
import { ACR_VALUES, acrFor, askedAcrs, meets } from './acr.js';
import type {
  KeyRow,
  KeyState,
  LiveSsoSession,
  OidcRepository,
  OidcTenant,
  ServiceAccountRow,
} from './oidc.repository.js';
import {
  consentPage,
  deviceConfirmPage,
  deviceDonePage,
  deviceInputPage,
  errorPage,
  loggedOutPage,
  logoutPage,
  pageLang,
} from './oidc.pages.js';

/** The scopes offered (no offline_access: refresh tokens end with the sign-on session). */
export const OIDC_SCOPES = ['openid', 'profile', 'phone', 'roles', 'enterprise'] as const;

/**
 * The scope of a service account's client_credentials token that the operators' API accepts
 * (ADR 056); offered only to clients marked as service accounts. The contracts' PORTAL_ADMIN_SCOPE.
 */
export const SERVICE_ACCOUNT_SCOPE = PORTAL_ADMIN_SCOPE;

/** What a service account's access token acts as: the client, its tenant and its role (ADR 056). */
export interface ServiceAccount extends ServiceAccountRow {
  tenantId: number;
}

/** The claims each scope releases (docs/api.md#openid-connect-adr-048-not-signed). */
export const OIDC_CLAIMS = {
  // amr: the methods the sign-in proved (pwd; otp, hwk or sms and mfa after a second factor), in the ID token;
  // acr: the level they reach (./acr.ts).
  openid: ['sub', 'tenant', 'amr', 'acr'],
  // `name#en`: the English name where one is kept, as a language-tagged claim (OpenID Connect Core 5.2).
  profile: ['preferred_username', 'name', 'name#en'],
  phone: ['phone_number', 'phone_number_verified'],
  roles: ['roles'],
  enterprise: ['enterprise'],
};

export const SIGNING_ALGS = ['ES256', 'RS256'] as const;

/** Lifetimes, in seconds. */
export const OIDC_TTL = {
  AccessToken: 10 * 60,
  AuthorizationCode: 60,
  ClientCredentials: 10 * 60,
  DeviceCode: 10 * 60,
  IdToken: 60 * 60,
  Interaction: 30 * 60,
  // Bounded by the sign-on session anyway; these are the outer limits.
  RefreshToken: 14 * 24 * 3600,
  Session: 14 * 24 * 3600,
  Grant: 14 * 24 * 3600,
};

/** A new key is published this long before it signs (relying parties refresh their key sets). */
export const KEY_PUBLISH_LEAD_MS = 24 * 3600_000;
/** A retired key stays published this long: longer than anything it signed lives (ID tokens, an hour). */
export const KEY_RETAIN_MS = 24 * 3600_000;

/** Models whose rows belong to a user's sign-on (bound to the sign-on session). */
const BOUND = new Set(['Session', 'Grant', 'AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode']);

/** The interaction path of a tenant (under /cas, so the sign-on cookie reaches it). */
export const interactionPath = (tenantCode: string, uid: string) =>
  `/cas/oidc/${encodeURIComponent(tenantCode)}/interaction/${encodeURIComponent(uid)}`;

const INTERACTION_PATH = /^\/cas\/oidc\/([A-Za-z0-9_-]{1,64})\/interaction\/([A-Za-z0-9_-]{1,64})$/;

/**
 * Whether `address` is an interaction address of this server for `tenantCode`: the one place the
 * sign-on page may send the browser back to after a login for the provider. Anything else (another
 * origin, another path, a query, a fragment) is not.
 */
export function isInteractionAddress(address: string, publicUrl: string, tenantCode: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.origin !== new URL(publicUrl).origin || url.search || url.hash || url.username || url.password) return false;
  const m = INTERACTION_PATH.exec(url.pathname);
  return m !== null && m[1] === tenantCode && `${url.origin}${url.pathname}` === address;
}

export interface OidcSettings {
  publicUrl: string;
  /** Keys the provider signs its cookies with (the newest first), shared by every instance. */
  cookieKeys: string[];
  secureCookies: boolean;
  /** How long a sign-on session may sit unused (the CAS rule). */
  ssoIdleSeconds: number;
  /** How long a signing key signs before the next one takes over. */
  keyRotationDays: number;
}

/** What the provider may send to others (back-channel logout), through the server's outbound client. */
export type OidcFetch = (url: URL | string, init: RequestInit) => Promise<Response>;

/**
 * The provider's `fetch` (back-channel logout requests) through the server's outbound client: its
 * address rule (the address comes from a client's registration, which operators write), no
 * redirects, a deadline, a bounded answer.
 */
export function createProviderFetch(outbound: Pick<Outbound, 'send'>, timeoutMs = 2_500): OidcFetch {
  return async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    let body: string | undefined;
    if (init.body instanceof URLSearchParams) {
      body = init.body.toString();
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    } else if (typeof init.body === 'string') body = init.body;
    const answer = await outbound.send(String(url), {
      purpose: 'oidc_logout',
      method: init.method === 'POST' ? 'POST' : 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      timeoutMs,
      maxResponseBytes: 16 * 1024,
    });
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.text, { status: answer.status });
  };
}

export interface OidcDeps {
  repo: OidcRepository;
  bus: InvalidationBus;
  settings: OidcSettings;
  fetch: OidcFetch;
  onError: (err: unknown, what: string) => void;
  /**
   * Ends a sign-on session as /cas/logout does (CAS single logout included): what a confirmed
   * RP-initiated logout does to the sign-on session its provider session came from.
   */
  endSso?: (ssoSessionId: string) => Promise<void>;
  /**
   * Writes the login history (modules/sessions): a service account's token for the operators' API
   * (ADR 056) is a sign-in through the CLI door, as is a refused secret of such a client.
   */
  recordLoginEvent?: RecordLoginEvent;
}

interface Entry {
  tenant: OidcTenant;
  provider: Provider;
  callback: (req: IncomingMessage, res: ServerResponse) => unknown;
}

/** What the interaction route does next. */
export type InteractionStep =
  { kind: 'redirect'; url: string } | { kind: 'page'; status: number; html: string } | { kind: 'notFound' };

/**
 * Whether a value from a request (a token, code, client id, user code) can name a row: printable
 * ASCII of a sane length. Anything else names none (PostgreSQL text cannot even hold a NUL).
 */
const lookable = (value: unknown): value is string => typeof value === 'string' && /^[\x21-\x7e]{1,1024}$/.test(value);

const newKid = () => randomBytes(12).toString('base64url');

async function newKey(alg: (typeof SIGNING_ALGS)[number], state: KeyState) {
  const { privateKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'RS256' ? { modulusLength: 2048 } : {}),
  });
  const kid = newKid();
  return { kid, alg, privateJwk: { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' }, state };
}

type Ctx = KoaContextWithOIDC;

export function createOidcService(deps: OidcDeps) {
  const { repo, settings } = deps;
  const providers = new Map<string, Promise<Entry | null>>();
  /** The sign-on session a piece of our own work runs for (outside the provider's requests). */
  const ownSso = new AsyncLocalStorage<string>();
  /** The sign-on session of the rows a provider request has read (its token, code or session). */
  const seen = new WeakMap<object, string>();

  const drop = (tenantId?: number) => {
    for (const [code, p] of providers) {
      void p.then(
        (e) => {
          if (tenantId === undefined || !e || e.tenant.id === tenantId) {
            if (providers.get(code) === p) providers.delete(code);
          }
        },
        () => providers.delete(code),
      );
    }
  };
  deps.bus.subscribe((e) => {
    if (e.kind === 'all') drop();
    else if (e.kind === 'tenant' || e.kind === 'oidc') drop(e.tenant);
  });

  /** The binding of a row about to be stored: its sign-on session, or the provider session to take it from. */
  function bindingOf(model: string, payload: AdapterPayload) {
    if (!BOUND.has(model)) return { ssoSessionId: null, sessionUid: null };
    const own = ownSso.getStore();
    if (own) return { ssoSessionId: own, sessionUid: null };
    const ctx = Provider.ctx as (Ctx & { oidc?: Ctx['oidc'] }) | undefined;
    const result = ctx?.oidc?.result as { sso?: { sessionId?: unknown } } | undefined;
    const fromResult = typeof result?.sso?.sessionId === 'string' ? result.sso.sessionId : null;
    const sessionUid =
      (typeof payload.sessionUid === 'string' && payload.sessionUid) ||
      (model === 'Session' && typeof payload.uid === 'string' && payload.uid) ||
      (model === 'Grant' && ctx?.oidc?.session?.uid) ||
      null;
    return { ssoSessionId: fromResult ?? (ctx ? (seen.get(ctx) ?? null) : null), sessionUid };
  }

  function adapterFor(tenant: OidcTenant) {
    return class PgAdapter implements Adapter {
      constructor(readonly name: string) {}

      async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
        await repo.upsert(
          tenant.id,
          this.name,
          id,
          payload as Record<string, unknown>,
          expiresIn,
          bindingOf(this.name, payload),
        );
      }

      private remember(
        row: { payload: Record<string, unknown>; consumed: boolean; ssoSessionId: string | null } | undefined,
      ) {
        if (!row) return undefined;
        const ctx = Provider.ctx;
        if (ctx && row.ssoSessionId && !seen.has(ctx)) seen.set(ctx, row.ssoSessionId);
        return { ...row.payload, ...(row.consumed ? { consumed: true } : {}) } as AdapterPayload;
      }

      async find(id: string) {
        if (!lookable(id)) return undefined;
        if (this.name === 'Client') return clientMetadata(tenant, id);
        return this.remember(await repo.find(tenant.id, this.name, id));
      }

      async findByUserCode(userCode: string) {
        if (!lookable(userCode)) return undefined;
        return this.remember(await repo.findBy(tenant.id, this.name, 'user_code', userCode));
      }

      async findByUid(uid: string) {
        if (!lookable(uid)) return undefined;
        return this.remember(await repo.findBy(tenant.id, this.name, 'uid', uid));
      }

      /**
       * Spends a code, refresh token or device code. The provider read it unspent just before; if
       * another request spent it in between (two uses at once), this one is a second use: the
       * grant is revoked, as the provider does for a second use it sees, and the request refused.
       */
      async consume(id: string) {
        if (await repo.consume(tenant.id, this.name, id)) return;
        const grantId = await repo.grantOf(tenant.id, this.name, id);
        if (grantId) await repo.revokeByGrantId(tenant.id, grantId);
        throw new errors.InvalidGrant(`${this.name} already used`);
      }

      async destroy(id: string) {
        await repo.destroy(tenant.id, this.name, id);
      }

      async revokeByGrantId(grantId: string) {
        await repo.revokeByGrantId(tenant.id, grantId);
      }
    };
  }

  /** A registered client as the provider reads it; a disabled or another tenant's client is none. */
  async function clientMetadata(tenant: OidcTenant, clientId: string): Promise<AdapterPayload | undefined> {
    const c = await repo.client(tenant.id, clientId);
    if (!c) return undefined;
    const code = c.grantTypes.includes('authorization_code');
    return {
      client_id: c.clientId,
      client_name: c.name,
      // Only the secret's SHA-256 is kept: compareClientSecret below hashes what the client sends.
      ...(c.confidential && c.secretHash
        ? { client_secret: c.secretHash, token_endpoint_auth_method: 'client_secret_basic' }
        : { token_endpoint_auth_method: 'none' }),
      grant_types: c.grantTypes,
      response_types: code ? ['code'] : [],
      redirect_uris: code ? c.redirectUris : [],
      post_logout_redirect_uris: c.postLogoutRedirectUris,
      ...(c.backchannelLogoutUri
        ? { backchannel_logout_uri: c.backchannelLogoutUri, backchannel_logout_session_required: true }
        : {}),
      scope: [
        ...c.scopes.filter((s) => (OIDC_SCOPES as readonly string[]).includes(s)),
        ...(c.serviceAccount && c.confidential && c.grantTypes.includes('client_credentials')
          ? [SERVICE_ACCOUNT_SCOPE]
          : []),
      ].join(' '),
      id_token_signed_response_alg: c.idTokenAlg === 'RS256' ? 'RS256' : 'ES256',
      // Every ID token says when the user signed in (the sign-on session's start).
      require_auth_time: true,
      first_party: c.firstParty,
    } as unknown as AdapterPayload;
  }

  /** A client's name in the page's language (its English translation when it has one). */
  async function clientName(tenant: OidcTenant, clientId: string, lang: Lang): Promise<string> {
    const c = await repo.client(tenant.id, clientId);
    return c ? localized(lang, c, 'name') : clientId;
  }

  /** The tenant's keys, generated (ES256 and RS256) under the tenant's lock when it has none. */
  async function keysOf(tenantId: number): Promise<KeyRow[]> {
    let keys = await repo.keys(tenantId);
    const missing = SIGNING_ALGS.filter((alg) => !keys.some((k) => k.alg === alg && k.state === 'active'));
    if (missing.length > 0) {
      await repo.changeKeys(tenantId, async (current) => ({
        add: await Promise.all(
          SIGNING_ALGS.filter((alg) => !current.some((k) => k.alg === alg && k.state === 'active')).map((alg) =>
            newKey(alg, 'active'),
          ),
        ),
        activate: [],
        retire: [],
        remove: [],
      }));
      keys = await repo.keys(tenantId);
    }
    return keys;
  }

  const langOf = (ctx: Ctx): Lang => {
    let uiLocales: unknown;
    try {
      uiLocales = ctx.oidc?.params?.ui_locales;
    } catch {
      uiLocales = undefined;
    }
    return pageLang(uiLocales, ctx.get('accept-language'));
  };
  const html = (ctx: Ctx, body: string) => {
    ctx.type = 'html';
    ctx.body = body;
  };

  async function build(tenant: OidcTenant): Promise<Entry> {
    const keys = await keysOf(tenant.id);
    const issuer = `${settings.publicUrl}/oidc/${tenant.code}`;
    const configuration: Configuration = {
      adapter: adapterFor(tenant),
      async findAccount(_ctx, sub) {
        const a = await repo.account(tenant.id, sub);
        if (!a) return undefined;
        return {
          accountId: a.subject,
          async claims() {
            const proven = a.mobile !== null && a.mobile === a.verifiedMobile;
            return {
              sub: a.subject,
              tenant: tenant.code,
              preferred_username: a.username,
              name: a.name,
              ...(a.translations.en?.name ? { 'name#en': a.translations.en.name } : {}),
              ...(a.mobile ? { phone_number: a.mobile, phone_number_verified: proven } : {}),
              roles: a.roles,
              ...(a.enterprise ? { enterprise: a.enterprise } : {}),
            };
          },
        };
      },
      claims: OIDC_CLAIMS,
      // acr_values_supported in discovery; the ID token's acr is the sign-in's level (./acr.ts).
      acrValues: [...ACR_VALUES],
      scopes: [...OIDC_SCOPES, SERVICE_ACCOUNT_SCOPE],
      jwks: { keys: keys.map((k) => ({ ...k.privateJwk, kid: k.kid, alg: k.alg, use: 'sig' })) as never },
      cookies: {
        keys: settings.cookieKeys,
        long: { httpOnly: true, sameSite: 'lax', secure: settings.secureCookies },
        short: { httpOnly: true, sameSite: 'lax', secure: settings.secureCookies },
      },
      responseTypes: ['code'],
      allowOmittingSingleRegisteredRedirectUri: false,
      clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
      enabledJWA: {
        idTokenSigningAlgValues: [...SIGNING_ALGS],
        userinfoSigningAlgValues: [...SIGNING_ALGS],
        introspectionSigningAlgValues: [...SIGNING_ALGS],
        authorizationSigningAlgValues: [...SIGNING_ALGS],
        requestObjectSigningAlgValues: [...SIGNING_ALGS],
        clientAuthSigningAlgValues: [...SIGNING_ALGS],
      },
      extraClientMetadata: {
        properties: ['first_party'],
        validator(_ctx, key, value) {
          if (key === 'first_party' && value !== undefined && typeof value !== 'boolean') {
            throw new Error('first_party must be a boolean');
          }
        },
      },
      pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
      rotateRefreshToken: true,
      // Refresh tokens for clients allowed them, bound to the sign-on session (no offline_access).
      issueRefreshToken: async (_ctx, client, code) =>
        client.grantTypeAllowed('refresh_token') && code.scopes.has('openid'),
      expiresWithSession: async () => true,
      ttl: { ...OIDC_TTL },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        // The claims request parameter: how a client asks for an acr as essential (id_token.acr).
        claimsParameter: { enabled: true },
        // Only the client a token was issued to may introspect or revoke it (the library's defaults
        // let any confidential client of the tenant read another's tokens, and ask to be changed).
        introspection: {
          enabled: true,
          allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
        },
        revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
        backchannelLogout: { enabled: true },
        deviceFlow: {
          enabled: true,
          charset: 'base-20',
          mask: '****-****',
          async userCodeInputSource(ctx, form, _out, err) {
            const e = err as { userCode?: unknown; name?: string } | undefined;
            const problem = !e
              ? null
              : e.userCode || e.name === 'NoCodeError'
                ? 'wrong'
                : e.name === 'AbortedError'
                  ? 'aborted'
                  : 'failed';
            html(ctx, deviceInputPage(langOf(ctx), form, problem));
          },
          async userCodeConfirmSource(ctx, form, client, _info, userCode) {
            const lang = langOf(ctx);
            html(ctx, deviceConfirmPage(lang, form, await clientName(tenant, client.clientId, lang), userCode));
          },
          async successSource(ctx) {
            html(ctx, deviceDonePage(langOf(ctx)));
          },
        },
        rpInitiatedLogout: {
          enabled: true,
          async logoutSource(ctx, form) {
            html(ctx, logoutPage(langOf(ctx), form));
          },
          async postLogoutSuccessSource(ctx) {
            html(ctx, loggedOutPage(langOf(ctx)));
          },
        },
      },
      async renderError(ctx, out) {
        html(ctx, errorPage(langOf(ctx), out));
      },
      interactions: { url: async (_ctx, interaction) => interactionPath(tenant.code, interaction.uid) },
      async loadExistingGrant(ctx) {
        const { oidc } = ctx;
        const client = oidc.client!;
        const session = oidc.session!;
        const grantId =
          (oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
        const firstParty = (client.metadata() as Record<string, unknown>).first_party === true;
        let grant = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
        if (grant && grant.accountId !== session.accountId) grant = undefined;
        if (!firstParty || !session.accountId) return grant;
        // A first-party client gets what it asks for (within its registered scopes) without consent.
        grant ??= new oidc.provider.Grant({ accountId: session.accountId, clientId: client.clientId });
        const asked = [...oidc.requestParamOIDCScopes].filter((s) => client.scope?.split(' ').includes(s));
        const missing = asked.filter((s) => !grant.getOIDCScope().split(' ').includes(s));
        if (missing.length > 0 || !grant.jti) {
          grant.addOIDCScope(asked.join(' '));
          const claims = oidc.requestParamClaims ? [...oidc.requestParamClaims] : [];
          if (claims.length > 0) grant.addOIDCClaims(claims);
          await grant.save();
        }
        return grant;
      },
      fetch: deps.fetch as Configuration['fetch'],
    };
    const provider = new Provider(issuer, configuration);
    // The routes hand it the issuer's scheme and host and the client's address as forwarded
    // headers, whatever the request carried (TRUST_PROXY is applied by Fastify, before): the
    // provider's addresses are always the issuer's.
    provider.proxy = true;
    // Only the secret's SHA-256 is stored: hash what the client sent and compare in constant time.
    provider.Client.prototype.compareClientSecret = function compare(this: { clientSecret?: string }, actual: string) {
      const stored = Buffer.from(this.clientSecret ?? '', 'utf8');
      const given = Buffer.from(sha256Hex(actual), 'utf8');
      return Promise.resolve(stored.length === given.length && timingSafeEqual(stored, given));
    } as never;
    // What escapes the provider's own error handling (its device page's handler fails on a POST
    // that no GET of the page began: no form state) is our page, not Koa's plain 500: a 400 for
    // the device pages, where a request without the page's state is the browser's mistake.
    provider.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        const route = (ctx as Partial<Ctx>).oidc?.route;
        const userInput = route === 'code_verification' || route === 'device_resume';
        if (!userInput) deps.onError(err, 'oidc request failed');
        ctx.status = userInput ? 400 : 500;
        html(ctx as Ctx, errorPage(langOf(ctx as Ctx), { error: userInput ? 'invalid_request' : 'server_error' }));
      }
    });
    // A confirmed RP-initiated logout ends the sign-on session too (and with it CAS single logout
    // and every other client's tokens): one session, one logout.
    provider.use(async (ctx, next) => {
      await next();
      const oidc = (ctx as Partial<Ctx>).oidc;
      if (oidc?.route !== 'end_session_confirm' || !(oidc.session as { destroyed?: boolean } | undefined)?.destroyed)
        return;
      const ssoSessionId = seen.get(ctx);
      if (ssoSessionId && deps.endSso) {
        await deps
          .endSso(ssoSessionId)
          .catch((err: unknown) => deps.onError(err, 'oidc logout of the sign-on session'));
      }
    });
    // A service account's token, or a refused secret of a service account (ADR 056): its login history.
    const serviceGrant = (ctx: Ctx, outcome: 'succeeded' | 'wrong_password') => {
      const o = ctx.oidc;
      const scope = typeof o.params?.scope === 'string' ? o.params.scope.split(' ') : [];
      if (o.params?.grant_type !== 'client_credentials' || !o.client || !scope.includes(SERVICE_ACCOUNT_SCOPE)) return;
      void deps.recordLoginEvent?.({
        tenantId: tenant.id,
        userId: null,
        username: o.client.clientId,
        outcome,
        via: 'cli',
        ip: ctx.ip,
        userAgent: ctx.get('user-agent') || null,
      });
    };
    provider.on('grant.success', (ctx) => serviceGrant(ctx, 'succeeded'));
    provider.on('grant.error', (ctx, err) => {
      if ((err as { error?: string }).error === 'invalid_client') serviceGrant(ctx, 'wrong_password');
    });
    provider.on('server_error', (_ctx, err) => deps.onError(err, 'oidc server_error'));
    provider.on('backchannel.error', (_ctx, err) => deps.onError(err, 'oidc back-channel logout'));
    return { tenant, provider, callback: provider.callback() as Entry['callback'] };
  }

  /** The tenant's provider; null for an unknown or disabled tenant (nothing is created then). */
  async function providerFor(code: string): Promise<Entry | null> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return null;
    let p = providers.get(code);
    if (!p) {
      p = (async () => {
        const tenant = await repo.tenantByCode(code);
        if (!tenant || tenant.disabled) return null;
        return build(tenant);
      })();
      providers.set(code, p);
      p.then(
        (e) => {
          if (!e && providers.get(code) === p) providers.delete(code);
        },
        () => {
          if (providers.get(code) === p) providers.delete(code);
        },
      );
    }
    return p;
  }

  type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

  async function details(
    entry: Entry,
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
  ): Promise<Details | null> {
    try {
      const d = await entry.provider.interactionDetails(req, res);
      return d.uid === uid ? d : null;
    } catch {
      return null;
    }
  }

  /**
   * The authorization request of an interaction whose provider session is gone (its sign-on session
   * ended meanwhile: a new sign-in in this browser replaced it, which prompt=login and max_age ask
   * for), asked again from the start, so that it continues on the sign-on session the browser has
   * now. Only for the browser that began it (the interaction's signed cookie), only for the
   * authorization endpoint; `prompt=login` is left out once the user signed in after the request.
   */
  async function restart(
    entry: Entry,
    req: IncomingMessage,
    res: ServerResponse,
    uid: string,
    sso: LiveSsoSession | null,
  ): Promise<string | null> {
    const cookies = entry.provider.createContext(req, res).cookies;
    if (cookies.get(entry.provider.cookieName('interaction'), { signed: true }) !== uid) return null;
    const i = await entry.provider.Interaction.find(uid);
    if (!i || !i.returnTo.startsWith(`${entry.provider.issuer}/auth/`)) return null;
    const params = Object.fromEntries(
      Object.entries(i.params).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    if (sso && i.iat !== undefined && sso.createdAt.getTime() / 1000 >= i.iat - 1 && params.prompt) {
      const rest = params.prompt.split(' ').filter((p) => p !== 'login');
      if (rest.length > 0) params.prompt = rest.join(' ');
      else delete params.prompt;
    }
    await i.destroy();
    return `${entry.provider.issuer}/auth?${new URLSearchParams(params)}`;
  }

  const failedPage = (lang: Lang, error: string): InteractionStep => ({
    kind: 'page',
    status: 400,
    html: errorPage(lang, { error }),
  });

  /**
   * Where an interaction goes with the browser's sign-on session (`ssoCookie`, CASTGC): on with it
   * when it is live, of this tenant, and fresh enough for the request (prompt=login, max_age);
   * otherwise to the sign-on page, which comes back here. A third-party client's consent is a page.
   */
  async function interaction(
    code: string,
    uid: string,
    http: { req: IncomingMessage; res: ServerResponse; ssoCookie: string | undefined; lang: Lang },
  ): Promise<InteractionStep> {
    const entry = await providerFor(code);
    if (!entry) return { kind: 'notFound' };
    const sso = http.ssoCookie ? await repo.liveSsoSession(sha256Hex(http.ssoCookie), settings.ssoIdleSeconds) : null;
    const mine = sso && sso.tenantId === entry.tenant.id ? sso : null;
    const d = await details(entry, http.req, http.res, uid);
    if (!d) {
      const again = await restart(entry, http.req, http.res, uid, mine);
      return again ? { kind: 'redirect', url: again } : failedPage(http.lang, 'interaction_expired');
    }
    const lang = pageLang(d.params.ui_locales, http.req.headers['accept-language']);
    const signIn = (): InteractionStep => {
      const back = `${settings.publicUrl}${interactionPath(code, uid)}`;
      const q = new URLSearchParams({ tenantCode: code, service: back, ...(lang === 'en' ? { language: 'eng' } : {}) });
      return { kind: 'redirect', url: `/cas/login?${q}` };
    };
    if (!mine) return signIn();
    const subject = await repo.subjectOf(mine.userId);
    if (!subject) return signIn();
    const loginTs = Math.floor(mine.createdAt.getTime() / 1000);

    if (d.prompt.name === 'login') {
      const reasons = d.prompt.reasons;
      // prompt=login: only a sign-in made after this request began will do.
      if (reasons.includes('login_prompt') && loginTs < (d.iat ?? 0)) return signIn();
      const maxAge = Number(d.params.max_age);
      if (Number.isFinite(maxAge) && Math.floor(Date.now() / 1000) - loginTs > maxAge) return signIn();
      // An essential acr the session does not reach: a new sign-in (with its factor step) if the
      // session began before the request; if even that one does not reach it, the client hears
      // so (OpenID Connect Core 5.5.1.1: a failed authentication), never a loop.
      const asked = askedAcrs(d.params);
      if (asked.essential && !meets(mine.methods, asked.values)) {
        if (loginTs < (d.iat ?? 0)) return signIn();
        const url = await entry.provider.interactionResult(
          http.req,
          http.res,
          {
            error: 'unmet_authentication_requirements',
            error_description: 'the sign-in did not reach the authentication level the client requires',
          },
          { mergeWithLastSubmission: false },
        );
        return { kind: 'redirect', url };
      }
      const url = await ownSso.run(mine.id, () =>
        entry.provider.interactionResult(
          http.req,
          http.res,
          // amr: what the sign-on session proved (a second factor adds otp/hwk/sms and mfa); acr:
          // the level it reaches, named as the client asked when it reaches it.
          {
            login: {
              accountId: subject,
              ts: loginTs,
              amr: mine.methods,
              acr: acrFor(mine.methods, asked.values),
              remember: true,
            },
            sso: { sessionId: mine.id },
          },
          { mergeWithLastSubmission: false },
        ),
      );
      return { kind: 'redirect', url };
    }
    if (d.prompt.name === 'consent') {
      if (d.session?.accountId !== subject) return signIn();
      const name = await clientName(entry.tenant, String(d.params.client_id), lang);
      const missing = (d.prompt.details.missingOIDCScope as string[] | undefined) ?? [];
      return {
        kind: 'page',
        status: 200,
        html: consentPage(lang, {
          action: interactionPath(code, uid),
          client: name,
          tenant: localized(lang, entry.tenant, 'name'),
          scopes: missing,
        }),
      };
    }
    return failedPage(lang, 'interaction_required');
  }

  /** The person's answer to the consent question. */
  async function consent(
    code: string,
    uid: string,
    allow: boolean,
    http: { req: IncomingMessage; res: ServerResponse; ssoCookie: string | undefined; lang: Lang },
  ): Promise<InteractionStep> {
    const entry = await providerFor(code);
    if (!entry) return { kind: 'notFound' };
    const d = await details(entry, http.req, http.res, uid);
    if (!d || d.prompt.name !== 'consent') return failedPage(http.lang, 'interaction_expired');
    const sso = http.ssoCookie ? await repo.liveSsoSession(sha256Hex(http.ssoCookie), settings.ssoIdleSeconds) : null;
    const subject = sso && sso.tenantId === entry.tenant.id ? await repo.subjectOf(sso.userId) : null;
    if (!sso || !subject || d.session?.accountId !== subject) return failedPage(http.lang, 'login_required');
    if (!allow) {
      const url = await entry.provider.interactionResult(
        http.req,
        http.res,
        { error: 'access_denied', error_description: 'the user denied the request' },
        { mergeWithLastSubmission: false },
      );
      return { kind: 'redirect', url };
    }
    const url = await ownSso.run(sso.id, async () => {
      const grant = d.grantId
        ? ((await entry.provider.Grant.find(d.grantId)) ??
          new entry.provider.Grant({ accountId: subject, clientId: String(d.params.client_id) }))
        : new entry.provider.Grant({ accountId: subject, clientId: String(d.params.client_id) });
      const details = d.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
      if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
      const grantId = await grant.save();
      return entry.provider.interactionResult(
        http.req,
        http.res,
        { consent: { grantId }, sso: { sessionId: sso.id } },
        { mergeWithLastSubmission: true },
      );
    });
    return { kind: 'redirect', url };
  }

  /**
   * Ends everything of the provider's that came from a sign-on session, on every tenant's
   * provider: tells each client with a back-channel logout address that signed in through it (a
   * signed logout token), then removes its provider sessions, grants, codes and tokens. The rows
   * are refused already once the sign-on session has ended; this makes the clients hear of it.
   */
  async function endSsoSession(ssoSessionId: string): Promise<void> {
    try {
      await endProviderSessions(ssoSessionId);
    } catch (err) {
      deps.onError(err, 'oidc end of a sign-on session');
    }
  }

  async function endProviderSessions(ssoSessionId: string): Promise<void> {
    await tellClients(await repo.takeSessions(ssoSessionId));
    await repo.deleteOf(ssoSessionId);
  }

  /** Back-channel logout to every client each provider session signed into (errors logged, never thrown). */
  async function tellClients(sessions: { tenantId: number; payload: Record<string, unknown> }[]): Promise<void> {
    for (const { tenantId, payload } of sessions) {
      const code = await repo.tenantCode(tenantId);
      const entry = code ? await providerFor(code) : null;
      const accountId = typeof payload.accountId === 'string' ? payload.accountId : null;
      const authorizations = (payload.authorizations ?? {}) as Record<string, { sid?: string }>;
      if (!entry || !accountId) continue;
      await Promise.all(
        Object.entries(authorizations).map(async ([clientId, { sid }]) => {
          try {
            const client = await entry.provider.Client.find(clientId);
            const c = client as unknown as
              { backchannelLogoutUri?: string; backchannelLogout(sub: string, sid: string): Promise<void> } | undefined;
            if (c?.backchannelLogoutUri) await c.backchannelLogout(accountId, sid ?? '');
          } catch (err) {
            deps.onError(err, 'oidc back-channel logout');
          }
        }),
      );
    }
  }

  /**
   * Housekeeping: the provider sessions of sign-on sessions that ended some other way than a
   * logout (an operator disabled the user or tenant, a password was set, the session expired):
   * their tokens are refused already; this tells the clients and removes the rows. Returns how
   * many sign-on sessions it finished.
   */
  async function sweepEnded(): Promise<number> {
    const taken = await repo.takeSessions(null);
    await tellClients(taken);
    const ended = [...new Set(taken.map((t) => t.ssoSessionId))];
    for (const id of ended) await repo.deleteOf(id);
    return ended.length;
  }

  /**
   * One rotation round for every tenant with keys (housekeeping): an active key older than the
   * rotation period gets a successor published as `next`; a `next` published for a day becomes
   * `active` and the old one `retiring`; a retiring key is deleted a day after it stopped signing.
   * Every instance drops the tenant's provider when its keys changed.
   */
  async function rotateKeys(now = new Date()): Promise<number> {
    const periodMs = settings.keyRotationDays * 24 * 3600_000;
    let changed = 0;
    for (const tenantId of await repo.tenantsWithKeys()) {
      const did = await repo.changeKeys(tenantId, async (keys) => {
        const out = {
          add: [] as Awaited<ReturnType<typeof newKey>>[],
          activate: [] as string[],
          retire: [] as string[],
          remove: [] as string[],
        };
        for (const alg of SIGNING_ALGS) {
          const active = keys.find((k) => k.alg === alg && k.state === 'active');
          const next = keys.find((k) => k.alg === alg && k.state === 'next');
          const since = (d: Date | null, fallback: Date) => now.getTime() - (d ?? fallback).getTime();
          if (next && since(next.createdAt, next.createdAt) >= KEY_PUBLISH_LEAD_MS) {
            out.activate.push(next.kid);
            if (active) out.retire.push(active.kid);
          } else if (!next && active && since(active.activatedAt, active.createdAt) >= periodMs - KEY_PUBLISH_LEAD_MS) {
            out.add.push(await newKey(alg, 'next'));
          }
        }
        for (const k of keys) {
          if (k.state === 'retiring' && now.getTime() - (k.retiredAt ?? k.createdAt).getTime() >= KEY_RETAIN_MS) {
            out.remove.push(k.kid);
          }
        }
        return out;
      });
      if (did) {
        changed++;
        await deps.bus.publish({ kind: 'oidc', tenant: tenantId });
      }
    }
    return changed;
  }

  /**
   * The service account an access token acts as (ADR 056), or null. The token is the provider's
   * own: read by the tenant's provider through its adapter (its signature-free opaque value, its
   * expiry), a client_credentials token carrying the `portal:admin` scope and bound to no key
   * (a DPoP or certificate-bound token is not a Bearer credential); its client must still be
   * enabled, a service account and hold a role of its tenant, read now, at every request.
   */
  async function serviceAccount(token: string): Promise<ServiceAccount | null> {
    if (!lookable(token)) return null;
    const code = await repo.clientCredentialsTenant(token);
    const entry = code ? await providerFor(code) : null;
    if (!entry) return null;
    const t = await entry.provider.ClientCredentials.find(token);
    if (!t?.clientId || !t.scopes.has(SERVICE_ACCOUNT_SCOPE) || t.isSenderConstrained()) return null;
    const account = await repo.serviceAccount(entry.tenant.id, t.clientId);
    return account ? { ...account, tenantId: entry.tenant.id } : null;
  }

  return {
    providerFor,
    interaction,
    consent,
    endSsoSession,
    sweepEnded,
    rotateKeys,
    isInteractionAddress,
    serviceAccount,
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
