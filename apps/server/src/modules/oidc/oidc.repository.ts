/**
 * The OpenID Provider's state in PostgreSQL, every row scoped to its tenant: what the provider
 * keeps (oidc_payloads), the tenant's registered clients (oidc_clients), its signing keys
 * (oidc_keys), and the reads the bridge to the sign-on session and the claims need.
 *
 * A payload bound to a sign-on session (sso_session_id) is never returned once that session has
 * ended or expired: every path that ends a sign-on session (logout, a disabled user or tenant, a
 * password set by someone else) so ends the grants and tokens that came from it, on every instance.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { keyedLock } from '../../db/locks.js';
import type { Translations } from '../../db/schema.js';

export interface OidcTenant {
  id: number;
  code: string;
  name: string;
  translations: Translations<{ name: string }>;
  disabled: boolean;
}

export interface StoredPayload {
  payload: Record<string, unknown>;
  consumed: boolean;
  ssoSessionId: string | null;
}

export interface ClientRow {
  clientId: string;
  name: string;
  translations: Translations<{ name: string }>;
  confidential: boolean;
  secretHash: string | null;
  grantTypes: string[];
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  backchannelLogoutUri: string | null;
  scopes: string[];
  firstParty: boolean;
  idTokenAlg: string;
  serviceAccount: boolean;
}

/** A service account as the operators' API acts for it (ADR 056). */
export interface ServiceAccountRow {
  clientId: string;
  name: string;
  translations: Translations<{ name: string }>;
  roleId: number;
}

export type KeyState = 'next' | 'active' | 'retiring';

export interface KeyRow {
  kid: string;
  alg: 'ES256' | 'RS256';
  privateJwk: Record<string, unknown>;
  state: KeyState;
  createdAt: Date;
  activatedAt: Date | null;
  retiredAt: Date | null;
}

export interface LiveSsoSession {
  id: string;
  tenantId: number;
  userId: number;
  /** When the user signed in (the OpenID login's `auth_time`). */
  createdAt: Date;
  /** What the sign-in proved (the OpenID login's `amr`): pwd, and otp/hwk/sms with mfa after a factor. */
  methods: string[];
}

export interface AccountRow {
  subject: string;
  username: string;
  name: string;
  translations: Translations<{ name: string }>;
  mobile: string | null;
  verifiedMobile: string | null;
  roles: string[];
  /** The enterprise's id and name, with `name#en` where it has an English name. */
  enterprise: { id: string; name: string; 'name#en'?: string } | null;
}

/** A row is live: not expired, and its sign-on session (if any) neither ended nor expired. */
const LIVE = sql`(p.expires_at IS NULL OR p.expires_at > now())
  AND (p.sso_session_id IS NULL OR EXISTS (
    SELECT 1 FROM sso_sessions s WHERE s.id = p.sso_session_id AND s.ended_at IS NULL AND s.expires_at > now()))`;

function stored(row: Record<string, unknown> | undefined): StoredPayload | undefined {
  if (!row) return undefined;
  return {
    payload: row.payload as Record<string, unknown>,
    consumed: row.consumed_at !== null,
    ssoSessionId: (row.sso_session_id as string | null) ?? null,
  };
}

