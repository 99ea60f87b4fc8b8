/**
 * Single sign-on state in PostgreSQL: registered services, SSO sessions (by the SHA-256 of their
 * cookie) and service tickets. Taking a ticket is one statement, so two validations of the same
 * ticket can never both see it unused.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
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

export function createSsoRepository(db: Db) {
  return {
    async tenantByCode(code: string): Promise<Tenant | null> {
      const [t] = await db
        .select({ id: s.tenants.id, code: s.tenants.code, name: s.tenants.name })
        .from(s.tenants)
        .where(eq(s.tenants.code, code));
      return t ?? null;
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

    async userName(userId: number): Promise<string | null> {
      const [u] = await db.select({ name: s.users.name }).from(s.users).where(eq(s.users.id, userId));
      return u?.name ?? null;
    },

    async services(tenantId: number): Promise<RegisteredService[]> {
      return db
        .select(serviceColumns)
        .from(s.ssoServices)
        .where(and(eq(s.ssoServices.tenantId, tenantId), eq(s.ssoServices.enabled, true)))
        .orderBy(s.ssoServices.id);
    },

    async openSession(cookieHash: string, tenantId: number, userId: number, maxSeconds: number): Promise<string> {
      const [row] = await db
        .insert(s.ssoSessions)
        .values({ cookieHash, tenantId, userId, expiresAt: sql`now() + make_interval(secs => ${maxSeconds})` })
        .returning({ id: s.ssoSessions.id });
      return row!.id;
    },

    /** The live session a cookie names (within its lifetime and idle limit), marked as used now. */
    async touchSession(cookieHash: string, idleSeconds: number): Promise<SsoSession | null> {
      const rows = await db.execute<{ id: string; tenantId: number; userId: number }>(sql`
        UPDATE sso_sessions SET last_used_at = now()
        WHERE cookie_hash = ${cookieHash} AND ended_at IS NULL AND expires_at > now()
          AND last_used_at > now() - make_interval(secs => ${idleSeconds})
        RETURNING id, tenant_id AS "tenantId", user_id::int8 AS "userId"`);
      const r = rows.rows[0];
      return r ? { id: r.id, tenantId: Number(r.tenantId), userId: Number(r.userId) } : null;
    },

    async issueTicket(t: {
      ticket: string;
      ssoSessionId: string;
      serviceId: number;
      service: string;
      fromNewLogin: boolean;
      ttlSeconds: number;
    }): Promise<void> {
      await db.insert(s.ssoTickets).values({
        ticket: t.ticket,
        ssoSessionId: t.ssoSessionId,
        serviceId: t.serviceId,
        service: t.service,
        fromNewLogin: t.fromNewLogin,
        expiresAt: sql`now() + make_interval(secs => ${t.ttlSeconds})`,
      });
    },

    /** Spends the ticket's one validation attempt; null when it is unknown or was tried before. */
    async takeTicket(ticket: string): Promise<TakenTicket | null> {
      const rows = await db.execute<Record<string, unknown>>(sql`
        WITH t AS (
          UPDATE sso_tickets SET validated_at = now()
          WHERE ticket = ${ticket} AND validated_at IS NULL
          RETURNING service, from_new_login, expires_at, sso_session_id)
        SELECT t.service, t.from_new_login AS "fromNewLogin", t.expires_at <= now() AS expired,
               (ss.ended_at IS NOT NULL OR ss.expires_at <= now()) AS "sessionEnded",
               u.id::int8 AS "userId", u.username, u.name, te.code AS "tenantCode",
               ss.created_at AS "authenticatedAt"
        FROM t JOIN sso_sessions ss ON ss.id = t.sso_session_id
        JOIN users u ON u.id = ss.user_id JOIN tenants te ON te.id = ss.tenant_id`);
      const r = rows.rows[0];
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
      const rows = await db.execute<{ id: string; tenantId: number; userId: number }>(sql`
        UPDATE sso_sessions ss SET last_used_at = now()
        FROM sessions p JOIN sso_tickets t ON t.ticket = p.service_ticket
        WHERE p.id = ${portalSessionId} AND ss.id = t.sso_session_id AND ss.ended_at IS NULL
          AND ss.expires_at > now() AND ss.last_used_at > now() - make_interval(secs => ${idleSeconds})
        RETURNING ss.id, ss.tenant_id AS "tenantId", ss.user_id::int8 AS "userId"`);
      const r = rows.rows[0];
      return r ? { id: r.id, tenantId: Number(r.tenantId), userId: Number(r.userId) } : null;
    },

    async tenantCode(tenantId: number): Promise<string | null> {
      const [t] = await db.select({ code: s.tenants.code }).from(s.tenants).where(eq(s.tenants.id, tenantId));
      return t?.code ?? null;
    },

    async markValidated(ticket: string): Promise<void> {
      await db.update(s.ssoTickets).set({ validated: true }).where(eq(s.ssoTickets.ticket, ticket));
    },

    /** Ends the session a cookie names; returns it and the tickets its services validated. */
    async endSession(cookieHash: string): Promise<{ session: SsoSession; tickets: ValidatedTicket[] } | null> {
      return db.transaction(async (tx) => {
        const ended = await tx.execute<{ id: string; tenantId: number; userId: number }>(sql`
          UPDATE sso_sessions SET ended_at = now()
          WHERE cookie_hash = ${cookieHash} AND ended_at IS NULL
          RETURNING id, tenant_id AS "tenantId", user_id::int8 AS "userId"`);
        const r = ended.rows[0];
        if (!r) return null;
        const tickets = await tx
          .select({ ticket: s.ssoTickets.ticket, service: s.ssoTickets.service, serviceId: s.ssoTickets.serviceId })
          .from(s.ssoTickets)
          .where(and(eq(s.ssoTickets.ssoSessionId, r.id), eq(s.ssoTickets.validated, true)));
        return { session: { id: r.id, tenantId: Number(r.tenantId), userId: Number(r.userId) }, tickets };
      });
    },
  };
}

export type SsoRepository = ReturnType<typeof createSsoRepository>;
