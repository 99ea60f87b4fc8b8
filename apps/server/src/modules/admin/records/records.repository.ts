import type {
  AdminEnterprise,
  AdminEnterpriseDetail,
  AdminSsoService,
  AuditEntry,
  OutboxMessage,
  SsoServicePatch,
  SsoServiceInput,
} from '@portal/contracts';
import { and, desc, eq, gte, ilike, like, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.js';
import { chinaTime, containing, englishOf, nameIn, pageOf, totalRows } from '../../../db/expressions.js';
import { transactionLock } from '../../../db/locks.js';
import type { Lang } from '../../../platform/i18n.js';
import { auditLog, enterpriseMembers, enterprises, smsOutbox, ssoServices, users } from '../../../db/schema.js';

type Page = { page: number; limit: number };
type RegistrantRow = NonNullable<AdminEnterpriseDetail['registrant']>;
/** A day alone (`2026-11-24`) means that day in China time; a time with its zone means itself. */
const instant = (text: string, end: boolean) =>
  /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? sql`(${text}::date + ${end ? 1 : 0} * interval '1 day') AT TIME ZONE 'Asia/Shanghai'`
    : sql`${text}::timestamptz`;

/**
 * What operators review and read (ADR 031): the enterprises awaiting review, the tenant's sign-on
 * services, its SMS outbox and its audit log. Every statement names the tenant.
 */
/** Whether a pattern overlaps any of the given ones (the sign-on module's rule). */
export type Clashes = (pattern: string, others: string[]) => boolean;

async function otherTenantsClash(tx: Tx, tenantId: number, pattern: string, clashes: Clashes): Promise<boolean> {
  // One registration at a time across tenants: the check and the write must see the same rows.
  await tx.execute(transactionLock('ssoPatterns'));
  const others = await tx
    .select({ pattern: ssoServices.pattern })
    .from(ssoServices)
    .where(ne(ssoServices.tenantId, tenantId));
  return clashes(
    pattern,
    others.map((o) => o.pattern),
  );
}

/**
 * The audit filter by action: a code of the catalogue matches itself; a text ending in a dot is a
 * group (`user.` matches every `user.…` code).
 */
function actionIs(action: string): SQL {
  if (!action.endsWith('.')) return eq(auditLog.action, action);
  return like(auditLog.action, `${action.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/** What the review queue and an application's detail both show of an enterprise. */
const applicationColumns = () => ({
  id: sql<string>`${enterprises.id}::text`,
  name: enterprises.name,
  nameEn: englishOf(enterprises.translations, 'name'),
  creditCode: enterprises.creditCode,
  contacts: enterprises.contacts,
  contactsEn: englishOf(enterprises.translations, 'contacts'),
  estatus: enterprises.estatus,
  reviewReason: enterprises.reviewReason,
  reviewedAt: chinaTime(enterprises.reviewedAt),
  members: sql<number>`(SELECT count(*) FROM ${enterpriseMembers} WHERE enterprise_id = ${enterprises.id})`.mapWith(
    Number,
  ),
  createdAt: chinaTime(enterprises.createdAt),
});

export function createAdminRecordsRepository(db: Db) {
  return {
    async enterprises(tenantId: number, f: Page & { q?: string | undefined; estatus?: number | undefined }) {
      const rows = await db
        .select({
          ...applicationColumns(),
          total: totalRows(),
        })
        .from(enterprises)
        .where(
          and(
            eq(enterprises.tenantId, tenantId),
            f.estatus !== undefined ? eq(enterprises.estatus, f.estatus) : undefined,
            f.q
              ? sql`(${enterprises.name} ILIKE ${containing(f.q)} OR ${enterprises.creditCode} ILIKE ${containing(f.q)})`
              : undefined,
          ),
        )
        // The oldest waiting first: a queue.
        .orderBy(enterprises.createdAt, enterprises.id)
        .limit(f.limit)
        .offset((f.page - 1) * f.limit);
      return pageOf(rows) as { records: AdminEnterprise[]; total: number };
    },

    /**
     * One enterprise of the tenant with what was registered, and its registrant: the first member
     * (registration makes the registering person its first member in the same transaction).
     */
    async enterprise(tenantId: number, id: number) {
      const first = db
        .select({
          userId: enterpriseMembers.userId,
          joinedAt: enterpriseMembers.joinedAt,
        })
        .from(enterpriseMembers)
        .where(eq(enterpriseMembers.enterpriseId, enterprises.id))
        .orderBy(enterpriseMembers.joinedAt, enterpriseMembers.userId)
        .limit(1)
        .as('first_member');
      const [row] = await db
        .select({
          ...applicationColumns(),
          position: enterprises.position,
          positionEn: englishOf(enterprises.translations, 'position'),
          industryCode: enterprises.industryCode,
          regionCode: enterprises.regionCode,
          registrant: sql<RegistrantRow | null>`CASE WHEN ${users.id} IS NULL THEN NULL
            ELSE json_build_object('id', ${users.id}::text, 'username', ${users.username}, 'name', ${users.name},
              'nameEn', ${englishOf(users.translations, 'name')}, 'mobile', ${users.mobile},
              'mobileVerified', ${users.mobile} IS NOT NULL AND ${users.verifiedMobile} IS NOT DISTINCT FROM ${users.mobile},
              'joinedAt', ${chinaTime(first.joinedAt)}) END`,
        })
        .from(enterprises)
        .leftJoinLateral(first, sql`true`)
        .leftJoin(users, eq(users.id, first.userId))
        .where(and(eq(enterprises.id, id), eq(enterprises.tenantId, tenantId)));
      return row ?? null;
    },

    async review(tenantId: number, id: number, estatus: 1 | 2, reason: string | null): Promise<boolean> {
      const rows = await db
        .update(enterprises)
        .set({ estatus, reviewReason: reason, reviewedAt: sql`now()` })
        .where(and(eq(enterprises.id, id), eq(enterprises.tenantId, tenantId)))
        .returning({ id: enterprises.id });
      return rows.length > 0;
    },

    async ssoServices(tenantId: number): Promise<AdminSsoService[]> {
      return db
        .select({
          id: sql<string>`${ssoServices.id}::text`,
          name: ssoServices.name,
          nameEn: englishOf(ssoServices.translations, 'name'),
          pattern: ssoServices.pattern,
          sysCode: ssoServices.sysCode,
          entryUrl: ssoServices.entryUrl,
          logoutUrl: ssoServices.logoutUrl,
          enabled: ssoServices.enabled,
        })
        .from(ssoServices)
        .where(eq(ssoServices.tenantId, tenantId))
        .orderBy(ssoServices.id);
    },

    /**
     * Registers a service, unless `clashes` says its pattern overlaps one of another tenant's
     * (checked and written under one lock, so two registrations cannot both pass): 'clash'.
     */
    createSsoService(tenantId: number, s: SsoServiceInput, clashes: Clashes): Promise<number | 'clash'> {
      const { nameEn, ...fields } = s;
      return db.transaction(async (tx) => {
        if (await otherTenantsClash(tx, tenantId, s.pattern, clashes)) return 'clash';
        const [row] = await tx
          .insert(ssoServices)
          .values({ tenantId, ...fields, translations: nameEn ? { en: { name: nameEn } } : {} })
          .returning({ id: ssoServices.id });
        return row!.id;
      });
    },

    updateSsoService(tenantId: number, id: number, s: SsoServicePatch, clashes: Clashes): Promise<boolean | 'clash'> {
      return db.transaction(async (tx) => {
        const mine = and(eq(ssoServices.id, id), eq(ssoServices.tenantId, tenantId));
        if (s.pattern !== undefined && (await otherTenantsClash(tx, tenantId, s.pattern, clashes))) return 'clash';
        const { nameEn, ...fields } = s;
        const set = {
          ...fields,
          ...(nameEn !== undefined ? { translations: nameEn ? { en: { name: nameEn } } : {} } : {}),
        };
        if (Object.keys(set).length === 0)
          return (await tx.select({ id: ssoServices.id }).from(ssoServices).where(mine)).length > 0;
        const rows = await tx.update(ssoServices).set(set).where(mine).returning({ id: ssoServices.id });
        return rows.length > 0;
      });
    },

    async deleteSsoService(tenantId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(ssoServices)
        .where(and(eq(ssoServices.id, id), eq(ssoServices.tenantId, tenantId)))
        .returning({ id: ssoServices.id });
      return rows.length > 0;
    },

    async outbox(tenantId: number, f: Page & { q?: string | undefined }) {
      const rows = await db
        .select({
          id: sql<string>`${smsOutbox.id}::text`,
          phone: smsOutbox.phone,
          body: smsOutbox.body,
          createdAt: chinaTime(smsOutbox.createdAt),
          total: totalRows(),
        })
        .from(smsOutbox)
        .where(and(eq(smsOutbox.tenantId, tenantId), f.q ? like(smsOutbox.phone, containing(f.q)) : undefined))
        .orderBy(desc(smsOutbox.id))
        .limit(f.limit)
        .offset((f.page - 1) * f.limit);
      return pageOf(rows) as { records: OutboxMessage[]; total: number };
    },

    async audit(tenantId: number, f: Page & AuditFilter & { lang: Lang }) {
      const rows = await auditRows(db, tenantId, f)
        .limit(f.limit)
        .offset((f.page - 1) * f.limit);
      return pageOf(rows) as { records: AuditEntry[]; total: number };
    },

    /** The newest `max` entries the filter matches (no count of all: an export says only whether it was cut). */
    async auditExport(tenantId: number, f: AuditFilter & { lang: Lang }, max: number) {
      const rows = await auditRows(db, tenantId, f).limit(max + 1);
      return {
        records: rows.slice(0, max).map(({ total: _, ...r }) => r) as AuditEntry[],
        truncated: rows.length > max,
      };
    },
  };
}

/** What the audit log is filtered by (every part optional). */
export interface AuditFilter {
  /** A username (any case), or words of the actor's name in either language. */
  actor?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  /** The kind of object named (`enterprise`). */
  objectType?: string | undefined;
  /** The object's id, or words of its name (either language) or of its username. */
  object?: string | undefined;
}

const subjectField = (key: string) => sql<string>`${auditLog.detail}->'subject'->>${key}`;

/** The tenant's entries the filter matches, newest first, with the object and changes apart from the rest. */
function auditRows(db: Db, tenantId: number, f: AuditFilter & { lang: Lang }) {
  return db
    .select({
      id: sql<string>`${auditLog.id}::text`,
      at: chinaTime(auditLog.at),
      // A service account's row (ADR 056) names the account: 服务账户 <name> / Service account <name>.
      actor: sql<AuditEntry['actor']>`CASE WHEN ${users.id} IS NOT NULL
        THEN json_build_object('id', ${users.id}::text, 'username', ${users.username},
          'name', ${nameIn(f.lang, users.name, users.translations, 'name')})
        WHEN ${auditLog.detail} ? 'serviceAccount' THEN json_build_object(
          'id', ${auditLog.detail}->'serviceAccount'->>'clientId',
          'username', ${auditLog.detail}->'serviceAccount'->>'clientId',
          'name', ${f.lang === 'en' ? sql`'Service account ' || coalesce(nullif(${auditLog.detail}->'serviceAccount'->>'nameEn', ''), ${auditLog.detail}->'serviceAccount'->>'name')` : sql`'服务账户 ' || (${auditLog.detail}->'serviceAccount'->>'name')`})
        END`,
      action: auditLog.action,
      subject: sql<AuditEntry['subject']>`${auditLog.detail}->'subject'`,
      changes: sql<AuditEntry['changes']>`coalesce(${auditLog.detail}->'changes', '[]'::jsonb)`,
      detail: sql<AuditEntry['detail']>`${auditLog.detail} - 'subject' - 'changes'`,
      ip: auditLog.ip,
      total: totalRows(),
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(
      and(
        eq(auditLog.tenantId, tenantId),
        f.actor
          ? or(
              sql`lower(${users.username}) = lower(${f.actor})`,
              sql`${auditLog.detail}->'serviceAccount'->>'clientId' = ${f.actor}`,
              sql`${auditLog.detail}->'serviceAccount'->>'name' ILIKE ${containing(f.actor)}`,
              ilike(users.name, containing(f.actor)),
              ilike(englishOf(users.translations, 'name'), containing(f.actor)),
            )
          : undefined,
        f.action ? actionIs(f.action) : undefined,
        f.from ? gte(auditLog.at, instant(f.from, false)) : undefined,
        f.to ? lte(auditLog.at, instant(f.to, true)) : undefined,
        f.objectType ? sql`${subjectField('type')} = ${f.objectType}` : undefined,
        f.object
          ? or(
              sql`${subjectField('id')} = ${f.object}`,
              sql`${subjectField('name')} ILIKE ${containing(f.object)}`,
              sql`${subjectField('en')} ILIKE ${containing(f.object)}`,
              sql`${subjectField('username')} ILIKE ${containing(f.object)}`,
            )
          : undefined,
      ),
    )
    .orderBy(desc(auditLog.at), desc(auditLog.id));
}

export type AdminRecordsRepository = ReturnType<typeof createAdminRecordsRepository>;
