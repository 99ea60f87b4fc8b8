/**
 * The park at a glance (ADR 027: /user/dashboard and /workscreen, docs/product/screens.md#open-routes): aggregate,
 * public figures of one tenant, for anyone who names it (ADR 027).
 */
import { Type, type Static } from 'typebox';

export const OpenDashboardQuery = Type.Object({
  tc: Type.Optional(Type.String({ maxLength: 64, examples: ['demo'] })),
  tenantCode: Type.Optional(Type.String({ maxLength: 64, examples: ['demo'] })),
});
export type OpenDashboardQuery = Static<typeof OpenDashboardQuery>;

/** A count under a name in the reader's language; `code` '' is the bucket of rows with none. */
export const NamedCount = Type.Object({ code: Type.String(), name: Type.String(), count: Type.Integer() });
export type NamedCount = Static<typeof NamedCount>;

export const Dashboard = Type.Object({
  /** The park's (tenant's) name in the reader's language. */
  park: Type.String(),
  /** When the figures were read, `YYYY-MM-DD HH:mm:ss` China time. */
  generatedTime: Type.String(),
  enterprises: Type.Object({
    /** Resident enterprises: registrations the park has passed (estatus 1). */
    total: Type.Integer(),
    /** Registrations this calendar month (China time), whatever their review. */
    registeredThisMonth: Type.Integer(),
    /** Resident enterprises by GB/T 4754 section (门类), most first. */
    byIndustry: Type.Array(NamedCount),
    /** Resident enterprises by province (GB/T 2260, first two digits), most first. */
    byRegion: Type.Array(NamedCount),
  }),
  /** Registrations per month, the last 12 months (China time), oldest first; `month` is `YYYY-MM`. */
  registrations: Type.Array(Type.Object({ month: Type.String(), count: Type.Integer() })),
  /** Public devices only; online = a reading within the last 5 minutes (ADR 026). */
  devices: Type.Object({
    total: Type.Integer(),
    online: Type.Integer(),
    byType: Type.Array(Type.Object({ type: Type.String(), total: Type.Integer(), online: Type.Integer() })),
  }),
  /** Open alerts of public devices, by severity (every severity, zero included). */
  alerts: Type.Object({
    open: Type.Integer(),
    bySeverity: Type.Array(Type.Object({ severity: Type.String(), count: Type.Integer() })),
  }),
});
export type Dashboard = Static<typeof Dashboard>;
