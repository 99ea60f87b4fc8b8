/**
 * The operators' API (ADR 031): schemas of every resource under `/api/admin/`, used by
 * the server's routes, the console's forms and the `npm run admin` CLI alike. A tenant operator's
 * current role holds `system:manage` and acts on its own tenant; a platform operator (the same code
 * in the platform tenant) acts on any tenant, named by the `tenant` query field of every call.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { AUDIT_ACTION_CODES } from './audit.js';
import {
  MENU_PATH,
  NAMED_CODE,
  PERMISSION_CODE,
  ROLE_CODE,
  TENANT_CODE,
  TENANT_LOGO,
  TENANT_SWITCHES,
  USER_STATES,
  type TenantSwitch,
} from './admin-rules.js';
import { RuntimeSwitches } from './runtime-config.js';

const Id = Type.Union([Type.Integer(), Type.String({ maxLength: 64 })]);
const Ids = Type.Array(Id, { maxItems: 500 });
const Text = (max = 255, min = 0) => Type.String({ minLength: min, maxLength: max });
/**
 * A user name as a request brings it: the grammar (names.ts, ADR 032) is checked by the server
 * after normalising, so the schema bounds only the length; the example is one the grammar takes.
 */
const Username = () => Type.String({ minLength: 1, maxLength: 64, examples: ['zhang.wei'] });
/** Null first: the validator coerces types, and would otherwise read a null as '' or 0. */
const Nullable = <T extends TSchema>(t: T) => Type.Union([Type.Null(), t]);
/** An English name beside a Chinese one (ADR 020): empty or absent means the Chinese is shown. */
const En = (max = 255) => Type.Optional(Text(max));

/** Every admin call may name the tenant it acts on (platform operators only; others their own). */
export const AdminTenantQuery = Type.Object({ tenant: Type.Optional(Text(32)) });
export type AdminTenantQuery = Static<typeof AdminTenantQuery>;

export const AdminPageQuery = Type.Object({
  tenant: Type.Optional(Text(32)),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  /** Words to look for (names, usernames, codes, mobile numbers). */
  q: Type.Optional(Text(100)),
});
export type AdminPageQuery = Static<typeof AdminPageQuery>;

export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({ records: Type.Array(item), total: Type.Integer({ minimum: 0 }) });
export type Paged<T> = { records: T[]; total: number };

export const AdminIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type AdminIdParams = Static<typeof AdminIdParams>;

const Ref = Type.Object({ id: Type.String(), name: Type.String() });

/**
 * A password an operator sets is known to someone besides its owner: unless `false`, the owner must
 * change it at their next sign-in before anything else (ADR 033, Keycloak's "temporary").
 */
const Temporary = Type.Optional(Type.Boolean());

// ---- Tenants (platform operators) -----------------------------------------------------------------

export const AdminTenant = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  nameEn: Type.String(),
  homeUrl: Nullable(Type.String()),
  platform: Type.Boolean(),
  disabled: Type.Boolean(),
  users: Type.Integer({ minimum: 0 }),
  createdAt: Type.String(),
});
export type AdminTenant = Static<typeof AdminTenant>;

export const TenantCreate = Type.Object({
  code: Type.String({ pattern: TENANT_CODE, maxLength: 32 }),
  name: Text(100, 1),
  nameEn: En(100),
  homeUrl: Type.Optional(Nullable(Text(1024))),
  /** The tenant's first operator: signs in with this name and password (RSA-encrypted, like every password). */
  operator: Type.Object({
    username: Username(),
    name: Text(64, 1),
    password: Text(1024, 1),
    temporary: Temporary,
  }),
});
export type TenantCreate = Static<typeof TenantCreate>;

export const TenantPatch = Type.Object({
  name: Type.Optional(Text(100, 1)),
  nameEn: En(100),
  homeUrl: Type.Optional(Nullable(Text(1024))),
  disabled: Type.Optional(Type.Boolean()),
});
export type TenantPatch = Static<typeof TenantPatch>;

