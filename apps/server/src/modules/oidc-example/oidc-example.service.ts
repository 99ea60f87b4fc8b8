/**
 * The demo's OpenID Connect example system (`/oidc-example/`): a park's visitor-service system that
 * knows nothing of the portal but the OpenID Provider of its tenant, `{PUBLIC_URL}/oidc/{tenant}`.
 * It is what a park's own server-side application would be (ADR 050): a confidential client using a
 * certified relying-party library (openid-client) for discovery, the code flow with PKCE, the token
 * and UserInfo requests and RP-initiated logout, and jose to verify back-channel logout tokens
 * against the provider's published keys. Its session is its own (a cookie naming a row); the
 * provider's back-channel logout ends it when the sign-on session ends.
 */
import { randomBytes } from 'node:crypto';
import { createRemoteJWKSet, customFetch as joseFetch, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { sha256Hex as hash } from '../../platform/hash.js';
import type { Outbound } from '../../platform/outbound.js';
import type { OidcExampleRepository, OidcExampleSession } from './oidc-example.repository.js';

export const OIDC_EXAMPLE_PATH = '/oidc-example/';

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A sign-in under way lasts this long (the provider's own interaction is shorter still). */
const PENDING_SECONDS = 10 * 60;

export interface OidcExampleDeps {
  repo: OidcExampleRepository;
  /** The provider's issuer (`{PUBLIC_URL}/oidc/{tenant}`), this client's id and secret. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** This system's addresses, as registered with the provider. */
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** Requests to the provider go through the server's one outbound client. */
  fetch: client.CustomFetch;
  sessionTtlSeconds: number;
  scope: string;
}

/**
 * A `fetch` for openid-client and jose over the server's one outbound client (ADR 034). The
 * provider's address is the installation's own (PUBLIC_URL), so the address rule does not judge it.
 */
export function outboundFetch(outbound: Pick<Outbound, 'send'>, timeoutMs = 5_000): client.CustomFetch {
  return async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body =
      init.body instanceof URLSearchParams
        ? init.body.toString()
        : typeof init.body === 'string'
          ? init.body
          : undefined;
    if (init.body instanceof URLSearchParams) headers['content-type'] ??= 'application/x-www-form-urlencoded';
    const answer = await outbound.send(url, {
      purpose: 'oidc_client',
      method: init.method === 'POST' ? 'POST' : 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      timeoutMs,
      maxResponseBytes: 64 * 1024,
      installation: true,
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(answer.headers)) {
      if (v === undefined || ['content-length', 'content-encoding', 'transfer-encoding'].includes(k)) continue;
      out.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.text, { status: answer.status, headers: out });
  };
}

/** A sign-in the provider refused or that does not match the one this browser began. */
export class SignInRefused extends Error {}

export function createOidcExampleService(deps: OidcExampleDeps) {
  const insecure = deps.issuer.startsWith('http:');
  const options: client.DiscoveryRequestOptions = {
    [client.customFetch]: deps.fetch,
    ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
  };
  // Discovery once; again after a failure (the provider may have been starting).
  let discovered: Promise<client.Configuration> | null = null;
  const config = () => {
    discovered ??= client
      .discovery(
        new URL(deps.issuer),
        deps.clientId,
        deps.clientSecret,
        client.ClientSecretBasic(deps.clientSecret),
        options,
      )
      .then((c) => {
        c[client.customFetch] = deps.fetch;
        return c;
      })
      .catch((err: unknown) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };
  let keys: ReturnType<typeof createRemoteJWKSet> | null = null;
  const jwks = async () => {
    if (keys) return keys;
    const jwksUri = (await config()).serverMetadata().jwks_uri;
    if (!jwksUri) throw new Error('the provider publishes no jwks_uri');
    keys = createRemoteJWKSet(new URL(jwksUri), {
      [joseFetch]: (url, init) =>
        deps.fetch(url, { ...init, headers: Object.fromEntries(init.headers.entries()), body: undefined }),
    });
    return keys;
  };

  return {
    /** A new sign-in: its cookie value and the provider's authorization address to send the browser to. */
    async begin(lang: 'zh' | 'en'): Promise<{ cookie: string; url: string }> {
      const c = await config();
      const pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(c, {
        redirect_uri: deps.redirectUri,
        scope: deps.scope,
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
        ui_locales: lang === 'en' ? 'en' : 'zh-CN',
      });
      const cookie = randomBytes(32).toString('hex');
      await deps.repo.begin(hash(cookie), pending, PENDING_SECONDS);
      return { cookie, url: url.href };
    },

    /**
     * The provider's answer at the callback (`query`: its query string): the code is exchanged, the
     * ID token checked (issuer, audience, nonce, signature), UserInfo read; a new session's cookie.
     * SignInRefused when the answer is an error or is not for the sign-in this cookie began.
     */
    async finish(pendingCookie: string | undefined, query: string): Promise<string> {
      const pending = pendingCookie ? await deps.repo.takePending(hash(pendingCookie)) : null;
      if (!pending) throw new SignInRefused('no sign-in under way');
      const c = await config();
      const current = new URL(deps.redirectUri);
      current.search = query;
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(c, current, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        if (err instanceof client.AuthorizationResponseError || err instanceof client.ResponseBodyError) {
          throw new SignInRefused(err.error);
        }
        if (err instanceof Error && 'code' in err && String(err.code).startsWith('OAUTH_')) {
          throw new SignInRefused(String(err.code));
        }
        throw err;
      }
      const idClaims = tokens.claims()!;
      const info = await client.fetchUserInfo(c, tokens.access_token, idClaims.sub);
      const cookie = randomBytes(32).toString('hex');
      await deps.repo.open({
        idHash: hash(cookie),
        sid: typeof idClaims.sid === 'string' ? idClaims.sid : null,
        idToken: tokens.id_token!,
        claims: { ...idClaims, ...info },
        ttlSeconds: deps.sessionTtlSeconds,
      });
      return cookie;
    },

    session: (cookie: string): Promise<OidcExampleSession | null> => deps.repo.find(hash(cookie)),

    /**
     * Signing out here: the session ends, and the address of the provider's end-session endpoint
     * (RP-initiated logout, with the ID token as hint) to send the browser to; null without a session.
     */
    async signOut(cookie: string | undefined): Promise<string | null> {
      const idToken = cookie ? await deps.repo.end(hash(cookie)) : null;
      if (!idToken) return null;
      return client.buildEndSessionUrl(await config(), {
        id_token_hint: idToken,
        post_logout_redirect_uri: deps.postLogoutRedirectUri,
      }).href;
    },

    /**
     * The provider's back-channel logout: a logout token signed with one of its published keys, for
     * this client, with the back-channel event, a sid, an iat and no nonce. The sessions of that
     * sid end. False when the token is not such a token.
     */
    async backchannelLogout(logoutToken: string): Promise<boolean> {
      let payload;
      try {
        ({ payload } = await jwtVerify(logoutToken, await jwks(), {
          issuer: deps.issuer,
          audience: deps.clientId,
          requiredClaims: ['iat', 'sid', 'events'],
          algorithms: ['ES256', 'RS256'],
          maxTokenAge: '5 minutes',
        }));
      } catch {
        return false;
      }
      const events = payload.events;
      if (!events || typeof events !== 'object' || !(BACKCHANNEL_EVENT in events)) return false;
      if ('nonce' in payload || typeof payload.sid !== 'string') return false;
      await deps.repo.endBySid(payload.sid);
      return true;
    },
  };
}

export type OidcExampleService = ReturnType<typeof createOidcExampleService>;
