/**
 * The one Drizzle schema (ADR 022). Every row that belongs to a tenant carries tenant_id;
 * repositories filter by the caller's tenant on every query.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { PageDocument, WorkbenchLayout } from '@portal/contracts';
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const ref = (name: string) => bigint(name, { mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/**
 * A row's names in other languages than Chinese (ADR 020): `{ en: { name: 'Demo Park' } }`. The
 * Chinese columns stay the names of record; a missing translation falls back to them.
 */
export type Translations<T> = { en?: Partial<T> };
const translations = <T>() => jsonb('translations').notNull().default({}).$type<Translations<T>>();
type Named = { name: string };
type Titled = { title: string };

const tenantRef = () =>
  ref('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    /** The park's own home page (docs/product/data.md#sub-management, `homeUrl`). */
    homeUrl: text('home_url'),
    translations: translations<Named>(),
    /** The platform tenant (at most one): its operators administer every tenant (ADR 031). */
    platform: boolean('platform').notNull().default(false),
    /** A disabled tenant's users cannot sign in; its open pages and config answer as before. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** The runtime switches the tenant set for itself (contracts TenantSettings); absent keys follow the installation. */
    settings: jsonb('settings').notNull().default({}).$type<Record<string, unknown>>(),
    /**
     * The tenant's sign-in policy (contracts SecurityPolicy): second factors, remembered browsers,
     * step-up, passwords, login history. Absent keys take the product's defaults. Never served to
     * pages as it is: config.js carries only what a sign-in or password form must show.
     */
    securityPolicy: jsonb('security_policy').notNull().default({}).$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tenants_platform')
      .on(t.platform)
      .where(sql`platform`),
  ],
);

