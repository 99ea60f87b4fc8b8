import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { chinaTime, totalRows } from '../../db/expressions.js';
import { deviceAlerts, deviceCredentials, deviceReadings, devices } from '../../db/schema.js';

/** A device is online when it reported within this many seconds. */
export const ONLINE_SECONDS = 300;
const online = sql<boolean>`coalesce(${devices.lastSeenAt} > now() - make_interval(secs => ${ONLINE_SECONDS}), false)`;

const deviceColumns = {
  id: devices.id,
  code: devices.code,
  name: devices.name,
  type: devices.type,
  location: devices.location,
  isPublic: devices.isPublic,
  online,
  lastSeen: chinaTime(devices.lastSeenAt),
  latest: devices.latest,
  translations: devices.translations,
};

export interface DeviceFilter {
  publicOnly: boolean;
  type: string | null;
  status: 'online' | 'offline' | null;
  q: string | null;
}

/** `%text%` for ILIKE with the pattern characters escaped. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createDevicesRepository(db: Db) {
  return {
    /** A page of the tenant's devices (only the public ones for the open pages), by code. */
    async devices(tenantId: number, f: DeviceFilter, page: number, limit: number) {
      const like = f.q ? containing(f.q) : null;
      const rows = await db
        .select({ ...deviceColumns, total: totalRows() })
        .from(devices)
        .where(
          and(
            eq(devices.tenantId, tenantId),
            f.publicOnly ? eq(devices.isPublic, true) : undefined,
            f.type ? eq(devices.type, f.type) : undefined,
            f.status === null ? undefined : f.status === 'online' ? online : sql`NOT ${online}`,
            like
              ? or(
                  ilike(devices.name, like),
                  ilike(devices.code, like),
                  ilike(devices.location, like),
                  sql`${devices.translations}::text ILIKE ${like}`,
                )
              : undefined,
          ),
        )
        .orderBy(asc(devices.code))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? 0 };
    },

    /** Every device of the tenant with the number of its live credentials (the operators' list). */
    async allWithCredentials(tenantId: number) {
      const live = db
        .select({ deviceId: deviceCredentials.deviceId, n: count().as('n') })
        .from(deviceCredentials)
        .where(and(eq(deviceCredentials.tenantId, tenantId), isNull(deviceCredentials.revokedAt)))
        .groupBy(deviceCredentials.deviceId)
        .as('live');
      return db
        .select({ ...deviceColumns, credentials: sql<number>`coalesce(${live.n}, 0)`.mapWith(Number) })
        .from(devices)
        .leftJoin(live, eq(live.deviceId, devices.id))
        .where(eq(devices.tenantId, tenantId))
        .orderBy(asc(devices.code));
    },

    async deviceExists(tenantId: number, id: number): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(devices)
        .where(and(eq(devices.tenantId, tenantId), eq(devices.id, id)));
      return rows.length > 0;
    },

    /** Registers a device, or replaces the one with the same code: one statement on the code's index. */
    async saveDevice(row: Omit<typeof devices.$inferInsert, 'id' | 'createdAt' | 'lastSeenAt' | 'latest'>) {
      const [saved] = await db
        .insert(devices)
        .values(row)
        .onConflictDoUpdate({
          target: [devices.tenantId, devices.code],
          set: {
            name: row.name,
            type: row.type,
            location: row.location,
            isPublic: row.isPublic,
            translations: row.translations,
          },
        })
        .returning({ id: devices.id });
      return saved!.id;
    },

    async addCredential(row: typeof deviceCredentials.$inferInsert): Promise<number> {
      const [saved] = await db.insert(deviceCredentials).values(row).returning({ id: deviceCredentials.id });
      return saved!.id;
    },

    async credentials(tenantId: number, deviceId: number) {
      return db
        .select({
          id: deviceCredentials.id,
          keyId: deviceCredentials.keyId,
          createdTime: chinaTime(deviceCredentials.createdAt),
          lastUsedTime: chinaTime(deviceCredentials.lastUsedAt),
          revokedTime: chinaTime(deviceCredentials.revokedAt),
        })
        .from(deviceCredentials)
        .where(and(eq(deviceCredentials.tenantId, tenantId), eq(deviceCredentials.deviceId, deviceId)))
        .orderBy(desc(deviceCredentials.id));
    },

    /** Revokes a live credential of the tenant; false when it has none by that id (or it is revoked). */
    async revoke(tenantId: number, id: number): Promise<boolean> {
      const done = await db
        .update(deviceCredentials)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(deviceCredentials.tenantId, tenantId),
            eq(deviceCredentials.id, id),
            isNull(deviceCredentials.revokedAt),
          ),
        )
        .returning({ id: deviceCredentials.id });
      return done.length > 0;
    },

    /** The live credential a key id names, with its device's tenant (read only: its secret is checked next). */
    async credentialOf(keyId: string) {
      const [row] = await db
        .select({
          id: deviceCredentials.id,
          deviceId: deviceCredentials.deviceId,
          tenantId: deviceCredentials.tenantId,
          secretHash: deviceCredentials.secretHash,
        })
        .from(deviceCredentials)
        .where(and(eq(deviceCredentials.keyId, keyId), isNull(deviceCredentials.revokedAt)));
      return row ?? null;
    },

    /** Marks a credential used, once its secret was found right. */
    async markUsed(id: number): Promise<void> {
      await db
        .update(deviceCredentials)
        .set({ lastUsedAt: sql`now()` })
        .where(eq(deviceCredentials.id, id));
    },

    /**
     * Stores a device's readings and alerts and moves its last-seen time and latest values, in one
     * transaction: a payload is kept whole or not at all. The latest values keep at most
     * `maxMetrics` names: a payload that would add more stores nothing ('tooManyMetrics').
     */
    async ingest(
      tenantId: number,
      deviceId: number,
      readings: { metric: string; value: number; at: Date }[],
      alerts: { severity: string; message: string; messageEn: string | null }[],
      maxMetrics: number,
    ): Promise<'done' | 'tooManyMetrics'> {
      return db.transaction(async (tx) => {
        // The device's row, locked: two posts at once cannot each add the last name that fits.
        const [device] = await tx
          .select({ latest: devices.latest })
          .from(devices)
          .where(and(eq(devices.tenantId, tenantId), eq(devices.id, deviceId)))
          .for('update');
        const names = new Set([...Object.keys(device?.latest ?? {}), ...readings.map((r) => r.metric)]);
        if (names.size > maxMetrics) return 'tooManyMetrics';
        if (readings.length > 0) {
          await tx
            .insert(deviceReadings)
            .values(readings.map((r) => ({ tenantId, deviceId, metric: r.metric, value: r.value, recordedAt: r.at })));
        }
        if (alerts.length > 0) {
          await tx.insert(deviceAlerts).values(
            alerts.map((a) => ({
              tenantId,
              deviceId,
              severity: a.severity,
              message: a.message,
              translations: a.messageEn ? { en: { message: a.messageEn } } : {},
            })),
          );
        }
        // The latest value of each metric: the newest reading of this payload per metric.
        const latest: Record<string, number> = {};
        for (const r of [...readings].sort((x, y) => x.at.getTime() - y.at.getTime())) latest[r.metric] = r.value;
        await tx
          .update(devices)
          .set({ lastSeenAt: sql`now()`, latest: sql`${devices.latest} || ${JSON.stringify(latest)}::jsonb` })
          .where(and(eq(devices.tenantId, tenantId), eq(devices.id, deviceId)));
        return 'done';
      });
    },

    /** A page of the tenant's alerts, newest first (only of public devices for the open pages). */
    async alerts(
      tenantId: number,
      f: { publicOnly: boolean; severity: string | null; state: string | null },
      page: number,
      limit: number,
    ) {
      const rows = await db
        .select({
          id: deviceAlerts.id,
          deviceCode: devices.code,
          device: { name: devices.name, location: devices.location, translations: devices.translations },
          severity: deviceAlerts.severity,
          message: deviceAlerts.message,
          translations: deviceAlerts.translations,
          state: deviceAlerts.state,
          raisedTime: chinaTime(deviceAlerts.raisedAt),
          handledTime: chinaTime(sql`coalesce(${deviceAlerts.closedAt}, ${deviceAlerts.acknowledgedAt})`),
          total: totalRows(),
        })
        .from(deviceAlerts)
        .innerJoin(devices, eq(devices.id, deviceAlerts.deviceId))
        .where(
          and(
            eq(deviceAlerts.tenantId, tenantId),
            f.publicOnly ? eq(devices.isPublic, true) : undefined,
            f.severity ? eq(deviceAlerts.severity, f.severity) : undefined,
            f.state ? eq(deviceAlerts.state, f.state) : undefined,
          ),
        )
        .orderBy(desc(deviceAlerts.raisedAt), desc(deviceAlerts.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? 0 };
    },

    /**
     * Moves an alert of the tenant to `state` from one of `from`, in one statement (two handlers at
     * once move it once); false when it has no such alert in such a state.
     */
    async handle(tenantId: number, id: number, userId: number, state: 'acknowledged' | 'closed', from: string[]) {
      const set =
        state === 'acknowledged'
          ? { state, acknowledgedAt: sql`now()`, acknowledgedBy: userId }
          : { state, closedAt: sql`now()`, closedBy: userId };
      const done = await db
        .update(deviceAlerts)
        .set(set)
        .where(and(eq(deviceAlerts.tenantId, tenantId), eq(deviceAlerts.id, id), inArray(deviceAlerts.state, from)))
        .returning({ id: deviceAlerts.id });
      return done.length > 0;
    },

    async alertExists(tenantId: number, id: number): Promise<boolean> {
      const rows = await db
        .select({ one: sql`1` })
        .from(deviceAlerts)
        .where(and(eq(deviceAlerts.tenantId, tenantId), eq(deviceAlerts.id, id)));
      return rows.length > 0;
    },
  };
}

export type DevicesRepository = ReturnType<typeof createDevicesRepository>;