// ---- Per-tenant settings --------------------------------------------------------------------------

/**
 * Where a tenant's rule is narrower than the installation's (ADR 036): its logo is one of its
 * uploads, while the installation may name any image of its own.
 */
const TENANT_ONLY: Partial<Record<TenantSwitch, TSchema>> = {
  logo: Type.String({ maxLength: 64, pattern: TENANT_LOGO }),
};

/** A switch's schema as the installation has it, without the default or the note for the config loader. */
const installationSetting = (key: TenantSwitch) => {
  const {
    default: _,
    expected: __,
    ...schema
  } = RuntimeSwitches.properties[key] as TSchema & {
    default?: unknown;
    expected?: unknown;
  };
  return schema as TSchema;
};
/** A switch's schema as a tenant's request is checked: every text with a length and a character rule. */
const asSetting = (key: TenantSwitch) => TENANT_ONLY[key] ?? installationSetting(key);
export const TenantSettings = Type.Object(
  Object.fromEntries(TENANT_SWITCHES.map((key) => [key, Type.Optional(asSetting(key))])),
  { additionalProperties: false },
);
export type TenantSettings = Partial<Pick<RuntimeSwitches, TenantSwitch>>;

export const TenantSettingsView = Type.Object({
  /** What the tenant set (absent keys follow the installation). */
  settings: TenantSettings,
  /** The installation's values, which an absent key falls back to. */
  defaults: Type.Object(Object.fromEntries(TENANT_SWITCHES.map((key) => [key, installationSetting(key)]))),
});
export type TenantSettingsView = { settings: TenantSettings; defaults: Pick<RuntimeSwitches, TenantSwitch> };

export const LogoUploaded = Type.Object({ logo: Type.String() });
export type LogoUploaded = Static<typeof LogoUploaded>;

// ---- Users ----------------------------------------------------------------------------------------

export const AdminUser = Type.Object({
  id: Type.String(),
  username: Type.String(),
  name: Type.String(),
  nameEn: Type.String(),
  mobile: Nullable(Type.String()),
  disabled: Type.Boolean(),
  locked: Type.Boolean(),
  lastLoginAt: Nullable(Type.String()),
  createdAt: Type.String(),
  roles: Type.Array(Ref),
  enterprises: Type.Array(Ref),
  /**
   * The tenant's policy requires a second factor of this person and they have none: the days of the
   * enrolment grace left and whether it is over (their sign-in then cannot go on without enrolling
   * during its factor step). Null when no factor is required of them or they have one.
   */
  secondFactor: Nullable(Type.Object({ daysLeft: Type.Integer({ minimum: 0 }), over: Type.Boolean() })),
});
export type AdminUser = Static<typeof AdminUser>;

export const UserQuery = Type.Object({
  ...AdminPageQuery.properties,
  roleId: Type.Optional(Text(64)),
  state: Type.Optional(Type.Enum(USER_STATES)),
});
export type UserQuery = Static<typeof UserQuery>;

export const UserCreate = Type.Object({
  username: Username(),
  name: Text(64, 1),
  nameEn: En(64),
  mobile: Type.Optional(Nullable(Text(20))),
  /** RSA-encrypted, as every password on the wire. */
  password: Text(1024, 1),
  temporary: Temporary,
  roleIds: Type.Optional(Ids),
  enterpriseIds: Type.Optional(Ids),
});
export type UserCreate = Static<typeof UserCreate>;

export const UserPatch = Type.Object({
  /** A rename (ADR 032: how an operator mends a stored name the grammar reports). */
  username: Type.Optional(Username()),
  name: Type.Optional(Text(64, 1)),
  nameEn: En(64),
  mobile: Type.Optional(Nullable(Text(20))),
});
export type UserPatch = Static<typeof UserPatch>;

/**
 * The tenant's users whose stored names break the name grammar (ADR 032; names.ts): reported,
 * never renamed. `problem` is a NameProblem; `total` counts them all, `records` holds the first 500.
 */
