/**
 * Single sign-on state in PostgreSQL: registered services, SSO sessions (by the SHA-256 of their
 * cookie) and service tickets. Taking a ticket is one statement, so two validations of the same
 * ticket can never both see it unused. The hot statements are named (planned once per connection).
 */
import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import { named } from '../../db/named.js';
import * as s from '../../db/schema.js';

import type { RegisteredService } from './service-registry.js';

export interface SsoSession {
  id: string;
  tenantId: number;
  userId: number;
}

export interface TakenTicket {
  service: string;
  fromNewLogin: boolean;
  expired: boolean;
  /** The SSO session has ended (logout) since the ticket was issued. */
  sessionEnded: boolean;
  userId: number;
  username: string;
  name: string;
  tenantCode: string;
  authenticatedAt: Date;
}

export interface ValidatedTicket {
  ticket: string;
  service: string;
  serviceId: number;
}

export interface Tenant {
  id: number;
  code: string;
  name: string;
  translations: s.Translations<{ name: string }>;
}

export interface TenantWithServices extends Tenant {
  services: RegisteredService[];
}

const serviceColumns = {
  id: s.ssoServices.id,
  tenantId: s.ssoServices.tenantId,
  name: s.ssoServices.name,
  pattern: s.ssoServices.pattern,
  sysCode: s.ssoServices.sysCode,
  entryUrl: s.ssoServices.entryUrl,
  logoutUrl: s.ssoServices.logoutUrl,
};

