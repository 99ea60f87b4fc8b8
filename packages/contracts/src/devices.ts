/**
 * Devices and alerts (ADR 026): the open pages, the operators' API and the ingest API.
 */
import { Type, type Static } from 'typebox';
import { Nullable, Text, PageQuery } from './fields.js';

export const DEVICE_TYPES = ['meter', 'sensor', 'camera', 'hvac', 'lift', 'gate'] as const;
export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const ALERT_STATES = ['open', 'acknowledged', 'closed'] as const;
const TenantQuery = {
  tc: Type.Optional(Text(64)),
  tenantCode: Type.Optional(Text(64)),
};
export const OpenDeviceQuery = Type.Object({
  ...TenantQuery,
  page: PageQuery.properties.page,
  limit: PageQuery.properties.limit,
  type: Type.Optional(Type.Union([Type.Enum([...DEVICE_TYPES]), Type.Literal('')])),
  status: Type.Optional(Type.Union([Type.Enum(['online', 'offline']), Type.Literal('')])),
  /** Contained in the name, code or location (either language). */
  q: Type.Optional(Text(60)),
});
export type OpenDeviceQuery = Static<typeof OpenDeviceQuery>;
export const Device = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  type: Type.String(),
  location: Type.String(),
  status: Type.Union([Type.Literal('online'), Type.Literal('offline')]),
  /** `YYYY-MM-DD HH:mm:ss` China time, or null when it never reported. */
  lastSeen: Nullable(Type.String()),
  latest: Type.Record(Type.String(), Type.Number()),
});
export type Device = Static<typeof Device>;
export const OpenAlertQuery = Type.Object({
  ...TenantQuery,
  page: PageQuery.properties.page,
  limit: PageQuery.properties.limit,
  severity: Type.Optional(Type.Union([Type.Enum([...ALERT_SEVERITIES]), Type.Literal('')])),
  state: Type.Optional(Type.Union([Type.Enum([...ALERT_STATES]), Type.Literal('')])),
});
export type OpenAlertQuery = Static<typeof OpenAlertQuery>;
export const DeviceAlert = Type.Object({
  id: Type.String(),
  deviceCode: Type.String(),
  deviceName: Type.String(),
  location: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  state: Type.String(),
  raisedTime: Type.String(),
  handledTime: Nullable(Type.String()),
});
export type DeviceAlert = Static<typeof DeviceAlert>;

/** The operators' registration of a device (created, or replaced by its code). */
export const DeviceInput = Type.Object({
  code: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$' }),
  name: Type.String({ minLength: 1, maxLength: 60 }),
  type: Type.Enum([...DEVICE_TYPES]),
  location: Type.String({ minLength: 1, maxLength: 100 }),
  isPublic: Type.Boolean(),
  translations: Type.Optional(
    Type.Object({
      en: Type.Optional(Type.Object({ name: Type.Optional(Text(60)), location: Type.Optional(Text(100)) })),
    }),
  ),
});
export type DeviceInput = Static<typeof DeviceInput>;
export const AdminDevice = Type.Object({
  ...Device.properties,
  isPublic: Type.Boolean(),
  credentials: Type.Integer({ minimum: 0 }),
});
export type AdminDevice = Static<typeof AdminDevice>;
/** A new credential: `token` (key id and secret) is shown this once; only its hash is kept. */
export const NewDeviceCredential = Type.Object({ id: Type.String(), keyId: Type.String(), token: Type.String() });
export type NewDeviceCredential = Static<typeof NewDeviceCredential>;
export const DeviceCredential = Type.Object({
  id: Type.String(),
  keyId: Type.String(),
  createdTime: Type.String(),
  lastUsedTime: Nullable(Type.String()),
  revokedTime: Nullable(Type.String()),
});
export type DeviceCredential = Static<typeof DeviceCredential>;

/** The ingest API's body (`Authorization: Bearer <keyId>.<secret>`): readings and alerts of one device. */
export const IngestBody = Type.Object({
  readings: Type.Optional(
    Type.Array(
      Type.Object({
        metric: Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }),
        value: Type.Number({ minimum: -1e9, maximum: 1e9 }),
        /** ISO 8601 with a zone; absent: now. At most 24 h old and 5 min ahead. */
        at: Type.Optional(
          Type.String({
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$',
            maxLength: 40,
            examples: ['2026-11-24T10:00:00Z'],
          }),
        ),
      }),
      { maxItems: 100 },
    ),
  ),
  alerts: Type.Optional(
    Type.Array(
      Type.Object({
        severity: Type.Enum([...ALERT_SEVERITIES]),
        message: Type.String({ minLength: 1, maxLength: 200 }),
        messageEn: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      }),
      { maxItems: 5 },
    ),
  ),
});
export type IngestBody = Static<typeof IngestBody>;
export const Ingested = Type.Object({ readings: Type.Integer(), alerts: Type.Integer() });
