import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { deviceAlerts, devices, enterprises, tenants } from '../../db/schema.js';

/** An enterprise the park has passed (docs/product/behaviour.md#enterprise-status): what the open pages call resident. */
const RESIDENT = 1;

/** The first of the month, China time, `months` months before the current one, as a timestamp. */
const monthStart = (monthsBack: number) =>
  sql`(date_trunc('month', now() AT TIME ZONE 'Asia/Shanghai') - make_interval(months => ${monthsBack})) AT TIME ZONE 'Asia/Shanghai'`;

/**
 * The open dashboard's figures (ADR 027): counts grouped in the database, never a row of a person
 * or an enterprise. Each function is one statement on one tenant; the service runs them together.
 */
export function createOpenPagesRepository(db: Db, { onlineSeconds }: { onlineSeconds: number }) {
  // The device pages' rule (ADR 026), handed over by app.ts: a reading within the window.
  const online = sql`${devices.lastSeenAt} > now() - make_interval(secs => ${onlineSeconds})`;
  return {
    /** The park's name for the page's header, with its translations (ADR 020). */
    async park(tenantId: number) {
      const [row] = await db
        .select({ name: tenants.name, translations: tenants.translations })
        .from(tenants)
        .where(eq(tenants.id, tenantId));
      return row ?? null;
    },

    /** Resident enterprises by their industry code as registered (any level; null when none). */
    async residentsByIndustry(tenantId: number) {
      return db
        .select({ code: enterprises.industryCode, count: count() })
        .from(enterprises)
        .where(and(eq(enterprises.tenantId, tenantId), eq(enterprises.estatus, RESIDENT)))
        .groupBy(enterprises.industryCode);
    },

    /** Resident enterprises by province: the first two digits of the region code (GB/T 2260). */
    async residentsByProvince(tenantId: number) {
      const province = sql<string | null>`left(${enterprises.regionCode}, 2)`;
      return db
        .select({ code: province, count: count() })
        .from(enterprises)
        .where(and(eq(enterprises.tenantId, tenantId), eq(enterprises.estatus, RESIDENT)))
        .groupBy(province);
    },

    /**
     * Registrations (enterprises created, whatever their review) per month, China time, from the
     * first of the month `months - 1` months ago; months without any are absent.
     */
    async registrationsByMonth(tenantId: number, months: number) {
      const month = sql<string>`to_char(${enterprises.createdAt} AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM')`;
      return db
        .select({ month, count: count() })
        .from(enterprises)
        .where(and(eq(enterprises.tenantId, tenantId), gte(enterprises.createdAt, monthStart(months - 1))))
        .groupBy(month);
    },

    /** Public devices by type: how many, and how many reported within the online window. */
    async publicDevicesByType(tenantId: number) {
      return db
        .select({
          type: devices.type,
          total: count(),
          online: sql<number>`count(*) FILTER (WHERE ${online})`.mapWith(Number),
        })
        .from(devices)
        .where(and(eq(devices.tenantId, tenantId), eq(devices.isPublic, true)))
        .groupBy(devices.type);
    },

    /** Open alerts of public devices by severity (an alert is public when its device is, ADR 026). */
    async openAlertsBySeverity(tenantId: number) {
      return db
        .select({ severity: deviceAlerts.severity, count: count() })
        .from(deviceAlerts)
        .innerJoin(devices, eq(devices.id, deviceAlerts.deviceId))
        .where(and(eq(deviceAlerts.tenantId, tenantId), eq(deviceAlerts.state, 'open'), eq(devices.isPublic, true)))
        .groupBy(deviceAlerts.severity);
    },

    /**
     * The database's clock in China time: the moment the figures describe and the month they end
     * in, from the same clock the month filter used. Not a statement on a table, so a raw one
     * (ADR 022 §3).
     */
    async now(): Promise<string> {
      const { rows } = await db.execute<{ time: string }>(
        sql`SELECT to_char(now() AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI:SS') AS time`,
      );
      return rows[0]!.time;
    },
  };
}

export type OpenPagesRepository = ReturnType<typeof createOpenPagesRepository>;