export const StoredNameIssues = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  records: Type.Array(
    Type.Object({
      id: Type.String(),
      username: Type.String(),
      name: Type.String(),
      issues: Type.Array(
        Type.Object({
          field: Type.Union([
            Type.Literal('username'),
            Type.Literal('name'),
            Type.Literal('nameEn'),
            Type.Literal('nickname'),
          ]),
          problem: Type.String(),
        }),
      ),
    }),
  ),
});
export type StoredNameIssues = Static<typeof StoredNameIssues>;

export const PasswordSet = Type.Object({ password: Text(1024, 1), temporary: Temporary });
export type PasswordSet = Static<typeof PasswordSet>;
export const RoleIdsBody = Type.Object({ roleIds: Ids });
export type RoleIdsBody = Static<typeof RoleIdsBody>;
export const EnterpriseIdsBody = Type.Object({ enterpriseIds: Ids });
export type EnterpriseIdsBody = Static<typeof EnterpriseIdsBody>;

// ---- Roles and permission codes (docs/product/permissions.md#action-codes) ------------------------------------------------------------
export const AdminRole = Type.Object({
  id: Type.String(),
  code: Type.String(),
  title: Type.String(),
  titleEn: Type.String(),
  isDefault: Type.Boolean(),
  users: Type.Integer({ minimum: 0 }),
  permissionIds: Type.Array(Type.String()),
});
export type AdminRole = Static<typeof AdminRole>;

export const RoleInput = Type.Object({
  code: Type.String({ pattern: ROLE_CODE, maxLength: 32 }),
  title: Text(64, 1),
  titleEn: En(64),
  isDefault: Type.Optional(Type.Boolean()),
});
export type RoleInput = Static<typeof RoleInput>;
export const RolePatch = Type.Partial(Type.Omit(RoleInput, ['code']));
export type RolePatch = Static<typeof RolePatch>;
export const PermissionIdsBody = Type.Object({ permissionIds: Ids });
export type PermissionIdsBody = Static<typeof PermissionIdsBody>;

export const AdminPermission = Type.Object({
  id: Type.String(),
  code: Type.String(),
  describe: Type.String(),
  /** 1 an action, 2 ignored by the UI guard. */
  type: Type.Integer(),
  /** 1 enforced, 0 shown to everyone. */
  status: Type.Integer(),
});
export type AdminPermission = Static<typeof AdminPermission>;

export const PermissionInput = Type.Object({
  code: Type.String({ pattern: PERMISSION_CODE, maxLength: 64 }),
  describe: Text(100, 1),
  type: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)])),
  status: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
});
export type PermissionInput = Static<typeof PermissionInput>;
export const PermissionPatch = Type.Partial(Type.Omit(PermissionInput, ['code']));
export type PermissionPatch = Static<typeof PermissionPatch>;

// ---- Menus (docs/product/screens.md#menu-routes) -----------------------------------------------------------------------------------
export const AdminMenu = Type.Object({
  id: Type.String(),
  parentId: Nullable(Type.String()),
  sort: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  component: Type.String(),
  title: Type.String(),
  titleEn: Type.String(),
  icon: Nullable(Type.String()),
  url: Nullable(Type.String()),
  hidden: Type.Boolean(),
  applicationId: Nullable(Type.String()),
  roleIds: Type.Array(Type.String()),
});
export type AdminMenu = Static<typeof AdminMenu>;

