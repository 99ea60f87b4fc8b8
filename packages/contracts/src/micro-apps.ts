/**
 * Registered applications of a tenant (ADR 025): sub-applications the shell loads and services it
 * frames, as members and as operators see them.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './fields.js';

/**
 * A registered application of the tenant (docs/product/data.md#micro-app-entry): service type 0 a sub-application the host
 * loads (its menu entries carry `code` as their module), 1 a service shown in a frame. `entry` is
 * an absolute http(s) address or a path on the portal's own origin.
 */
export const MicroApp = Type.Object({
  name: Type.String(),
  code: Type.String(),
  entry: Type.String(),
  serviceType: Type.Integer(),
});
export type MicroApp = Static<typeof MicroApp>;
export const MICRO_APP_CODE = '^[a-z][a-z0-9-]{1,39}$';
export const TenantIdParams = Type.Object({ tenantId: Type.String({ maxLength: 64 }) });

/** The operators' registration of an application (ADR 025): created, or replaced by its code. */
export const MicroAppInput = Type.Object({
  code: Type.String({ pattern: MICRO_APP_CODE }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  entry: Type.String({ minLength: 1, maxLength: 1024 }),
  serviceType: Type.Union([Type.Literal(0), Type.Literal(1)]),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  translations: Type.Optional(
    Type.Object({ en: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 100 })) })) }),
  ),
});
export type MicroAppInput = Static<typeof MicroAppInput>;
/** An application as operators see it: with its id, and its entry's origin (the allow-list). */
export const RegisteredApp = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  entry: Type.String(),
  serviceType: Type.Integer(),
  sort: Type.Integer(),
  origin: Type.String(),
});
export type RegisteredApp = Static<typeof RegisteredApp>;
/** getDefaultSubManList (docs/product/data.md#sub-management): the park's own home page. */
export const SubManagement = Type.Object({ homeUrl: Nullable(Type.String()) });
export type SubManagement = Static<typeof SubManagement>;
