/**
 * Sign-ins and the login history in PostgreSQL. A sign-in is a live sign-on session (sso_sessions,
 * with the services that validated its tickets, the OpenID clients it signed into and the portal
 * sessions its tickets opened) or a live portal session that no live sign-on session holds, named
 * by its chain (sessions.chain_id, kept across switches). Every statement names the tenant (and,
 * for a person's own, the user); history reads are bounded by a time range and a limit, and page
 * by the last row seen (no count over the history).
 */
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../../db/client.js';
import { named } from '../../db/named.js';
import { chinaTime, nameIn } from '../../db/expressions.js';
import { writeAudit, type AuditAction } from '../../platform/audit.js';
import type { LoginEventInput } from '../../platform/credentials.js';

export type { LoginEventInput };

export interface SignInRow {
  id: string;
  kind: 'sso' | 'portal';
  key: string;
  userId: string;
  username: string;
  name: string;
  ip: string | null;
  userAgent: string | null;
  startedAt: string;
  lastSeenAt: string;
  systems: string[];
  portalSessions: number;
}

export interface SignInScope {
  tenantId: number;
  /** Only this user's. */
  userId?: number | undefined;
  /** A username (exactly, any case) or words of a name. */
  user?: string | undefined;
  /** An address or its beginning. */
  ip?: string | undefined;
  /** The reader's language: names of people and systems in it (English when they have one). */
  lang?: 'zh' | 'en' | undefined;
}

export interface HistoryFilter {
  tenantId: number;
  userId?: number | undefined;
  user?: string | undefined;
  ip?: string | undefined;
  outcome?: string | undefined;
  lang?: 'zh' | 'en' | undefined;
  from: string;
  to?: string | undefined;
  before?: string | undefined;
}

export type HistoryRow = {
  id: string;
  at: string;
  username: string;
  userId: string | null;
  name: string | null;
  outcome: string;
  via: string;
  factor: string | null;
  ip: string | null;
  userAgent: string | null;
};

const RECORD = named(
  'sessions_record_login_event',
  `INSERT INTO login_events (tenant_id, user_id, username, outcome, via, factor, ip, user_agent)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text AS id`,
);

/** The distinct user agents of a user's successful sign-ins since a time (the newest first, bounded). */
const KNOWN_AGENTS = named<{ userAgent: string | null }>(
  'sessions_known_agents',
  `SELECT user_agent AS "userAgent" FROM (
     SELECT user_agent, max(at) AS at FROM login_events
     WHERE user_id = $1 AND outcome = 'succeeded' AND at > now() - make_interval(days => $2) AND id <> $3
     GROUP BY user_agent ORDER BY at DESC LIMIT 200) k`,
);

/** Writes last_seen_at at most once a minute, whichever instance asks. */
const SEEN = named(
  'sessions_seen',
  `UPDATE sessions SET last_seen_at = now()
   WHERE id = $1 AND (last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')`,
);

const LIKE = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const CONTAINING = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const instant = (text: string, end: boolean) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? sql`((${text}::date + ${end ? 1 : 0} * interval '1 day') AT TIME ZONE 'Asia/Shanghai')`
    : sql`${text}::timestamptz`;