const COMPONENT = '^[A-Za-z0-9/_-]{0,100}$';
const MenuFields = {
  name: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$', maxLength: 64, examples: ['reports'] }),
  path: Type.String({ pattern: MENU_PATH, maxLength: 200, examples: ['/reports'] }),
  component: Type.Optional(Type.String({ pattern: COMPONENT, maxLength: 100 })),
  title: Text(64, 1),
  titleEn: En(64),
  icon: Type.Optional(Nullable(Type.String({ pattern: '^[A-Za-z0-9-]{0,64}$', maxLength: 64 }))),
  url: Type.Optional(Nullable(Text(1024))),
  hidden: Type.Optional(Type.Boolean()),
  applicationId: Type.Optional(Nullable(Id)),
  roleIds: Type.Optional(Ids),
};
export const MenuCreate = Type.Object({ parentId: Type.Optional(Nullable(Id)), ...MenuFields });
export type MenuCreate = Static<typeof MenuCreate>;
export const MenuPatch = Type.Partial(Type.Object(MenuFields));
export type MenuPatch = Static<typeof MenuPatch>;
/** Moves an entry under `parentId` (null: the top), at `index` among its new siblings. */
export const MenuMove = Type.Object({
  parentId: Nullable(Id),
  index: Type.Integer({ minimum: 0, maximum: 10_000 }),
});
export type MenuMove = Static<typeof MenuMove>;

/** One entry of an exported tree: roles and application by code, so a file moves between tenants. */
export interface MenuExportEntry {
  name: string;
  path: string;
  component: string;
  title: string;
  titleEn?: string;
  icon?: string | null;
  url?: string | null;
  hidden?: boolean;
  redirect?: string | null;
  route?: '0' | '1';
  serviceType?: number;
  module?: string | null;
  meta?: {
    internalOrExternal?: boolean;
    keepAlive?: boolean;
    isTabs?: boolean;
    isSide?: boolean;
    componentName?: string | null;
    pageId?: string | null;
  };
  application?: string | null;
  roles?: string[];
  children?: MenuExportEntry[];
}
export const MenuExportEntry = Type.Cyclic(
  {
    MenuExportEntry: Type.Object(
      {
        // The rules of an entry made one at a time (MenuFields): an import is no back door.
        name: MenuFields.name,
        path: MenuFields.path,
        component: Type.String({ pattern: COMPONENT, maxLength: 100 }),
        title: Text(64, 1),
        titleEn: En(64),
        icon: MenuFields.icon,
        url: Type.Optional(Nullable(Text(1024))),
        hidden: Type.Optional(Type.Boolean()),
        redirect: Type.Optional(Nullable(Type.String({ pattern: MENU_PATH, maxLength: 200 }))),
        route: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
        serviceType: Type.Optional(Type.Integer({ minimum: 0, maximum: 9 })),
        module: Type.Optional(Nullable(Type.String({ pattern: '^[a-z][a-z0-9-]{0,63}$', maxLength: 64 }))),
        /** The entry's other flags (docs/product/screens.md#menu-routes meta); keys beyond these are dropped. */
        meta: Type.Optional(
          Type.Object({
            internalOrExternal: Type.Optional(Type.Boolean()),
            keepAlive: Type.Optional(Type.Boolean()),
            isTabs: Type.Optional(Type.Boolean()),
            isSide: Type.Optional(Type.Boolean()),
            componentName: Type.Optional(Nullable(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_-]{0,63}$' }))),
            pageId: Type.Optional(Nullable(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }))),
          }),
        ),
        application: Type.Optional(Nullable(Text(64))),
        roles: Type.Optional(Type.Array(Text(64), { maxItems: 100 })),
        children: Type.Optional(Type.Array(Type.Ref('MenuExportEntry'), { maxItems: 500 })),
      },
      { additionalProperties: false },
    ),
  },
  'MenuExportEntry',
);
export const MenuExport = Type.Object({
  format: Type.Literal(1),
  menus: Type.Array(MenuExportEntry, { maxItems: 500 }),
});
export type MenuExport = { format: 1; menus: MenuExportEntry[] };

// ---- Applications and workbenches ---------------------------------------------------------------------
export const AdminNamed = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  nameEn: Type.String(),
  users: Type.Integer({ minimum: 0 }),
});
export type AdminNamed = Static<typeof AdminNamed>;
export const NamedInput = Type.Object({
  code: Type.String({ pattern: NAMED_CODE, maxLength: 32 }),
  name: Text(64, 1),
  nameEn: En(64),
});
export type NamedInput = Static<typeof NamedInput>;
export const NamedPatch = Type.Partial(Type.Omit(NamedInput, ['code']));
export type NamedPatch = Static<typeof NamedPatch>;