const TENANT_WITH_SERVICES = named(
  'sso_tenant_with_services',
  `SELECT t.id::int4 AS id, t.code, t.name, t.translations,
          coalesce(json_agg(json_build_object(
            'id', s.id, 'tenantId', s.tenant_id, 'name', s.name, 'pattern', s.pattern, 'sysCode', s.sys_code,
            'entryUrl', s.entry_url, 'logoutUrl', s.logout_url) ORDER BY s.id) FILTER (WHERE s.id IS NOT NULL),
            '[]') AS services
   FROM tenants t LEFT JOIN sso_services s ON s.tenant_id = t.id AND s.enabled
   WHERE t.code = $1 GROUP BY t.id`,
);
const OPEN_SESSION = named(
  'sso_open_session',
  // Only for a user and tenant still enabled, held until commit: an operator's disable waits, then
  // ends this session too; a disable that came first leaves nothing to open.
  `WITH enabled AS (
     SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
     WHERE u.id = $3 AND u.disabled_at IS NULL AND t.disabled_at IS NULL FOR SHARE OF u, t)
   INSERT INTO sso_sessions (cookie_hash, tenant_id, user_id, expires_at, ip, user_agent, methods, factor_at)
   SELECT $1, $2, id, now() + make_interval(secs => $4), $5, $6, $7::text[], CASE WHEN $8::boolean THEN now() END
   FROM enabled RETURNING id`,
);
// Touches the session and, when a ticket is given and the session is of that tenant, issues it:
// the single sign-on step in one statement.
const TOUCH_SESSION = named(
  'sso_touch_session',
  `WITH s AS (
     UPDATE sso_sessions SET last_used_at = now()
     WHERE cookie_hash = $1 AND ended_at IS NULL AND expires_at > now()
       AND last_used_at > now() - make_interval(secs => $2)
     RETURNING id, tenant_id, user_id),
   i AS (
     INSERT INTO sso_tickets (ticket, sso_session_id, service_id, service, from_new_login, expires_at)
     SELECT $3::text, s.id, $4::int8, $5::text, false, now() + make_interval(secs => $6::int4)
     FROM s WHERE $3::text IS NOT NULL AND s.tenant_id = $7::int8
     RETURNING ticket)
   SELECT s.id, s.tenant_id AS "tenantId", s.user_id::int8 AS "userId", EXISTS (SELECT 1 FROM i) AS issued FROM s`,
);
const ISSUE_TICKET = named(
  'sso_issue_ticket',
  `INSERT INTO sso_tickets (ticket, sso_session_id, service_id, service, from_new_login, expires_at)
   VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
);
// One statement: of two simultaneous attempts, the second finds validated_at set and gets nothing.
const TAKE_TICKET = named(
  'sso_take_ticket',
  `WITH t AS (
     UPDATE sso_tickets st SET validated_at = now(),
       validated = coalesce(st.service = $2, false) AND st.expires_at > now() AND (st.from_new_login OR NOT $3)
                   AND ss.ended_at IS NULL AND ss.expires_at > now()
     FROM sso_sessions ss
     WHERE st.ticket = $1 AND st.validated_at IS NULL AND ss.id = st.sso_session_id
     RETURNING st.service, st.from_new_login, st.expires_at <= now() AS expired,
               (ss.ended_at IS NOT NULL OR ss.expires_at <= now()) AS session_ended,
               ss.user_id, ss.tenant_id, ss.created_at)
   SELECT t.service, t.from_new_login AS "fromNewLogin", t.expired, t.session_ended AS "sessionEnded",
          u.id::int8 AS "userId", u.username, u.name, te.code AS "tenantCode", t.created_at AS "authenticatedAt"
   FROM t JOIN users u ON u.id = t.user_id JOIN tenants te ON te.id = t.tenant_id`,
);
const SESSION_OF_PORTAL = named(
  'sso_session_of_portal',
  `UPDATE sso_sessions ss SET last_used_at = now()
   FROM sessions p JOIN sso_tickets t ON t.ticket = p.service_ticket
   WHERE p.id = $1 AND ss.id = t.sso_session_id AND ss.ended_at IS NULL
     AND ss.expires_at > now() AND ss.last_used_at > now() - make_interval(secs => $2)
   RETURNING ss.id, ss.tenant_id AS "tenantId", ss.user_id::int8 AS "userId"`,
);

function sessionOf(res: pg.QueryResult): SsoSession | null {
  const r = res.rows[0] as { id: string; tenantId: number; userId: number } | undefined;
  return r ? { id: r.id, tenantId: Number(r.tenantId), userId: Number(r.userId) } : null;
}

/**
 * `relaxed` (db/client.ts connectRelaxed, asynchronous commit) carries sessions opened and touched
 * and tickets issued and spent: a crash may lose the last instant of them (a ticket then fails, a
 * session asks for a new login), as Apereo CAS keeps its tickets in memory. Ending a session waits
 * for the disk.
 */
export function createSsoRepository(db: Db, relaxed: pg.Pool) {
  return {
    /** A tenant and its enabled services, in one statement (every GET /cas/login asks). */
    async tenantByCode(code: string): Promise<TenantWithServices | null> {
      const { rows } = await TENANT_WITH_SERVICES(db.$client, [code]);
      return (rows[0] as TenantWithServices | undefined) ?? null;
    },

    /** Every tenant's enabled services, to find which tenant registers a service. */
    async allServices(): Promise<(RegisteredService & { tenantCode: string })[]> {
      return db
        .select({ ...serviceColumns, tenantCode: s.tenants.code })
        .from(s.ssoServices)
        .innerJoin(s.tenants, eq(s.tenants.id, s.ssoServices.tenantId))
        .where(eq(s.ssoServices.enabled, true))
        .orderBy(s.ssoServices.id);
    },

    /** The user's name of record and its translations. */
    async userName(userId: number): Promise<Pick<typeof s.users.$inferSelect, 'name' | 'translations'> | null> {
      const [u] = await db
        .select({ name: s.users.name, translations: s.users.translations })
        .from(s.users)
        .where(eq(s.users.id, userId));
      return u ?? null;
    },

    async services(tenantId: number): Promise<RegisteredService[]> {
      return db
        .select(serviceColumns)
        .from(s.ssoServices)
        .where(and(eq(s.ssoServices.tenantId, tenantId), eq(s.ssoServices.enabled, true)))
        .orderBy(s.ssoServices.id);
    },

    /**
     * A new SSO session's id; null when the user or tenant was disabled meanwhile. `methods` are
     * what the sign-in proved (OIDC amr values); one with a factor (`mfa`) counts for step-up.
     */
    async openSession(
      cookieHash: string,
      tenantId: number,
      userId: number,
      maxSeconds: number,
      client: { ip: string; userAgent: string } = { ip: '', userAgent: '' },
      /** What the sign-in proved (OIDC `amr` values); a factor beyond the password counts from now. */
      methods: string[] = ['pwd'],
      /** Step-up counts from now though only the password was proved (the person has no usable factor). */
      strongest = false,
    ): Promise<string | null> {
      const factorProven = strongest || methods.some((m) => m !== 'pwd');
      const { rows } = await OPEN_SESSION(relaxed, [
        cookieHash,
        tenantId,
        userId,
        maxSeconds,
        client.ip || null,
        client.userAgent.slice(0, 512) || null,
        methods,
        factorProven,
      ]);
      return (rows[0] as { id: string } | undefined)?.id ?? null;
    },

    /**
     * The live session a cookie names (within its lifetime and idle limit), marked as used now;
     * with `ticket`, that ticket issued to it (not from a new login) if it is of the ticket's tenant.
     */
    async touchSession(
      cookieHash: string,
      idleSeconds: number,
      ticket?: { ticket: string; tenantId: number; serviceId: number; service: string; ttlSeconds: number },
    ): Promise<(SsoSession & { issued: boolean }) | null> {
      const res = await TOUCH_SESSION(relaxed, [
        cookieHash,
        idleSeconds,
        ticket?.ticket ?? null,
        ticket?.serviceId ?? null,
        ticket?.service ?? null,
        ticket?.ttlSeconds ?? null,
        ticket?.tenantId ?? null,
      ]);
      const session = sessionOf(res);
      return session && { ...session, issued: Boolean((res.rows[0] as { issued: boolean }).issued) };
    },

    async issueTicket(t: {
      ticket: string;
      ssoSessionId: string;
      serviceId: number;
      service: string;
      fromNewLogin: boolean;
      ttlSeconds: number;
    }): Promise<void> {
      await ISSUE_TICKET(relaxed, [t.ticket, t.ssoSessionId, t.serviceId, t.service, t.fromNewLogin, t.ttlSeconds]);
    },

    /**
     * Spends the ticket's one validation attempt, and records whether it passed (its session live,
     * the service the one it was issued for, a new login if `renew`): the services single logout
     * tells. Null when it is unknown or was tried before.
     */
    async takeTicket(ticket: string, service: string | null, renew: boolean): Promise<TakenTicket | null> {
      const { rows } = await TAKE_TICKET(relaxed, [ticket, service, renew]);
      const r = rows[0] as Record<string, unknown> | undefined;
      if (!r) return null;
      return {
        service: String(r.service),
        fromNewLogin: Boolean(r.fromNewLogin),
        expired: Boolean(r.expired),
        sessionEnded: Boolean(r.sessionEnded),
        userId: Number(r.userId),
        username: String(r.username),
        name: String(r.name),
        tenantCode: String(r.tenantCode),
        authenticatedAt: new Date(String(r.authenticatedAt)),
      };
    },

    /** The live SSO session a portal session came from (through its service ticket), if any. */
    async sessionOfPortalSession(portalSessionId: string, idleSeconds: number): Promise<SsoSession | null> {
      return sessionOf(await SESSION_OF_PORTAL(relaxed, [portalSessionId, idleSeconds]));
    },

    async sessionOfTicket(ticket: string): Promise<string | null> {
      const { rows } = await db.$client.query<{ id: string }>(
        'SELECT sso_session_id AS id FROM sso_tickets WHERE ticket = $1',
        [ticket],
      );
      return rows[0]?.id ?? null;
    },

    async tenantCode(tenantId: number): Promise<string | null> {
      const [t] = await db.select({ code: s.tenants.code }).from(s.tenants).where(eq(s.tenants.id, tenantId));
      return t?.code ?? null;
    },

    /**
     * Ends a session (the one a cookie names, or by id) and returns the validated tickets whose services single logout tells: at most
     * `max`, each service's newest first and taken in turns (every service's newest ticket, then
     * every service's second newest, …), so a session with many tickets at one service cannot
     * crowd out the others. `total` counts them all.
     */
    async endSession(
      key: { cookieHash: string } | { id: string },
      max: number,
    ): Promise<{ session: SsoSession; tickets: ValidatedTicket[]; total: number } | null> {
      const which = 'id' in key ? sql`id = ${key.id}::uuid` : sql`cookie_hash = ${key.cookieHash}`;
      return db.transaction(async (tx) => {
        const ended = await tx.execute<{ id: string; tenantId: number; userId: number }>(sql`
          UPDATE sso_sessions SET ended_at = now()
          WHERE ${which} AND ended_at IS NULL
          RETURNING id, tenant_id AS "tenantId", user_id::int8 AS "userId"`);
        const r = ended.rows[0];
        if (!r) return null;
        const rows = await tx.execute<{ ticket: string; service: string; serviceId: string; total: string }>(sql`
          SELECT ticket, service, "serviceId", count(*) OVER () AS total
          FROM (SELECT ticket, service, service_id::int8 AS "serviceId", created_at,
                  row_number() OVER (PARTITION BY service_id ORDER BY created_at DESC, ticket) AS turn
                FROM sso_tickets WHERE sso_session_id = ${r.id} AND validated) t
          ORDER BY turn, created_at DESC, ticket
          LIMIT ${max}`);
        const tickets = rows.rows.map((t) => ({
          ticket: t.ticket,
          service: t.service,
          serviceId: Number(t.serviceId),
        }));
        return {
          session: { id: r.id, tenantId: Number(r.tenantId), userId: Number(r.userId) },
          tickets,
          total: Number(rows.rows[0]?.total ?? 0),
        };
      });
    },
  };
}

export type SsoRepository = ReturnType<typeof createSsoRepository>;