export function createSessionsRepository(db: Db, relaxed: pg.Pool, settings: { ssoIdleSeconds: number }) {
  /** The live sign-ins of the scope: sign-on sessions first, then the portal chains no live one holds. */
  function signInsQuery(scope: SignInScope, extra: SQL = sql``) {
    const lang = scope.lang ?? 'zh';
    const userFilter = sql.join(
      [
        scope.userId !== undefined ? sql`AND u.id = ${scope.userId}` : sql``,
        scope.user
          ? sql`AND (lower(u.username) = lower(${scope.user}) OR u.name ILIKE ${CONTAINING(scope.user)})`
          : sql``,
      ],
      sql` `,
    );
    return sql`
      WITH sso AS (
        SELECT ss.id, ss.user_id, ss.ip, ss.user_agent, ss.created_at, ss.last_used_at
        FROM sso_sessions ss JOIN users u ON u.id = ss.user_id
        WHERE ss.tenant_id = ${scope.tenantId} AND ss.ended_at IS NULL AND ss.expires_at > now()
          AND ss.last_used_at > now() - make_interval(secs => ${settings.ssoIdleSeconds})
          ${userFilter}),
      portal AS (
        SELECT DISTINCT ON (s.chain_id) s.chain_id, s.user_id, coalesce(s.last_seen_at, s.created_at) AS seen
        FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.tenant_id = ${scope.tenantId} AND s.revoked_at IS NULL AND s.expires_at > now()
          ${userFilter}
          AND NOT EXISTS (
            SELECT 1 FROM sso_sessions h WHERE h.id = s.sso_session_id AND h.ended_at IS NULL AND h.expires_at > now()
              AND h.last_used_at > now() - make_interval(secs => ${settings.ssoIdleSeconds}))
        ORDER BY s.chain_id, s.created_at DESC),
      all_ AS (
        SELECT 'sso' AS kind, sso.id::text AS key, sso.user_id, sso.ip, sso.user_agent, sso.created_at AS started,
          greatest(sso.last_used_at, (SELECT max(coalesce(p.last_seen_at, p.created_at)) FROM sessions p
            WHERE p.sso_session_id = sso.id AND p.revoked_at IS NULL AND p.expires_at > now())) AS seen,
          (SELECT count(*) FROM sessions p
            WHERE p.sso_session_id = sso.id AND p.revoked_at IS NULL AND p.expires_at > now())::int AS portal_sessions,
          ARRAY(SELECT name FROM (
              SELECT ${nameIn(lang, sql`sv.name`, sql`sv.translations`, 'name')} AS name
              FROM sso_tickets t JOIN sso_services sv ON sv.id = t.service_id
              WHERE t.sso_session_id = sso.id AND t.validated AND sv.name <> ''
              UNION
              SELECT ${nameIn(lang, sql`c.name`, sql`c.translations`, 'name')}
              FROM oidc_payloads o JOIN oidc_clients c
                ON c.tenant_id = o.tenant_id AND c.client_id = o.payload->>'clientId'
              WHERE o.sso_session_id = sso.id AND o.model = 'Grant') n ORDER BY name LIMIT 20) AS systems
        FROM sso
        UNION ALL
        -- A portal sign-in is where it began: its first session's address and browser (a switch is not a new device).
        SELECT 'portal', p.chain_id::text, p.user_id, f.ip, f.user_agent, f.created_at, p.seen, 1, ARRAY[]::text[]
        FROM portal p CROSS JOIN LATERAL (
          SELECT c.ip, c.user_agent, c.created_at FROM sessions c WHERE c.chain_id = p.chain_id
          ORDER BY c.created_at LIMIT 1) f)
      SELECT a.kind, a.key, u.id::text AS "userId", u.username,
        ${nameIn(lang, sql`u.name`, sql`u.translations`, 'name')} AS name, a.ip, a.user_agent AS "userAgent",
        ${chinaTime(sql`a.started`)} AS "startedAt", ${chinaTime(sql`a.seen`)} AS "lastSeenAt",
        a.systems, a.portal_sessions AS "portalSessions", count(*) OVER () AS total
      FROM all_ a JOIN users u ON u.id = a.user_id
      ${scope.ip ? sql`WHERE coalesce(a.ip, '') LIKE ${LIKE(scope.ip)}` : sql``}
      ${extra}`;
  }

  const toRow = (r: Record<string, unknown>): SignInRow => ({
    id: `${String(r.kind)}-${String(r.key)}`,
    kind: r.kind as 'sso' | 'portal',
    key: String(r.key),
    userId: String(r.userId),
    username: String(r.username),
    name: String(r.name),
    ip: (r.ip as string | null) ?? null,
    userAgent: (r.userAgent as string | null) ?? null,
    startedAt: String(r.startedAt),
    lastSeenAt: String(r.lastSeenAt),
    systems: (r.systems as string[] | null) ?? [],
    portalSessions: Number(r.portalSessions),
  });

  return {
    /** Writes the attempt; its id. */
    async recordLoginEvent(e: LoginEventInput): Promise<string | null> {
      const { rows } = await RECORD(relaxed, [
        e.tenantId,
        e.userId,
        [...e.username].slice(0, 64).join(''),
        e.outcome,
        e.via,
        e.factor ?? null,
        e.ip,
        e.userAgent ? e.userAgent.slice(0, 512) : null,
      ]);
      return (rows[0] as { id: string } | undefined)?.id ?? null;
    },

    /** The user agents of the user's successful sign-ins within `days`, but the attempt `except`. */
    async knownAgents(userId: number, days: number, except: string): Promise<(string | null)[]> {
      const { rows } = await KNOWN_AGENTS(db.$client, [userId, days, except]);
      return rows.map((r) => r.userAgent);
    },

    /** Marks the session as seen now, unless it was within the last minute. */
    async seen(sessionId: string): Promise<void> {
      await SEEN(relaxed, [sessionId]);
    },

    /** The sign-in a portal session belongs to: its SSO session (when live) and its chain. */
    async signInOf(sessionId: string): Promise<{ sso: string | null; chain: string } | null> {
      const { rows } = await db.execute<{ sso: string | null; chain: string }>(sql`
        SELECT CASE WHEN EXISTS (SELECT 1 FROM sso_sessions h WHERE h.id = s.sso_session_id AND h.ended_at IS NULL
                 AND h.expires_at > now() AND h.last_used_at > now() - make_interval(secs => ${settings.ssoIdleSeconds}))
               THEN s.sso_session_id::text END AS sso,
               s.chain_id::text AS chain
        FROM sessions s WHERE s.id = ${sessionId}`);
      return rows[0] ?? null;
    },

    /** The scope's live sign-ins, most recently seen first; a page of them with the count. */
    async signIns(scope: SignInScope, page: { page: number; limit: number }) {
      const { rows } = await db.execute<Record<string, unknown>>(
        signInsQuery(
          scope,
          sql`ORDER BY a.seen DESC, a.key LIMIT ${page.limit} OFFSET ${(page.page - 1) * page.limit}`,
        ),
      );
      return { records: rows.map(toRow), total: Number(rows[0]?.total ?? 0) };
    },

    /**
     * Ends the portal side of a sign-in of the scope: for a sign-on session, its portal sessions (the
     * sign-on session itself is ended by the sign-on service); for a portal chain, its live
     * sessions. The ids of the portal sessions ended, and the user; null when the scope has no such
     * live sign-in.
     */
    async endSignIn(
      scope: { tenantId: number; userId?: number | undefined },
      kind: 'sso' | 'portal',
      key: string,
    ): Promise<{ userId: number; sessions: string[] } | null> {
      const mine = scope.userId !== undefined ? sql`AND user_id = ${scope.userId}` : sql``;
      return db.transaction(async (tx) => {
        if (kind === 'sso') {
          const owner = await tx.execute<{ userId: string }>(sql`
            SELECT user_id::text AS "userId" FROM sso_sessions
            WHERE id = ${key}::uuid AND tenant_id = ${scope.tenantId} ${mine} AND ended_at IS NULL AND expires_at > now()`);
          const userId = owner.rows[0]?.userId;
          if (userId === undefined) return null;
          const ended = await tx.execute<{ id: string }>(sql`
            UPDATE sessions SET revoked_at = now()
            WHERE sso_session_id = ${key}::uuid AND tenant_id = ${scope.tenantId} AND revoked_at IS NULL
            RETURNING id`);
          return { userId: Number(userId), sessions: ended.rows.map((r) => r.id) };
        }
        const ended = await tx.execute<{ id: string; userId: string }>(sql`
          UPDATE sessions SET revoked_at = now()
          WHERE chain_id = ${key}::uuid AND tenant_id = ${scope.tenantId} ${mine}
            AND revoked_at IS NULL AND expires_at > now()
          RETURNING id, user_id::text AS "userId"`);
        const first = ended.rows[0];
        return first ? { userId: Number(first.userId), sessions: ended.rows.map((r) => r.id) } : null;
      });
    },

    /** The live sign-ins of a user of the tenant (their keys), to end them all. */
    async signInKeysOf(tenantId: number, userId: number): Promise<{ kind: 'sso' | 'portal'; key: string }[]> {
      const { rows } = await db.execute<Record<string, unknown>>(
        signInsQuery({ tenantId, userId }, sql`ORDER BY a.started LIMIT 1000`),
      );
      return rows.map((r) => ({ kind: r.kind as 'sso' | 'portal', key: String(r.key) }));
    },

    /** Whether the user is one of the tenant's. */
    async userInTenant(tenantId: number, userId: number): Promise<boolean> {
      const { rows } = await db.execute(sql`SELECT 1 FROM users WHERE id = ${userId} AND tenant_id = ${tenantId}`);
      return rows.length > 0;
    },

    /**
     * The history the filter matches, newest first: at most `limit` rows (one more is read to say
     * whether there is an older page). Bounded by `from` (and the tenant's index on (tenant, at)).
     */
    async history(f: HistoryFilter, limit: number): Promise<HistoryRow[]> {
      const cursor = f.before
        ? sql`AND (e.at, e.id) < (SELECT c.at, c.id FROM login_events c WHERE c.id = ${f.before}::int8 AND c.tenant_id = ${f.tenantId})`
        : sql``;
      const { rows } = await db.execute<HistoryRow>(sql`
        SELECT e.id::text AS id, ${chinaTime(sql`e.at`)} AS at, e.username, e.user_id::text AS "userId",
          ${nameIn(f.lang ?? 'zh', sql`u.name`, sql`u.translations`, 'name')} AS name,
          e.outcome, e.via, e.factor, e.ip, e.user_agent AS "userAgent"
        FROM login_events e LEFT JOIN users u ON u.id = e.user_id
        WHERE e.tenant_id = ${f.tenantId}
          ${f.userId !== undefined ? sql`AND e.user_id = ${f.userId}` : sql``}
          ${f.user ? sql`AND lower(e.username) = lower(${f.user})` : sql``}
          ${f.ip ? sql`AND e.ip LIKE ${LIKE(f.ip)}` : sql``}
          ${f.outcome ? sql`AND e.outcome = ${f.outcome}` : sql``}
          AND e.at >= ${instant(f.from, false)}
          ${f.to ? sql`AND e.at < ${instant(f.to, true)}` : sql``}
          ${cursor}
        ORDER BY e.at DESC, e.id DESC
        LIMIT ${limit}`);
      return rows;
    },

    /**
     * Deletes the tenant's history older than `days` (null: the attempts that named no tenant), at
     * most `batch` rows a call; how many.
     */
    async pruneHistory(tenantId: number | null, days: number, batch: number): Promise<number> {
      const whose = tenantId === null ? sql`tenant_id IS NULL` : sql`tenant_id = ${tenantId}`;
      const { rowCount } = await db.execute(sql`
        DELETE FROM login_events WHERE id IN (
          SELECT id FROM login_events WHERE ${whose} AND at < now() - make_interval(days => ${days})
          LIMIT ${batch})`);
      return rowCount ?? 0;
    },

    /** Every tenant's id (retention runs tenant by tenant, each by its own policy). */
    async tenantIds(): Promise<number[]> {
      const { rows } = await db.execute<{ id: string }>(sql`SELECT id::text AS id FROM tenants ORDER BY id`);
      return rows.map((r) => Number(r.id));
    },

    async audit(tenantId: number, userId: number, action: AuditAction, ip: string, detail: Record<string, unknown>) {
      await writeAudit(db, { tenantId, userId, action, ip, detail });
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