export function createOidcRepository(db: Db) {
  return {
    async tenantByCode(code: string): Promise<OidcTenant | null> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT id::int4 AS id, code, name, translations, disabled_at IS NOT NULL AS disabled
        FROM tenants WHERE code = ${code}`);
      const r = rows[0];
      return r
        ? {
            id: Number(r.id),
            code: String(r.code),
            name: String(r.name),
            translations: (r.translations ?? {}) as OidcTenant['translations'],
            disabled: Boolean(r.disabled),
          }
        : null;
    },

    /**
     * Stores a payload. `ssoSessionId` binds it to a sign-on session; without one, a row keeps the
     * binding it had, or takes that of the provider session `sessionUid` names.
     */
    async upsert(
      tenantId: number,
      model: string,
      id: string,
      payload: Record<string, unknown>,
      expiresIn: number | undefined,
      bind: { ssoSessionId: string | null; sessionUid: string | null },
    ): Promise<void> {
      const str = (k: string) => (typeof payload[k] === 'string' ? (payload[k] as string) : null);
      const expires = typeof expiresIn === 'number' ? sql`now() + make_interval(secs => ${expiresIn})` : sql`NULL`;
      await db.execute(sql`
        INSERT INTO oidc_payloads AS p (tenant_id, model, id, payload, grant_id, user_code, uid, sso_session_id, expires_at)
        VALUES (${tenantId}, ${model}, ${id}, ${JSON.stringify(payload)}::jsonb, ${str('grantId')}, ${str('userCode')},
          ${str('uid')},
          coalesce(${bind.ssoSessionId}::uuid, (
            SELECT o.sso_session_id FROM oidc_payloads o
            WHERE o.tenant_id = ${tenantId} AND o.model = 'Session' AND o.uid = ${bind.sessionUid}::text
              AND o.sso_session_id IS NOT NULL LIMIT 1)),
          ${expires})
        ON CONFLICT (tenant_id, model, id) DO UPDATE SET
          payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
          uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at,
          sso_session_id = coalesce(EXCLUDED.sso_session_id, p.sso_session_id)`);
    },

    async find(tenantId: number, model: string, id: string): Promise<StoredPayload | undefined> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT p.payload, p.consumed_at, p.sso_session_id FROM oidc_payloads p
        WHERE p.tenant_id = ${tenantId} AND p.model = ${model} AND p.id = ${id} AND ${LIVE}`);
      return stored(rows[0]);
    },

    async findBy(
      tenantId: number,
      model: string,
      column: 'uid' | 'user_code',
      value: string,
    ): Promise<StoredPayload | undefined> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT p.payload, p.consumed_at, p.sso_session_id FROM oidc_payloads p
        WHERE p.tenant_id = ${tenantId} AND p.model = ${model} AND p.${sql.identifier(column)} = ${value} AND ${LIVE}
        LIMIT 1`);
      return stored(rows[0]);
    },

    /**
     * Marks a payload spent, once: of two requests spending it together, one changes it. Null when
     * it was spent already (or is gone); else its grant's id.
     */
    async consume(tenantId: number, model: string, id: string): Promise<{ grantId: string | null } | null> {
      const { rows } = await db.execute<{ grant_id: string | null }>(sql`
        UPDATE oidc_payloads SET consumed_at = now()
        WHERE tenant_id = ${tenantId} AND model = ${model} AND id = ${id} AND consumed_at IS NULL
        RETURNING grant_id`);
      return rows[0] ? { grantId: rows[0].grant_id } : null;
    },

    /** The grant of a payload, whatever its state. */
    async grantOf(tenantId: number, model: string, id: string): Promise<string | null> {
      const { rows } = await db.execute<{ grant_id: string | null }>(sql`
        SELECT grant_id FROM oidc_payloads WHERE tenant_id = ${tenantId} AND model = ${model} AND id = ${id}`);
      return rows[0]?.grant_id ?? null;
    },

    async destroy(tenantId: number, model: string, id: string): Promise<void> {
      await db.execute(
        sql`DELETE FROM oidc_payloads WHERE tenant_id = ${tenantId} AND model = ${model} AND id = ${id}`,
      );
    },

    /** Everything issued under a grant (its codes and tokens, and the grant itself). */
    async revokeByGrantId(tenantId: number, grantId: string): Promise<void> {
      await db.execute(sql`DELETE FROM oidc_payloads WHERE tenant_id = ${tenantId} AND grant_id = ${grantId}`);
      await db.execute(
        sql`DELETE FROM oidc_payloads WHERE tenant_id = ${tenantId} AND model = 'Grant' AND id = ${grantId}`,
      );
    },

    /** An enabled client of the tenant; a disabled or another tenant's client is none. */
    async client(tenantId: number, clientId: string): Promise<ClientRow | null> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT client_id AS "clientId", name, translations, confidential, secret_hash AS "secretHash",
               grant_types AS "grantTypes", redirect_uris AS "redirectUris",
               post_logout_redirect_uris AS "postLogoutRedirectUris", backchannel_logout_uri AS "backchannelLogoutUri",
               scopes, first_party AS "firstParty", id_token_alg AS "idTokenAlg",
               service_account AS "serviceAccount"
        FROM oidc_clients WHERE tenant_id = ${tenantId} AND client_id = ${clientId} AND enabled`);
      return (rows[0] as ClientRow | undefined) ?? null;
    },

    /** The tenant (its code) whose provider keeps a live client_credentials token of this id. */
    async clientCredentialsTenant(id: string): Promise<string | null> {
      const { rows } = await db.execute<{ code: string }>(sql`
        SELECT t.code FROM oidc_payloads p JOIN tenants t ON t.id = p.tenant_id
        WHERE p.model = 'ClientCredentials' AND p.id = ${id} AND ${LIVE}`);
      return rows[0]?.code ?? null;
    },

    /**
     * An enabled service-account client of the tenant with a role of that tenant: what an access
     * token of it may act as. Null once the client is disabled, deleted or no longer marked.
     */
    async serviceAccount(tenantId: number, clientId: string): Promise<ServiceAccountRow | null> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT c.client_id AS "clientId", c.name, c.translations, c.service_role_id::int8 AS "roleId"
        FROM oidc_clients c JOIN roles r ON r.id = c.service_role_id AND r.tenant_id = c.tenant_id
        WHERE c.tenant_id = ${tenantId} AND c.client_id = ${clientId} AND c.enabled AND c.service_account
          AND c.confidential AND 'client_credentials' = ANY (c.grant_types)`);
      const r = rows[0];
      return r
        ? {
            clientId: String(r.clientId),
            name: String(r.name),
            translations: (r.translations ?? {}) as ServiceAccountRow['translations'],
            roleId: Number(r.roleId),
          }
        : null;
    },

    /** The live sign-on session a cookie hash names (within its lifetime and idle limit), touched. */
    async liveSsoSession(cookieHash: string, idleSeconds: number): Promise<LiveSsoSession | null> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        UPDATE sso_sessions SET last_used_at = now()
        WHERE cookie_hash = ${cookieHash} AND ended_at IS NULL AND expires_at > now()
          AND last_used_at > now() - make_interval(secs => ${idleSeconds})
        RETURNING id, tenant_id::int4 AS "tenantId", user_id::int8 AS "userId", created_at AS "createdAt", methods`);
      const r = rows[0];
      return r
        ? {
            id: String(r.id),
            tenantId: Number(r.tenantId),
            userId: Number(r.userId),
            createdAt: new Date(String(r.createdAt)),
            methods: Array.isArray(r.methods) && r.methods.length > 0 ? r.methods.map(String) : ['pwd'],
          }
        : null;
    },

    /** Whether a sign-on session is live (not ended, not expired). */
    async ssoSessionLive(id: string): Promise<boolean> {
      const { rows } = await db.execute(
        sql`SELECT 1 FROM sso_sessions WHERE id = ${id} AND ended_at IS NULL AND expires_at > now()`,
      );
      return rows.length > 0;
    },

    async tenantCode(tenantId: number): Promise<string | null> {
      const { rows } = await db.execute<{ code: string }>(sql`SELECT code FROM tenants WHERE id = ${tenantId}`);
      return rows[0]?.code ?? null;
    },

    async subjectOf(userId: number): Promise<string | null> {
      const { rows } = await db.execute<{ subject: string }>(sql`SELECT subject FROM users WHERE id = ${userId}`);
      return rows[0]?.subject ?? null;
    },

    /** An enabled user of an enabled tenant by subject, with what the claims need. */
    async account(tenantId: number, subject: string): Promise<AccountRow | null> {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(subject)) return null;
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT u.subject, u.username, u.name, u.translations, u.mobile, u.verified_mobile AS "verifiedMobile",
          coalesce((SELECT array_agg(r.code ORDER BY r.code) FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                    WHERE ur.user_id = u.id AND r.tenant_id = u.tenant_id), '{}') AS roles,
          (SELECT jsonb_strip_nulls(jsonb_build_object('id', e.guid, 'name', e.name, 'name#en', e.translations->'en'->>'name')) FROM enterprise_members m
             JOIN enterprises e ON e.id = m.enterprise_id
           WHERE m.user_id = u.id AND e.tenant_id = u.tenant_id
           ORDER BY (e.id = u.default_enterprise_id) DESC, m.created_at DESC LIMIT 1) AS enterprise
        FROM users u JOIN tenants t ON t.id = u.tenant_id
        WHERE u.tenant_id = ${tenantId} AND u.subject = ${subject}::uuid
          AND u.disabled_at IS NULL AND t.disabled_at IS NULL`);
      const r = rows[0];
      return r
        ? {
            subject: String(r.subject),
            username: String(r.username),
            name: String(r.name),
            translations: (r.translations ?? {}) as AccountRow['translations'],
            mobile: (r.mobile as string | null) ?? null,
            verifiedMobile: (r.verifiedMobile as string | null) ?? null,
            roles: r.roles as string[],
            enterprise: (r.enterprise as AccountRow['enterprise']) ?? null,
          }
        : null;
    },

    /**
     * Takes (deletes and returns) the provider's sessions of a sign-on session, or, without one, of
     * up to `limit` sign-on sessions that have ended or expired: whoever takes a row tells its
     * clients, so two instances never both do.
     */
    async takeSessions(
      ssoSessionId: string | null,
      limit = 200,
    ): Promise<{ tenantId: number; ssoSessionId: string; payload: Record<string, unknown> }[]> {
      const which =
        ssoSessionId === null
          ? sql`EXISTS (SELECT 1 FROM sso_sessions s WHERE s.id = o.sso_session_id
                        AND (s.ended_at IS NOT NULL OR s.expires_at <= now()))`
          : sql`o.sso_session_id = ${ssoSessionId}`;
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        WITH t AS (
          SELECT o.tenant_id, o.model, o.id FROM oidc_payloads o
          WHERE o.model = 'Session' AND o.sso_session_id IS NOT NULL AND ${which}
          LIMIT ${limit} FOR UPDATE OF o SKIP LOCKED)
        DELETE FROM oidc_payloads p USING t
        WHERE p.tenant_id = t.tenant_id AND p.model = t.model AND p.id = t.id
        RETURNING p.tenant_id::int4 AS "tenantId", p.sso_session_id AS "ssoSessionId", p.payload`);
      return rows.map((r) => ({
        tenantId: Number(r.tenantId),
        ssoSessionId: String(r.ssoSessionId),
        payload: r.payload as Record<string, unknown>,
      }));
    },

    /** Removes everything of the provider's that came from a sign-on session. */
    async deleteOf(ssoSessionId: string): Promise<number> {
      const res = await db.execute(sql`DELETE FROM oidc_payloads WHERE sso_session_id = ${ssoSessionId}`);
      return res.rowCount ?? 0;
    },

    async keys(tenantId: number): Promise<KeyRow[]> {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT kid, alg, private_jwk AS "privateJwk", state, created_at AS "createdAt",
               activated_at AS "activatedAt", retired_at AS "retiredAt"
        FROM oidc_keys WHERE tenant_id = ${tenantId}
        ORDER BY CASE state WHEN 'active' THEN 0 WHEN 'next' THEN 1 ELSE 2 END, created_at DESC, kid`);
      return rows.map((r) => ({
        kid: String(r.kid),
        alg: r.alg as KeyRow['alg'],
        privateJwk: r.privateJwk as Record<string, unknown>,
        state: r.state as KeyState,
        createdAt: new Date(String(r.createdAt)),
        activatedAt: r.activatedAt ? new Date(String(r.activatedAt)) : null,
        retiredAt: r.retiredAt ? new Date(String(r.retiredAt)) : null,
      }));
    },

    /**
     * Changes a tenant's keys under a transaction-scoped advisory lock of that tenant, so two
     * instances never both generate or rotate: `work` reads the keys as they are under the lock
     * and returns the changes; true when anything changed.
     */
    async changeKeys(
      tenantId: number,
      work: (keys: KeyRow[]) => Promise<{
        add: { kid: string; alg: string; privateJwk: Record<string, unknown>; state: KeyState }[];
        activate: string[];
        retire: string[];
        remove: string[];
      }>,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.execute(keyedLock('oidcKeys', tenantId));
        const { rows } = await tx.execute<Record<string, unknown>>(sql`
          SELECT kid, alg, private_jwk AS "privateJwk", state, created_at AS "createdAt",
                 activated_at AS "activatedAt", retired_at AS "retiredAt"
          FROM oidc_keys WHERE tenant_id = ${tenantId}`);
        const keys = rows.map((r) => ({
          kid: String(r.kid),
          alg: r.alg as KeyRow['alg'],
          privateJwk: r.privateJwk as Record<string, unknown>,
          state: r.state as KeyState,
          createdAt: new Date(String(r.createdAt)),
          activatedAt: r.activatedAt ? new Date(String(r.activatedAt)) : null,
          retiredAt: r.retiredAt ? new Date(String(r.retiredAt)) : null,
        }));
        const c = await work(keys);
        for (const k of c.add) {
          await tx.execute(sql`
            INSERT INTO oidc_keys (tenant_id, kid, alg, private_jwk, state, activated_at)
            VALUES (${tenantId}, ${k.kid}, ${k.alg}, ${JSON.stringify(k.privateJwk)}::jsonb, ${k.state},
                    ${k.state === 'active' ? sql`now()` : sql`NULL`})`);
        }
        for (const kid of c.retire) {
          await tx.execute(sql`
            UPDATE oidc_keys SET state = 'retiring', retired_at = now() WHERE tenant_id = ${tenantId} AND kid = ${kid}`);
        }
        for (const kid of c.activate) {
          await tx.execute(sql`
            UPDATE oidc_keys SET state = 'active', activated_at = now() WHERE tenant_id = ${tenantId} AND kid = ${kid}`);
        }
        for (const kid of c.remove) {
          await tx.execute(sql`DELETE FROM oidc_keys WHERE tenant_id = ${tenantId} AND kid = ${kid}`);
        }
        return c.add.length + c.activate.length + c.retire.length + c.remove.length > 0;
      });
    },

    /** Tenants that have signing keys (the ones rotation looks at). */
    async tenantsWithKeys(): Promise<number[]> {
      const { rows } = await db.execute<{ id: number }>(sql`SELECT DISTINCT tenant_id::int4 AS id FROM oidc_keys`);
      return rows.map((r) => Number(r.id));
    },
  };
}

export type OidcRepository = ReturnType<typeof createOidcRepository>;
