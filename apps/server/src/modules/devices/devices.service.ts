import { timingSafeEqual } from 'node:crypto';
import {
  ResultCode,
  type AdminDevice,
  type Device,
  type DeviceAlert,
  type DeviceCredential,
  type DeviceInput,
  type IngestBody,
  type NewDeviceCredential,
  type OpenAlertQuery,
  type OpenDeviceQuery,
} from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { newApiKey, sha256Hex } from '../../platform/hash.js';
import { rowId, type RequestedId } from '../../platform/ids.js';
import { localized, type Lang } from '../../platform/i18n.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ActiveSession } from '../../platform/session.js';
import { tenantInQuery } from '../../platform/tenants.js';
import type { DevicesRepository } from './devices.repository.js';

/** Operators register devices and their credentials. */
export const MANAGE_PERMISSION = 'device:manage';
/** Acknowledging and closing alerts. */
export const HANDLE_PERMISSION = 'alert:handle';
/** Posts one device may make a minute: a reading every few seconds, and room for bursts. */
const INGEST_PER_MINUTE = 60;
/**
 * Metric names one device keeps latest values of: a real device reports a handful, and the open
 * device views answer them all. A post that would add a name beyond this is refused whole (400);
 * the names it has keep reporting.
 */
const METRICS_PER_DEVICE = 64;
/** A reading may be this old, or this far ahead of the server's clock. */
const OLDEST_MS = 24 * 3_600_000;
const AHEAD_MS = 5 * 60_000;

type Row = Awaited<ReturnType<DevicesRepository['devices']>>['rows'][number];

const deviceOf = (lang: Lang, r: Omit<Row, 'total'>): Device => ({
  id: String(r.id),
  code: r.code,
  name: localized(lang, r, 'name'),
  type: r.type,
  location: localized(lang, r, 'location'),
  status: r.online ? 'online' : 'offline',
  lastSeen: r.lastSeen,
  latest: r.latest,
});

export interface DevicesServiceDeps {
  repo: DevicesRepository;
  guard: PermissionGuard;
  limiter: RateLimiter;
  /** The tenant's id a code names (400 租户不存在 for an unknown code). */
  tenantOf: (code: string | null | undefined) => Promise<number>;
}

/**
 * The park's devices and alerts (ADR 026): the open pages show what a tenant marks public to
 * anyone who names it; handling alerts needs `alert:handle`; operators register devices and make
 * and revoke their credentials (`device:manage`); devices post readings and alerts with a
 * credential, whose secret is kept only as a hash.
 */
