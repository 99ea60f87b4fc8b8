/**
 * The OpenID Connect clients a tenant's operators register (the console's OIDC 客户端, the CLI's
 * `oidc-clients`, `/api/admin/oidc-clients`): the schemas, the fixed lists and the rule a client's
 * settings must meet as a whole (`oidcClientProblems`), which the server applies and the console's
 * form shows before sending. The provider (modules/oidc) reads the rows as they are kept.
 */
import { Type, type Static } from 'typebox';

export const OIDC_GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;
export type OidcGrantType = (typeof OIDC_GRANT_TYPES)[number];
/** The grants a person signs in through (the client acts for a user): they need the `openid` scope. */
export const OIDC_USER_GRANTS: readonly OidcGrantType[] = [
  'authorization_code',
  'urn:ietf:params:oauth:grant-type:device_code',
];
export const OIDC_SCOPES = ['openid', 'profile', 'phone', 'roles', 'enterprise'] as const;
export type OidcScope = (typeof OIDC_SCOPES)[number];
/**
 * The scope a service account asks with client_credentials for an access token the operators' API
 * accepts as a Bearer credential (ADR 056). Only service-account clients may ask for it.
 */
export const PORTAL_ADMIN_SCOPE = 'portal:admin';
export const OIDC_ID_TOKEN_ALGS = ['ES256', 'RS256'] as const;
export type OidcIdTokenAlg = (typeof OIDC_ID_TOKEN_ALGS)[number];
/** At most this many redirect addresses of each kind per client. */
export const OIDC_URIS_MAX = 20;
export const OIDC_URI_LENGTH_MAX = 1024;
export const OIDC_CLIENT_NAME_MAX = 100;

const Uri = Type.String({ maxLength: OIDC_URI_LENGTH_MAX, examples: ['https://app.example.com/callback'] });
/** Bounded above the rule's 20 so that more is refused with the rule's own message. */
const Uris = Type.Array(Uri, { maxItems: 100 });

/** A client as the console lists it: never its secret, only whether and when one was set. */
export const AdminOidcClient = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  name: Type.String(),
  nameEn: Type.String(),
  confidential: Type.Boolean(),
  grantTypes: Type.Array(Type.String()),
  redirectUris: Type.Array(Type.String()),
  postLogoutRedirectUris: Type.Array(Type.String()),
  backchannelLogoutUri: Type.Union([Type.Null(), Type.String()]),
  scopes: Type.Array(Type.String()),
  firstParty: Type.Boolean(),
  idTokenAlg: Type.String(),
  /** A service account (ADR 056): its client_credentials tokens act on the operators' API in `serviceRoleId`. */
  serviceAccount: Type.Boolean(),
  /** The role of the tenant a service account acts in (null: none, the account can do nothing). */
  serviceRoleId: Type.Union([Type.Null(), Type.String()]),
  enabled: Type.Boolean(),
  /** `YYYY-MM-DD HH:mm:ss` China time; null for a public client. */
  secretSetAt: Type.Union([Type.Null(), Type.String()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type AdminOidcClient = Static<typeof AdminOidcClient>;

const Fields = {
  name: Type.String({ minLength: 1, maxLength: OIDC_CLIENT_NAME_MAX }),
  /** Empty or absent: the Chinese name is shown in English too. */
  nameEn: Type.Optional(Type.String({ maxLength: OIDC_CLIENT_NAME_MAX })),
  grantTypes: Type.Array(Type.Enum([...OIDC_GRANT_TYPES]), { minItems: 1, maxItems: 10 }),
  redirectUris: Type.Optional(Uris),
  postLogoutRedirectUris: Type.Optional(Uris),
  backchannelLogoutUri: Type.Optional(Type.Union([Type.Null(), Uri])),
  scopes: Type.Array(Type.Enum([...OIDC_SCOPES]), { maxItems: 10 }),
  /** First-party: the portal's own systems, signed into without a consent screen. */
  firstParty: Type.Optional(Type.Boolean()),
  idTokenAlg: Type.Optional(Type.Enum([...OIDC_ID_TOKEN_ALGS])),
  /** Marks a confidential client_credentials client as a service account (ADR 056). */
  serviceAccount: Type.Optional(Type.Boolean()),
  /** The role of the tenant the service account acts in (its id). */
  serviceRoleId: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 20 })])),
};