// ---- Enterprises (review, docs/product/behaviour.md#enterprise-status) -----------------------------------------------------------------------
export const AdminEnterprise = Type.Object({
  id: Type.String(),
  name: Type.String(),
  nameEn: Type.String(),
  creditCode: Nullable(Type.String()),
  contacts: Nullable(Type.String()),
  /** The contact's name in English, or '' (ADR 020). */
  contactsEn: Type.String(),
  estatus: Type.Integer({ minimum: 0, maximum: 2 }),
  reviewReason: Nullable(Type.String()),
  reviewedAt: Nullable(Type.String()),
  members: Type.Integer({ minimum: 0 }),
  createdAt: Type.String(),
});
export type AdminEnterprise = Static<typeof AdminEnterprise>;
/**
 * A catalog entry as a reader sees it: its code, and its names from the top level down in the
 * reader's language (in English only the levels the reference data names in English: an industry's
 * section, a region's province).
 */
export const CatalogEntry = Type.Object({ code: Type.String(), names: Type.Array(Type.String()) });
export type CatalogEntry = Static<typeof CatalogEntry>;
/**
 * One application as registered (`GET /api/admin/enterprises/:id`): the list's fields, the industry,
 * region and position given, and who registered it (its first member) with their mobile number whole.
 */
export const AdminEnterpriseDetail = Type.Object({
  ...AdminEnterprise.properties,
  industry: Nullable(CatalogEntry),
  region: Nullable(CatalogEntry),
  position: Nullable(Type.String()),
  positionEn: Type.String(),
  registrant: Nullable(
    Type.Object({
      id: Type.String(),
      username: Type.String(),
      name: Type.String(),
      nameEn: Type.String(),
      mobile: Nullable(Type.String()),
      /** Whether the number was proven by an SMS code (or given by an operator), ADR 023. */
      mobileVerified: Type.Boolean(),
      joinedAt: Type.String(),
    }),
  ),
});
export type AdminEnterpriseDetail = Static<typeof AdminEnterpriseDetail>;
export const EnterpriseQuery = Type.Object({
  ...AdminPageQuery.properties,
  estatus: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
});
export type EnterpriseQuery = Static<typeof EnterpriseQuery>;
/** A review: passed (1), or not passed (2) with the reason the enterprise's members see. */
export const EnterpriseReview = Type.Object({
  estatus: Type.Union([Type.Literal(1), Type.Literal(2)]),
  reason: Type.Optional(Text(500)),
});
export type EnterpriseReview = Static<typeof EnterpriseReview>;

// ---- Registration agreement ------------------------------------------------------------------------------
export const AgreementEdit = Type.Object({
  /** HTML; sanitised when stored. */
  html: Type.String({ maxLength: 100_000 }),
  htmlEn: Type.Optional(Type.String({ maxLength: 100_000 })),
});
export type AgreementEdit = Static<typeof AgreementEdit>;

// ---- Sign-on services and external systems ---------------------------------------------------------------
export const AdminSsoService = Type.Object({
  id: Type.String(),
  name: Type.String(),
  nameEn: Type.String(),
  pattern: Type.String(),
  sysCode: Nullable(Type.String()),
  entryUrl: Nullable(Type.String()),
  logoutUrl: Nullable(Type.String()),
  enabled: Type.Boolean(),
});
export type AdminSsoService = Static<typeof AdminSsoService>;
const SsoFields = {
  name: Text(100, 1),
  nameEn: En(100),
  /** A whole http(s) URL: that address (any query), or, ending in `/`, every address below it. */
  pattern: Type.String({ minLength: 1, maxLength: 1024, examples: ['https://erp.example.com/'] }),
  sysCode: Type.Optional(Nullable(Type.String({ pattern: NAMED_CODE, maxLength: 32 }))),
  entryUrl: Type.Optional(Nullable(Text(1024))),
  logoutUrl: Type.Optional(Nullable(Text(1024))),
  enabled: Type.Optional(Type.Boolean()),
};
export const SsoServiceInput = Type.Object(SsoFields);
export type SsoServiceInput = Static<typeof SsoServiceInput>;
export const SsoServicePatch = Type.Partial(Type.Object(SsoFields));
export type SsoServicePatch = Static<typeof SsoServicePatch>;