export function createDevicesService(deps: DevicesServiceDeps) {
  const { repo, guard, limiter } = deps;

  return {
    async openDevices(q: OpenDeviceQuery, lang: Lang) {
      const tenantId = await deps.tenantOf(tenantInQuery(q));
      const { rows, total } = await repo.devices(
        tenantId,
        { publicOnly: true, type: q.type || null, status: q.status || null, q: q.q?.trim() || null },
        q.page ?? 1,
        q.limit ?? 10,
      );
      return { rows: rows.map((r) => deviceOf(lang, r)), total };
    },

    async openAlerts(q: OpenAlertQuery, lang: Lang) {
      const tenantId = await deps.tenantOf(tenantInQuery(q));
      const { rows, total } = await repo.alerts(
        tenantId,
        { publicOnly: true, severity: q.severity || null, state: q.state || null },
        q.page ?? 1,
        q.limit ?? 10,
      );
      return {
        rows: rows.map((r): DeviceAlert => ({
          id: String(r.id),
          deviceCode: r.deviceCode,
          deviceName: localized(lang, r.device, 'name'),
          location: localized(lang, r.device, 'location'),
          severity: r.severity,
          message: localized(lang, { message: r.message, translations: r.translations }, 'message'),
          state: r.state,
          raisedTime: r.raisedTime,
          handledTime: r.handledTime,
        })),
        total,
      };
    },

    /** 确认 (acknowledge) an open alert, or 关闭 (close) an open or acknowledged one. */
    async handleAlert(s: ActiveSession, id: number, action: 'acknowledge' | 'close'): Promise<void> {
      await guard.require(s, HANDLE_PERMISSION);
      const done =
        action === 'acknowledge'
          ? await repo.handle(s.tenantId, id, s.userId, 'acknowledged', ['open'])
          : await repo.handle(s.tenantId, id, s.userId, 'closed', ['open', 'acknowledged']);
      if (done) return;
      if (!(await repo.alertExists(s.tenantId, id))) throw new AppError(ResultCode.NOT_FOUND, 'alertNotFound');
      throw new AppError(ResultCode.CONFLICT, 'alertHandled');
    },

    async adminDevices(s: ActiveSession, lang: Lang): Promise<AdminDevice[]> {
      await guard.require(s, MANAGE_PERMISSION);
      return (await repo.allWithCredentials(s.tenantId)).map((r) => ({
        ...deviceOf(lang, r),
        isPublic: r.isPublic,
        credentials: r.credentials,
      }));
    },

    async saveDevice(s: ActiveSession, input: DeviceInput): Promise<string> {
      await guard.require(s, MANAGE_PERMISSION);
      const id = await repo.saveDevice({
        tenantId: s.tenantId,
        code: input.code,
        name: input.name.trim(),
        type: input.type,
        location: input.location.trim(),
        isPublic: input.isPublic,
        translations: input.translations ?? {},
      });
      return String(id);
    },

    /** A new credential of the device; its token is answered this once. */
    async addCredential(s: ActiveSession, requested: RequestedId): Promise<NewDeviceCredential> {
      await guard.require(s, MANAGE_PERMISSION);
      const deviceId = rowId(requested);
      if (!(await repo.deviceExists(s.tenantId, deviceId))) throw new AppError(ResultCode.NOT_FOUND, 'deviceNotFound');
      const made = newApiKey();
      const id = await repo.addCredential({
        tenantId: s.tenantId,
        deviceId,
        keyId: made.keyId,
        secretHash: made.secretHash,
        createdBy: s.userId,
      });
      return { id: String(id), keyId: made.keyId, token: made.token };
    },

    async credentials(s: ActiveSession, requested: RequestedId): Promise<DeviceCredential[]> {
      await guard.require(s, MANAGE_PERMISSION);
      const deviceId = rowId(requested);
      if (!(await repo.deviceExists(s.tenantId, deviceId))) throw new AppError(ResultCode.NOT_FOUND, 'deviceNotFound');
      return (await repo.credentials(s.tenantId, deviceId)).map((c) => ({ ...c, id: String(c.id) }));
    },

    async revoke(s: ActiveSession, id: RequestedId): Promise<void> {
      await guard.require(s, MANAGE_PERMISSION);
      if (!(await repo.revoke(s.tenantId, rowId(id)))) throw new AppError(ResultCode.NOT_FOUND, 'credentialNotFound');
    },

    /**
     * A device's post: its credential (`<keyId>.<secret>`) names it; a revoked, unknown or wrong one
     * is 401. Everything is checked before anything is stored; then all of it is stored at once.
     */
    async ingest(token: string | null, body: IngestBody): Promise<{ readings: number; alerts: number }> {
      const device = await authenticateDevice(token);
      await limiter.hit(`ingest:device:${device.deviceId}`, INGEST_PER_MINUTE, 60);
      const readings = body.readings ?? [];
      const alerts = body.alerts ?? [];
      if (readings.length + alerts.length === 0) throw new AppError(ResultCode.BAD_REQUEST, 'ingestEmpty');
      const at = Date.now();
      const timed = readings.map((r, i) => {
        const when = r.at ? new Date(r.at) : new Date(at);
        if (Number.isNaN(when.getTime()) || when.getTime() < at - OLDEST_MS || when.getTime() > at + AHEAD_MS) {
          throw new AppError(ResultCode.BAD_REQUEST, 'ingestTime', { n: i + 1 });
        }
        return { metric: r.metric, value: r.value, at: when };
      });
      const stored = await repo.ingest(
        device.tenantId,
        device.deviceId,
        timed,
        alerts.map((a) => ({
          severity: a.severity,
          message: a.message.trim(),
          messageEn: a.messageEn?.trim() || null,
        })),
        METRICS_PER_DEVICE,
      );
      if (stored === 'tooManyMetrics')
        throw new AppError(ResultCode.BAD_REQUEST, 'ingestTooManyMetrics', { max: METRICS_PER_DEVICE });
      return { readings: timed.length, alerts: alerts.length };
    },
  };

  async function authenticateDevice(token: string | null) {
    const m = token ? /^([A-Za-z0-9]{12})\.([A-Za-z0-9]{43})$/.exec(token) : null;
    const found = m ? await repo.credentialOf(m[1]!) : null;
    const given = Buffer.from(sha256Hex(m?.[2] ?? ''), 'hex');
    const kept = Buffer.from(found?.secretHash ?? '0'.repeat(64), 'hex');
    if (!found || !timingSafeEqual(given, kept)) throw new AppError(ResultCode.UNAUTHORIZED, 'deviceCredentialInvalid');
    // Used only once proven: a wrong secret under a known key id leaves no trace an operator would trust.
    await repo.markUsed(found.id);
    return found;
  }
}

export type DevicesService = ReturnType<typeof createDevicesService>;