/** A new client. Whether it is confidential (has a secret) is chosen here and never changes. */
export const OidcClientInput = Type.Object({ ...Fields, confidential: Type.Boolean() });
export type OidcClientInput = Static<typeof OidcClientInput>;
/** A change: the fields given replace the kept ones; the rule is checked on the result. */
export const OidcClientPatch = Type.Partial(Type.Object(Fields));
export type OidcClientPatch = Static<typeof OidcClientPatch>;

/** A created client: its id and client_id, and for a confidential client its secret, shown this once. */
export const OidcClientCreated = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  secret: Type.Union([Type.Null(), Type.String()]),
});
export type OidcClientCreated = Static<typeof OidcClientCreated>;
/** A new secret, shown this once; the one before it stops working at once. */
export const OidcClientSecret = Type.Object({ id: Type.String(), clientId: Type.String(), secret: Type.String() });
export type OidcClientSecret = Static<typeof OidcClientSecret>;

/** What a client's settings can get wrong as a whole (each has its message in the server and the console). */
export type OidcClientProblem =
  /** client_credentials for a public client: it has no secret to prove itself with. */
  | 'clientCredentialsPublic'
  /** refresh_token without authorization_code or device_code: nothing would issue the first token. */
  | 'refreshAlone'
  /** authorization_code without a redirect address. */
  | 'redirectRequired'
  /** More than OIDC_URIS_MAX addresses of a kind. */
  | 'tooManyUris'
  /** A person signs in through the client (authorization_code, device_code) but `openid` is not among its scopes. */
  | 'openidRequired'
  /** A service account without client_credentials (or without a secret). */
  | 'serviceAccountGrant'
  /** A service account without a role to act in. */
  | 'serviceAccountRole';

/** The settings the rule reads: a client as it would be kept. */
export interface OidcClientSettings {
  confidential: boolean;
  grantTypes: readonly string[];
  redirectUris: readonly string[];
  postLogoutRedirectUris: readonly string[];
  scopes: readonly string[];
  serviceAccount?: boolean | undefined;
  serviceRoleId?: string | null | undefined;
}

/** What is wrong with a client's settings as a whole, the first problem found, or null. */
export function oidcClientProblem(c: OidcClientSettings): OidcClientProblem | null {
  const has = (g: OidcGrantType) => c.grantTypes.includes(g);
  if (!c.confidential && has('client_credentials')) return 'clientCredentialsPublic';
  const userGrant = OIDC_USER_GRANTS.some(has);
  if (has('refresh_token') && !userGrant) return 'refreshAlone';
  if (c.redirectUris.length > OIDC_URIS_MAX || c.postLogoutRedirectUris.length > OIDC_URIS_MAX) return 'tooManyUris';
  if (has('authorization_code') && c.redirectUris.length === 0) return 'redirectRequired';
  if (userGrant && !c.scopes.includes('openid')) return 'openidRequired';
  if (c.serviceAccount && (!c.confidential || !has('client_credentials'))) return 'serviceAccountGrant';
  if (c.serviceAccount && !c.serviceRoleId) return 'serviceAccountRole';
  return null;
}

/**
 * Whether a redirect address has the shape the rule asks: an absolute http(s) URL with a host, no
 * user or password in it, no fragment, no `*` (addresses are compared as exact strings, so a
 * wildcard would match nothing and only mislead), no white space. The server also applies the
 * sign-on registry's stricter reading (no encoded dots or slashes, the path as a browser sends it).
 */
export function isRedirectUri(raw: string): boolean {
  if (!raw || raw.length > OIDC_URI_LENGTH_MAX || /[\s*#\\]/.test(raw)) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname && !url.username && !url.password;
}