// ---- SMS outbox and audit log ----------------------------------------------------------------------------
export const OutboxMessage = Type.Object({
  id: Type.String(),
  phone: Type.String(),
  body: Type.String(),
  createdAt: Type.String(),
});
export type OutboxMessage = Static<typeof OutboxMessage>;

/** ISO 8601 with a zone, or a day (`2026-11-24`, China time). */
const Instant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  maxLength: 40,
});

export const AuditQuery = Type.Object({
  ...AdminPageQuery.properties,
  /** The acting user's username. */
  actor: Type.Optional(Text(64)),
  action: Type.Optional(
    Type.String({
      maxLength: 100,
      description:
        'A code of the audit catalogue (exactly that action), or the beginning of codes up to a dot ' +
        '(`user.` for every change of a user, `login.` for sign-ins).',
    }),
  ),
  from: Type.Optional(Instant),
  to: Type.Optional(Instant),
  /** The kind of object the entries name (`user`, `enterprise`, … of AUDIT_SUBJECT_TYPES). */
  objectType: Type.Optional(Type.String({ maxLength: 32, examples: ['enterprise'] })),
  /** The object: its id, or words of its name (either language) or its username. */
  object: Type.Optional(Text(100)),
});
export type AuditQuery = Static<typeof AuditQuery>;

/** At most this many entries go into one CSV export: the newest that match, the rest cut (`truncated`). */
export const AUDIT_EXPORT_MAX = 5000;
/** The audit query's filters, without paging: what an export takes. */
export const AuditExportQuery = Type.Omit(AuditQuery, ['page', 'limit', 'q']);
export type AuditExportQuery = Static<typeof AuditExportQuery>;
export const AuditExport = Type.Object({
  /** `audit-<tenant>-<time>.csv`. */
  fileName: Type.String(),
  /** UTF-8 CSV with a byte-order mark and a header row, in the request's language. */
  csv: Type.String(),
  rows: Type.Integer({ minimum: 0 }),
  /** More entries matched than an export takes (AUDIT_EXPORT_MAX); the newest are in it. */
  truncated: Type.Boolean(),
});
export type AuditExport = Static<typeof AuditExport>;

export const AuditEntry = Type.Object({
  id: Type.String(),
  at: Type.String(),
  actor: Nullable(Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() })),
  action: Type.String({
    description:
      'A code of the audit catalogue (`AUDIT_ACTIONS` in the contracts, which label each in Chinese and ' +
      `English): ${AUDIT_ACTION_CODES.join(', ')}. A row written before the catalogue may hold a text ` +
      'it has no code for, shown as it is.',
  }),
  /** The object the entry names, with its name as it was then (ADR 044); null for an entry that names none. */
  subject: Nullable(
    Type.Object({
      type: Type.String(),
      id: Type.String(),
      name: Type.String(),
      en: Type.Optional(Type.String()),
      username: Type.Optional(Type.String()),
    }),
  ),
  /** What changed, field by field (`from` absent: created; `to` absent: removed); secrets are never kept. */
  changes: Type.Array(
    Type.Object({ field: Type.String(), from: Type.Optional(Type.Unknown()), to: Type.Optional(Type.Unknown()) }),
  ),
  /** The rest of what the row keeps: the request's parameters and body (secrets redacted), and more. */
  detail: Nullable(Type.Record(Type.String(), Type.Unknown())),
  ip: Nullable(Type.String()),
});
export type AuditEntry = Static<typeof AuditEntry>;