export const roles = pgTable(
  'roles',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    title: text('title').notNull(),
    translations: translations<Titled>(),
    /** The role a self-registered user gets (ADR 010); at most one per tenant. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('roles_tenant_code').on(t.tenantId, t.code),
    uniqueIndex('roles_tenant_default')
      .on(t.tenantId)
      .where(sql`is_default`),
  ],
);

export const applications = pgTable(
  'applications',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    translations: translations<Named>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('applications_tenant_code').on(t.tenantId, t.code)],
);

export const workbenches = pgTable(
  'workbenches',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    translations: translations<Named>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('workbenches_tenant_code').on(t.tenantId, t.code)],
);

export const enterprises = pgTable(
  'enterprises',
  {
    id: id(),
    tenantId: tenantRef(),
    guid: uuid('guid').notNull().defaultRandom().unique(),
    name: text('name').notNull(),
    /** English of the name and of the contact and position given at registration (ADR 020). */
    translations: translations<Named & { contacts?: string; position?: string }>(),
    creditCode: text('credit_code'),
    industryCode: text('industry_code'),
    regionCode: text('region_code'),
    /** The contact person and position given at registration. */
    contacts: text('contacts'),
    position: text('position'),
    /** 0 unreviewed, 1 passed, 2 not passed (docs/product/behaviour.md#enterprise-status). */
    estatus: smallint('estatus').notNull().default(0),
    /** An operator's review (ADR 031): why it did not pass, which the members see. */
    reviewReason: text('review_reason'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('enterprises_tenant').on(t.tenantId), uniqueIndex('enterprises_tenant_name').on(t.tenantId, t.name)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    tenantId: tenantRef(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    translations: translations<Named>(),
    nickname: text('nickname'),
    mobile: text('mobile'),
    /**
     * The number last proven to be this user's own: an SMS code sent to it was checked for this
     * account (registration with SMS, a password reset by SMS, 验证手机号), or an operator gave it
     * to another user. The number is proven while it equals `mobile`, so any change of `mobile`
     * that does not write this too leaves it unproven. Only a proven number takes up enterprise
     * invitations (ADR 023).
     */
    verifiedMobile: text('verified_mobile'),
    image: text('image'),
    homeUri: text('home_uri'),
    defaultRoleId: ref('default_role_id').references(() => roles.id, { onDelete: 'set null' }),
    defaultApplicationId: ref('default_application_id').references(() => applications.id, { onDelete: 'set null' }),
    defaultWorkbenchId: ref('default_workbench_id').references(() => workbenches.id, { onDelete: 'set null' }),
    defaultEnterpriseId: ref('default_enterprise_id').references(() => enterprises.id, { onDelete: 'set null' }),
    /** Consecutive failed logins since the last success (lockout, see docs/decisions/003). */
    failedLogins: integer('failed_logins').notNull().default(0),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** Set by an operator: the user cannot sign in, and every session ended when it was set. */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /**
     * The password was set by someone else (the bootstrap, an operator): a session can only change
     * it or log out until the user sets their own (ADR 033).
     */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /**
     * The user's OpenID Connect subject (`sub`): random, fixed for the account's life, never the
     * username (which an operator can change) nor the row id (which says how many accounts exist).
     */
    subject: uuid('subject').notNull().defaultRandom().unique(),
    /** When the password was last set (its age, for the tenant's password expiry). */
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When a policy first required this user to have a second factor and they had none: the grace
     * period to enrol runs from here. Cleared once a factor is enrolled.
     */
    factorDueSince: timestamp('factor_due_since', { withTimezone: true }),
    /** An operator reset the user's factors: they are told so at their next sign-in, then this clears. */
    factorsResetAt: timestamp('factors_reset_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One account per name whatever its case (login still matches the name as registered).
    uniqueIndex('users_tenant_username').on(t.tenantId, sql`lower(${t.username})`),
    uniqueIndex('users_tenant_mobile')
      .on(t.tenantId, t.mobile)
      .where(sql`mobile IS NOT NULL`),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: ref('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const userApplications = pgTable(
  'user_applications',
  {
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    applicationId: ref('application_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.applicationId] })],
);

export const userWorkbenches = pgTable(
  'user_workbenches',
  {
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workbenchId: ref('workbench_id')
      .notNull()
      .references(() => workbenches.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.workbenchId] })],
);

export const enterpriseMembers = pgTable(
  'enterprise_members',
  {
    enterpriseId: ref('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: createdAt(),
  },
  // By user too: a member's enterprises, newest first (joinEntList), without reading the whole table.
  (t) => [
    primaryKey({ columns: [t.enterpriseId, t.userId] }),
    index('enterprise_members_user').on(t.userId, t.joinedAt),
  ],
);

/**
 * 邀请成员: a mobile number invited into an enterprise by one of its administrators. Whoever has
 * that number in the tenant joins at their next sign-in (auth's open-session statement), also
 * right after registering; an invitation is open until then, revoked or expired.
 */
export const enterpriseInvitations = pgTable(
  'enterprise_invitations',
  {
    id: id(),
    tenantId: tenantRef(),
    enterpriseId: ref('enterprise_id')
      .notNull()
      .references(() => enterprises.id, { onDelete: 'cascade' }),
    mobile: text('mobile').notNull(),
    invitedBy: ref('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    joinedUserId: ref('joined_user_id').references(() => users.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('enterprise_invitations_enterprise').on(t.enterpriseId, t.createdAt),
    // A sign-in looks up its number's open invitations; at most one open per number and enterprise.
    uniqueIndex('enterprise_invitations_open')
      .on(t.tenantId, t.mobile, t.enterpriseId)
      .where(sql`joined_at IS NULL AND revoked_at IS NULL`),
  ],
);

export const menus = pgTable(
  'menus',
  {
    id: id(),
    tenantId: tenantRef(),
    applicationId: ref('application_id').references(() => applications.id, { onDelete: 'cascade' }),
    parentId: ref('parent_id'),
    name: text('name').notNull(),
    path: text('path').notNull(),
    component: text('component').notNull().default(''),
    redirect: text('redirect'),
    /** "0" marks an entry that is not routed (docs/product/screens.md#menu-routes). */
    route: text('route').notNull().default('1'),
    hidden: boolean('hidden').notNull().default(false),
    sort: integer('sort').notNull().default(0),
    /** 1 is an external-service page (docs/product/screens.md#menu-routes). */
    serviceType: smallint('service_type').notNull().default(0),
    module: text('module'),
    meta: jsonb('meta').notNull().$type<Record<string, unknown>>(),
    /** The entry's meta.title in other languages. */
    translations: translations<Titled>(),
  },
  (t) => [index('menus_tenant').on(t.tenantId)],
);

/**
 * Pages made with the drag-page builder (ADR 028); a menu entry shows one by its code
 * (meta.pageId): the version published, if any.
 */
export const pageDefinitions = pgTable(
  'page_definitions',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    publishedVersion: integer('published_version'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('page_definitions_tenant_code').on(t.tenantId, t.code)],
);

/**
 * Every saved version of a page, never changed by the portal once written: restoring copies one into
 * a new version. (The demo seed's one-time upgrade of its link paths rewrites its own pages' versions.)
 */
export const pageVersions = pgTable(
  'page_versions',
  {
    pageId: ref('page_id')
      .notNull()
      .references(() => pageDefinitions.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The PageDocument (contracts), checked by its schema when saved. */
    document: jsonb('document').notNull().$type<PageDocument>(),
    createdBy: ref('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    restoredFrom: integer('restored_from'),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.version] })],
);

/** My workbench's arrangement (docs/product/screens.md#fixed-routes /workStand), one per user and tenant. */
export const workbenchLayouts = pgTable(
  'workbench_layouts',
  {
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    layout: jsonb('layout').notNull().$type<WorkbenchLayout>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: ref('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    menuId: ref('menu_id')
      .notNull()
      .references(() => menus.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

export const permissions = pgTable(
  'permissions',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    describe: text('describe').notNull(),
    /** 1 button/action, 2 ignored by the UI guard (docs/product/permissions.md#action-codes). */
    type: smallint('type').notNull().default(1),
    /** 1 enforced, 0 not enforced (shown to everyone). */
    status: smallint('status').notNull().default(1),
  },
  (t) => [uniqueIndex('permissions_tenant_code').on(t.tenantId, t.code)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: ref('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: ref('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

/**
 * The tenant's registered applications (docs/product/data.md#micro-app-entry, ADR 025): service type 0 a
 * sub-application the micro-frontend host loads (its menu entries carry its code as `module`),
 * 1 a service shown in a frame. Their origins are the tenant's allow-list: the only ones the
 * portal frames, and the ones its content security policy names.
 */
export const microApps = pgTable(
  'micro_apps',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** An absolute http(s) address, or a path on the portal's own origin (`/micro/park-services/`). */
    entry: text('entry').notNull(),
    serviceType: smallint('service_type').notNull().default(0),
    sort: integer('sort').notNull().default(0),
    translations: translations<Named>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('micro_apps_tenant_code').on(t.tenantId, t.code)],
);

/** 物业报修 of the demo sub-application (apps/demo-micro-app): a tenant's repair requests. */
export const parkRepairs = pgTable(
  'park_repairs',
  {
    id: id(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    location: text('location').notNull(),
    description: text('description').notNull().default(''),
    /** 0 submitted, 1 in progress, 2 done. */
    status: smallint('status').notNull().default(0),
    /** A request is shown as written; the demo's seeded ones carry their English (ADR 020). */
    translations: translations<{ title: string; location: string; description: string }>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('park_repairs_tenant').on(t.tenantId, t.createdAt)],
);

/** 会议室预约 of the demo sub-application: a tenant's meeting rooms. */
export const parkRooms = pgTable(
  'park_rooms',
  {
    id: id(),
    tenantId: tenantRef(),
    name: text('name').notNull(),
    capacity: integer('capacity').notNull(),
    translations: translations<Named>(),
  },
  (t) => [uniqueIndex('park_rooms_tenant_name').on(t.tenantId, t.name)],
);

/**
 * Bookings of a room. Two bookings of one room never overlap: an exclusion constraint (migration
 * 0011, btree_gist) decides, so two people booking the same hour at once get one booking.
 */
export const parkBookings = pgTable(
  'park_bookings',
  {
    id: id(),
    tenantId: tenantRef(),
    roomId: ref('room_id')
      .notNull()
      .references(() => parkRooms.id, { onDelete: 'cascade' }),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('park_bookings_room').on(t.roomId, t.startsAt)],
);

/**
 * The park's IoT devices (ADR 026): meters, sensors, cameras, lifts. `status` follows the last
 * reading (online within the tenant's window, else offline), `isPublic` lets the open device pages
 * and the dashboard show it to anyone who names the tenant.
 */
export const devices = pgTable(
  'devices',
  {
    id: id(),
    tenantId: tenantRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** `meter`, `sensor`, `camera`, `hvac`, `lift`, `gate`. */
    type: text('type').notNull(),
    location: text('location').notNull(),
    isPublic: boolean('is_public').notNull().default(false),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** The latest value of each metric the device reported: `{ "temperature": 23.5 }`. */
    latest: jsonb('latest')
      .notNull()
      .default(sql`'{}'::jsonb`)
      .$type<Record<string, number>>(),
    translations: translations<{ name: string; location: string }>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('devices_tenant_code').on(t.tenantId, t.code)],
);

/**
 * A device's credentials for the ingest API: the key id is public, the 256-bit secret is shown once
 * when it is made and kept only as its SHA-256, so a stolen table opens nothing.
 */
export const deviceCredentials = pgTable(
  'device_credentials',
  {
    id: id(),
    tenantId: tenantRef(),
    deviceId: ref('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    keyId: text('key_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    createdBy: ref('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('device_credentials_device').on(t.deviceId)],
);

/** Readings the devices posted: one row per metric and time. */
export const deviceReadings = pgTable(
  'device_readings',
  {
    id: id(),
    tenantId: tenantRef(),
    deviceId: ref('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    metric: text('metric').notNull(),
    value: doublePrecision('value').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('device_readings_device').on(t.deviceId, t.recordedAt),
    // Housekeeping drops readings past 30 days by this.
    index('device_readings_time').on(t.recordedAt),
  ],
);

/** Alerts the devices raised: open until someone with `alert:handle` acknowledges or closes them. */
export const deviceAlerts = pgTable(
  'device_alerts',
  {
    id: id(),
    tenantId: tenantRef(),
    deviceId: ref('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    /** `info`, `warning` or `critical`. */
    severity: text('severity').notNull(),
    message: text('message').notNull(),
    translations: translations<{ message: string }>(),
    /** `open`, `acknowledged` or `closed`. */
    state: text('state').notNull().default('open'),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: ref('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: ref('closed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('device_alerts_tenant').on(t.tenantId, t.state, t.raisedAt)],
);

/** Who a notice goes to (ADR 024): fixed into recipient rows when it is published. */
export type NoticeAudience =
  | { kind: 'tenant' }
  | { kind: 'enterprise'; ids: number[] }
  | { kind: 'role'; ids: number[] }
  | { kind: 'users'; ids: number[] };

/** A file reference inside a notice or a reply: the stored path and the name it was uploaded with. */
export type StoredFileRef = { addr: string; fileName: string };

export const notices = pgTable(
  'notices',
  {
    id: id(),
    tenantId: tenantRef(),
    title: text('title').notNull(),
    /** HTML, sanitised when stored (platform/html.ts) and again in the browser. */
    remark: text('remark').notNull(),
    content: text('content'),
    /** 0 confirm only (阅办), 1 text reply, 2 text and attachments. */
    replyWay: smallint('reply_way').notNull().default(0),
    pushTime: timestamp('push_time', { withTimezone: true }).notNull().defaultNow(),
    validityTime: timestamp('validity_time', { withTimezone: true }),
    pushFiles: jsonb('push_files')
      .notNull()
      .default(sql`'[]'::jsonb`)
      .$type<StoredFileRef[]>(),
    senderId: ref('sender_id').references(() => users.id, { onDelete: 'set null' }),
    audience: jsonb('audience')
      .notNull()
      .default(sql`'{"kind":"tenant"}'::jsonb`)
      .$type<NoticeAudience>(),
    translations: translations<{ title: string; remark: string }>(),
    /**
     * Set when an operator withdrew it: it leaves its recipients' lists and counts at once, and stays
     * in the console as withdrawn (with who did it); never unset.
     */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnBy: ref('withdrawn_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('notices_tenant').on(t.tenantId, t.pushTime)],
);
export const noticeRecipients = pgTable(
  'notice_recipients',
  {
    noticeId: ref('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readStatus: smallint('read_status').notNull().default(0),
    readAt: timestamp('read_at', { withTimezone: true }),
    /** 1 once replied to (or confirmed, for a confirm-only notice). */
    answerStatus: smallint('answer_status').notNull().default(0),
    replyContent: text('reply_content'),
    replyFiles: jsonb('reply_files')
      .notNull()
      .default(sql`'[]'::jsonb`)
      .$type<StoredFileRef[]>(),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.noticeId, t.userId] }),
    // A user's notices, unread first to count: the bell and the message page.
    index('notice_recipients_user').on(t.userId, t.readStatus),
  ],
);

/**
 * Uploaded files (ADR 024): kept under a generated name outside the web root; the name they were
 * uploaded with is data only. `addr` (the stored path the API answers) is `files/<id>`.
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    ownerId: ref('owner_id').references(() => users.id, { onDelete: 'set null' }),
    /** What it was uploaded for: `reply` (a notice reply's attachment) or `notice`. */
    purpose: text('purpose').notNull(),
    fileName: text('file_name').notNull(),
    /** The media type its content was recognised as (magic bytes), not the one the client sent. */
    mediaType: text('media_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('files_owner').on(t.ownerId, t.createdAt)],
);

/**
 * What each user's live streams are told (ADR 024): one row per user and event, its id the
 * stream's event id, so a reconnect with Last-Event-ID replays what it missed.
 */
export const userEvents = pgTable(
  'user_events',
  {
    id: id(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `notice` (a notice arrived) or `read` (the unread count changed elsewhere). */
    kind: text('kind').notNull(),
    noticeId: ref('notice_id').references(() => notices.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('user_events_user').on(t.userId, t.id)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: ref('role_id'),
    applicationId: ref('application_id'),
    workbenchId: ref('workbench_id'),
    enterpriseId: ref('enterprise_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The CAS service ticket this session was opened with: single logout names it. */
    serviceTicket: text('service_ticket'),
    /**
     * The sign-in this session belongs to: the first session's id, kept by every switch (a switch
     * opens a new row). "My sessions" lists sign-ins, and ending one ends every row of it.
     */
    chainId: uuid('chain_id').notNull().defaultRandom(),
    /** The sign-on session whose ticket opened this portal session (ending that one ends this). */
    ssoSessionId: uuid('sso_session_id'),
    /** When a second factor (or, for step-up without one, the password) was last proven in this sign-in. */
    factorAt: timestamp('factor_at', { withTimezone: true }),
    /** Last request seen, written at most once a minute per session. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_user').on(t.userId),
    index('sessions_service_ticket').on(t.serviceTicket),
    index('sessions_chain').on(t.chainId),
    index('sessions_sso_session')
      .on(t.ssoSessionId)
      .where(sql`sso_session_id IS NOT NULL`),
    // Online users: a tenant's live sessions, without reading its ended ones.
    index('sessions_tenant_live')
      .on(t.tenantId, t.expiresAt)
      .where(sql`revoked_at IS NULL`),
  ],
);

/** The portal's own pattern and single-logout address, read from PUBLIC_URL when matched. */
export const PORTAL_PATTERN = '{PORTAL}';
export const PORTAL_SLO = '{PORTAL_SLO}';
/** The server's public address (PUBLIC_URL, no path): other applications it serves, e.g. the example system. */
export const SERVER_PATTERN = '{SERVER}';

/**
 * Services (CAS clients) registered per tenant: a ticket is issued, and a logout redirects, only to a
 * URL under one of these whole-URL patterns (sso/service-registry.ts says how they match).
 */
export const ssoServices = pgTable(
  'sso_services',
  {
    id: id(),
    tenantId: tenantRef(),
    name: text('name').notNull(),
    pattern: text('pattern').notNull(),
    /** An external system's code for /front/esa/system/sso; null for services reached otherwise. */
    sysCode: text('sys_code'),
    /** Where the portal sends a user into the system (a URL under the pattern); null: the pattern. */
    entryUrl: text('entry_url'),
    /** Where single-logout requests go; null: to the service URL of the ticket. */
    logoutUrl: text('logout_url'),
    enabled: boolean('enabled').notNull().default(true),
    translations: translations<Named>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sso_services_tenant_sys_code').on(t.tenantId, t.sysCode)],
);

/** Single sign-on sessions: the ticket-granting cookie is kept only as its SHA-256. */
export const ssoSessions = pgTable(
  'sso_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cookieHash: text('cookie_hash').notNull().unique(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Where the sign-in came from, for "my sessions" and online users. */
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The methods the sign-in proved (OIDC `amr` values: pwd, otp, hwk, sms, swk), in order. */
    methods: text('methods')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When a second factor was last proven in this sign-on session (step-up, OIDC acr). */
    factorAt: timestamp('factor_at', { withTimezone: true }),
  },
  (t) => [
    // My sessions and online users: a person's, and a tenant's, live sign-on sessions.
    index('sso_sessions_user_live')
      .on(t.userId)
      .where(sql`ended_at IS NULL`),
    index('sso_sessions_tenant_live')
      .on(t.tenantId, t.expiresAt)
      .where(sql`ended_at IS NULL`),
  ],
);

/**
 * Service tickets: one validation attempt each (`validated_at` set by the first, pass or fail);
 * the validated ones are the services single logout tells.
 */
export const ssoTickets = pgTable(
  'sso_tickets',
  {
    ticket: text('ticket').primaryKey(),
    ssoSessionId: uuid('sso_session_id')
      .notNull()
      .references(() => ssoSessions.id, { onDelete: 'cascade' }),
    serviceId: ref('service_id')
      .notNull()
      .references(() => ssoServices.id, { onDelete: 'cascade' }),
    service: text('service').notNull(),
    fromNewLogin: boolean('from_new_login').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    validatedAt: timestamp('validated_at', { withTimezone: true }),
    validated: boolean('validated').notNull().default(false),
  },
  (t) => [index('sso_tickets_session').on(t.ssoSessionId)],
);

/** Login image captchas: one per client id, single use, short-lived. */
export const imageCaptchas = pgTable('image_captchas', {
  clientId: text('client_id').primaryKey(),
  answer: text('answer').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Behavioural captcha challenges (AJ-Captcha): the answer never leaves the server; a token allows
 * one check. `answer` is {x, y} for the slider, or the ordered points of the click-word characters.
 */
export const captchaChallenges = pgTable('captcha_challenges', {
  token: text('token').primaryKey(),
  type: text('type').notNull(),
  answer: jsonb('answer').notNull(),
  secretKey: text('secret_key'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Passed behavioural captchas, each good for one business call (registration, SMS). */
export const captchaVerifications = pgTable('captcha_verifications', {
  value: text('value').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Clients locked out of something until a time (e.g. captcha checks after repeated failures). */
export const rateLocks = pgTable('rate_locks', {
  key: text('key').primaryKey(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});

/** Nonces of signed requests seen within the signature window. */
export const requestNonces = pgTable('request_nonces', {
  nonce: text('nonce').primaryKey(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * SMS verification codes (ADR 010): only a keyed hash of the code is kept; a code is bound to its
 * phone and purpose, lives a few minutes, allows a few wrong tries and is spent by the first right one.
 */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: id(),
    tenantId: tenantRef(),
    phone: text('phone').notNull(),
    /** 2 registration, 3 password reset (contracts SMS_PURPOSE). */
    purpose: smallint('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    /** The address that asked, for the daily cap per address. */
    ip: text('ip').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: smallint('attempts').notNull().default(0),
    /** Set when spent (right code), voided (too many wrong ones) or replaced by a newer code. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('sms_codes_phone').on(t.tenantId, t.phone, t.purpose, t.createdAt),
    index('sms_codes_ip').on(t.ip, t.createdAt),
  ],
);

/** What the outbox SMS provider "sent": operators read the messages here (and in the log). */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: id(),
    tenantId: tenantRef(),
    phone: text('phone').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sms_outbox_tenant_phone').on(t.tenantId, t.phone, t.createdAt)],
);

/** Fixed-window counters shared by every instance (login per IP, captcha per client, …). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** Secrets generated on first start and shared by all instances: RSA key pair, signing, JWT. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    tenantId: ref('tenant_id'),
    userId: ref('user_id'),
    action: text('action').notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    ip: text('ip'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_tenant_at').on(t.tenantId, t.at)],
);

/**
 * Industries (GB/T 4754-2017): national reference data shared by all tenants, four levels
 * (section letter, division, group, class); replaced as a whole by `npm run import:industries`.
 */
export const industries = pgTable(
  'industries',
  {
    code: text('code').primaryKey(),
    parentCode: text('parent_code'),
    name: text('name').notNull(),
    /** 1 section (门类), 2 division (大类), 3 group (中类), 4 class (小类). */
    level: smallint('level').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [index('industries_parent').on(t.parentCode, t.sort)],
);

/** Each tenant's registration agreement (docs/product/data.md#sub-management): HTML, sanitised when stored. */
export const registerAgreements = pgTable('register_agreements', {
  tenantId: ref('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  html: text('html').notNull(),
  translations: translations<{ html: string }>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Forgot-password grants (ADR 010): a right SMS code gives one, kept only as its SHA-256; it sets
 * one new password within minutes.
 */
export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: ref('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  /** The number whose SMS code gave the grant: proven for the account when the reset is finished. */
  mobile: text('mobile'),
});

/**
 * Sessions of the example external system (modules/example-system, served with the demo): a CAS
 * client of the sign-on server like any other; single logout names the ticket a session began with.
 */
export const exampleSystemSessions = pgTable(
  'example_system_sessions',
  {
    /** SHA-256 of the session cookie's value. */
    idHash: text('id_hash').primaryKey(),
    ticket: text('ticket').notNull(),
    tenantCode: text('tenant_code').notNull(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('example_system_sessions_ticket').on(t.ticket)],
);

/**
 * OpenID Connect clients (relying parties) registered per tenant by its operators. A confidential
 * client's secret is kept only as its SHA-256 (it is 256 random bits, shown once); a public client
 * has none and must use PKCE. The arrays are the client's registration as the protocol names it.
 */
export const oidcClients = pgTable(
  'oidc_clients',
  {
    id: id(),
    tenantId: tenantRef(),
    /** The protocol's `client_id`: random, unique in the installation, never reused. */
    clientId: text('client_id').notNull().unique(),
    name: text('name').notNull(),
    translations: translations<Named>(),
    /** Confidential (has a secret, authenticates at the token endpoint) or public (PKCE, no secret). */
    confidential: boolean('confidential').notNull(),
    secretHash: text('secret_hash'),
    secretSetAt: timestamp('secret_set_at', { withTimezone: true }),
    /** authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code. */
    grantTypes: text('grant_types').array().notNull(),
    redirectUris: text('redirect_uris')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    postLogoutRedirectUris: text('post_logout_redirect_uris')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    backchannelLogoutUri: text('backchannel_logout_uri'),
    /** Scopes the client may ask for (openid profile phone roles enterprise …). */
    scopes: text('scopes').array().notNull(),
    /** First-party clients are trusted by the tenant: no consent screen. */
    firstParty: boolean('first_party').notNull().default(false),
    /** The ID token's signing algorithm: ES256 or RS256. */
    idTokenAlg: text('id_token_alg').notNull().default('ES256'),
    /**
     * A service account (ADR 056): a confidential client_credentials client whose access tokens
     * with the `portal:admin` scope act on the operators' API in `service_role_id`, a role of the
     * client's tenant, through the same permission checks as a person in that role.
     */
    serviceAccount: boolean('service_account').notNull().default(false),
    serviceRoleId: ref('service_role_id').references(() => roles.id, { onDelete: 'set null' }),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oidc_clients_tenant').on(t.tenantId)],
);

/**
 * Sessions of the demo's OpenID Connect example system (modules/oidc-example): a relying party of
 * the tenant's OpenID Provider. A row begins as a sign-in under way (state, nonce and PKCE verifier,
 * minutes long) and is replaced by a signed-in session: the provider's session id (back-channel
 * logout names it), the ID token (the hint of RP-initiated logout) and the claims it shows.
 */
export const oidcExampleSessions = pgTable(
  'oidc_example_sessions',
  {
    /** SHA-256 of the session cookie's value. */
    idHash: text('id_hash').primaryKey(),
    state: text('state'),
    nonce: text('nonce'),
    codeVerifier: text('code_verifier'),
    sid: text('sid'),
    idToken: text('id_token'),
    claims: jsonb('claims').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('oidc_example_sessions_sid').on(t.sid)],
);

/**
 * Everything the OpenID Provider keeps (grants, codes, tokens, its sessions, device codes,
 * interactions, replay detection), one row per object, so that every instance answers every request.
 * The payload is the provider's own; the columns are what is looked up by, or spent atomically.
 * `sso_session_id` binds a user's grants and tokens to the sign-on session they came from: once that
 * session has ended, they are refused.
 */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    tenantId: tenantRef(),
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    ssoSessionId: uuid('sso_session_id').references(() => ssoSessions.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.model, t.id] }),
    index('oidc_payloads_grant')
      .on(t.tenantId, t.grantId)
      .where(sql`grant_id IS NOT NULL`),
    index('oidc_payloads_user_code')
      .on(t.tenantId, t.model, t.userCode)
      .where(sql`user_code IS NOT NULL`),
    index('oidc_payloads_uid')
      .on(t.tenantId, t.model, t.uid)
      .where(sql`uid IS NOT NULL`),
    index('oidc_payloads_sso_session')
      .on(t.ssoSessionId)
      .where(sql`sso_session_id IS NOT NULL`),
    index('oidc_payloads_expires').on(t.expiresAt),
  ],
);

/**
 * The OpenID Provider's signing keys per tenant, shared by every instance. `next` is published
 * before it signs, `active` signs, `retiring` is published until the tokens it signed expire.
 */
export const oidcKeys = pgTable(
  'oidc_keys',
  {
    id: id(),
    tenantId: tenantRef(),
    kid: text('kid').notNull().unique(),
    /** ES256 or RS256. */
    alg: text('alg').notNull(),
    /** The private JWK. */
    privateJwk: jsonb('private_jwk').notNull(),
    state: text('state').notNull(),
    createdAt: createdAt(),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [index('oidc_keys_tenant').on(t.tenantId, t.state)],
);

/**
 * A person's second factors: TOTP authenticators and passkeys (WebAuthn credentials). A TOTP
 * secret is kept encrypted with a key of the server secrets (it must be read to check a code);
 * `last_step` is the newest time step accepted, so a used code is refused. A passkey keeps its
 * public key and signature counter; `passwordless` ones may sign in without the password.
 * `confirmed_at` is null while an enrolment waits for its first proof.
 */
export const userFactors = pgTable(
  'user_factors',
  {
    id: id(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** totp | webauthn */
    kind: text('kind').notNull(),
    /** The person's own name for it ("iPhone", "YubiKey 5"). */
    name: text('name').notNull(),
    secretCipher: text('secret_cipher'),
    lastStep: bigint('last_step', { mode: 'number' }),
    /** base64url credential id (WebAuthn). */
    credentialId: text('credential_id'),
    /** base64url COSE public key (WebAuthn). */
    publicKey: text('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: text('transports').array(),
    aaguid: text('aaguid'),
    backedUp: boolean('backed_up'),
    passwordless: boolean('passwordless').notNull().default(false),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    index('user_factors_user').on(t.userId),
    uniqueIndex('user_factors_credential')
      .on(t.credentialId)
      .where(sql`credential_id IS NOT NULL`),
  ],
);

/** Recovery codes: ten per generation, stored hashed, each spent once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user').on(t.userId)],
);

/**
 * A sign-in between its password and its second factor (or a step-up in progress): the browser
 * holds a random token (kept here as its SHA-256) that names it for a few minutes. `context` is
 * where the sign-in continues (the portal, a CAS service, the OpenID Provider's interaction);
 * `challenge` the pending WebAuthn challenge or SMS state. Spent once (`completed_at`).
 */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** portal | cas | step_up | enrol */
    purpose: text('purpose').notNull(),
    context: jsonb('context').notNull().default({}).$type<Record<string, unknown>>(),
    challenge: jsonb('challenge').$type<Record<string, unknown>>(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('login_challenges_expires').on(t.expiresAt)],
);

/**
 * Browsers a person chose to remember after a second factor: the cookie carries a random token
 * (kept here as its SHA-256), valid until `expires_at` unless revoked (by the person, an operator,
 * a factor reset or a password set).
 */
export const rememberedBrowsers = pgTable(
  'remembered_browsers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    tenantId: tenantRef(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('remembered_browsers_user').on(t.userId)],
);

/**
 * Every sign-in attempt, kept for the tenant's retention: who (the user when known, the name typed
 * always), how it ended, where from and through which door. Read by the person (their own) and by
 * operators (their tenant's); deleted by housekeeping after the retention.
 */
export const loginEvents = pgTable(
  'login_events',
  {
    id: id(),
    tenantId: ref('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    userId: ref('user_id').references(() => users.id, { onDelete: 'set null' }),
    username: text('username').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** succeeded | wrong_password | wrong_factor | locked | captcha_failed | disabled | factor_required | ... */
    outcome: text('outcome').notNull(),
    /** portal | cas | oidc | cli | step_up */
    via: text('via').notNull(),
    /** totp | webauthn | sms | recovery | remembered | passkey, when a factor was part of it. */
    factor: text('factor'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('login_events_tenant_at').on(t.tenantId, t.at), index('login_events_user_at').on(t.userId, t.at)],
);

/** The hashes of a person's earlier passwords, for the tenant's "not one of the last N" rule. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: id(),
    userId: ref('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('password_history_user').on(t.userId, t.createdAt)],
);

/**
 * Pending WebAuthn ceremonies (passkeys): the random challenge the server gave the browser, kept
 * until the authenticator's signed answer comes back or five minutes pass, and spent once. A
 * passkey sign-in's challenge names no one (the credential names its user when it answers); an
 * enrolment's names the signed-in person.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    /** base64url, as the authenticator signs it inside clientDataJSON. */
    challenge: text('challenge').primaryKey(),
    /** sign_in | enrol */
    purpose: text('purpose').notNull(),
    userId: ref('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('passkey_challenges_expires').on(t.expiresAt)],
);
