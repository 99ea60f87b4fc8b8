/**
 * What an operator's change was done to (ADR 044): for each code of `ADMIN_ROUTE_ACTIONS`, the kind
 * of object it changes, where the request names it (the route's `:id`, the id the change answered,
 * the tenant acted on …) and how to read it. The wrapper of `operators.ts` reads the object in the
 * change's own transaction before the handler runs and again after it, and the audit row keeps the
 * object (kind, id, its name as it was then) and what changed between the two readings, field by
 * field. No service writes audit code for it.
 *
 * A reading holds only what a person may read in the log: never a password hash, a secret or a
 * credential (and the row's values go through `auditedValue`, which redacts any key that looks like
 * one). Every code has an entry here: an object, or `null` for a change that names none (an import of
 * the whole menu, a read of the outbox). `modules/admin/records/audit-log.test.ts` fails for a code without one; until
 * then its rows carry no object and read with the generic sentence.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  securityPolicyOf,
  type AuditChange,
  type AuditName,
  type AuditSubject,
  type AuditSubjectType,
  type AuditValue,
} from '@portal/contracts';
import type { Db, Tx } from '../db/client.js';
import { englishOf } from '../db/expressions.js';
import {
  applications,
  deviceCredentials,
  devices,
  enterpriseMembers,
  enterprises,
  menus,
  microApps,
  notices,
  oidcClients,
  pageDefinitions,
  pageVersions,
  permissions,
  recoveryCodes,
  registerAgreements,
  rememberedBrowsers,
  rolePermissions,
  roles,
  ssoServices,
  tenants,
  userFactors,
  userRoles,
  users,
  workbenches,
} from '../db/schema.js';
import { auditedValue, isSecretKey, type AuditAction } from './audit.js';

type Q = Db | Tx;

/** How a request names its object: a row id, or a code within the tenant. */
export interface SubjectRef {
  id?: number;
  code?: string;
}

/** One reading of an object: whose it is, what it is called, and the fields a change can change. */
export interface Reading {
  tenantId: number;
  id: string;
  name: string;
  en?: string;
  username?: string;
  fields: Record<string, AuditValue>;
}

/** What the wrapper knows of a call. */
export interface SubjectCall {
  params: unknown;
  query: unknown;
  body: unknown;
  /** The handler's answer (after it ran). */
  result?: unknown;
  /** The caller's own tenant, and the tenant acted on once the handler has said (null before). */
  sessionTenant: number;
  actedOn: number | null;
}

interface SubjectRule {
  type: AuditSubjectType;
  read: (q: Q, ref: SubjectRef, tenantId: number) => Promise<Reading | null>;
  /** Where the object is before the change; absent for a change that creates it. */
  before?: (c: SubjectCall) => SubjectRef | undefined;
  /** Where it is after the change; absent for one that removes it. */
  after?: (c: SubjectCall) => SubjectRef | undefined;
}

/** An id a request or an answer carries, when it can name a row (the rest name none: no reading). */
function idRef(value: unknown): SubjectRef | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,16}$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? { id } : undefined;
}
const field = (v: unknown, key: string): unknown =>
  v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
const dataOf = (result: unknown) => field(result, 'data');

const byParam = (c: SubjectCall) => idRef(field(c.params, 'id'));
/** The id a creation answered: the data itself, or its `id`. */
const byResult = (c: SubjectCall) => idRef(dataOf(c.result)) ?? idRef(field(dataOf(c.result), 'id'));
const codeRef = (v: unknown): SubjectRef | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= 100 ? { code: v } : undefined;
const byCodeParam = (c: SubjectCall) => codeRef(field(c.params, 'code'));
/** The tenant a call acts on: before the handler, the one it names (`?tenant=`) or the caller's own. */
const tenantBefore = (c: SubjectCall) => codeRef(field(c.query, 'tenant')) ?? { id: c.sessionTenant };
const tenantAfter = (c: SubjectCall) => ({ id: c.actedOn ?? c.sessionTenant });

const named = (name: string, en: string | null | undefined): AuditName => (en ? { name, en } : { name });
/** A list of names as JSON from a subquery (`json_agg` of `{name, en}`), empty when none. */
const namesOf = (rows: unknown): AuditName[] =>
  Array.isArray(rows) ? (rows as { name: string; en: string | null }[]).map((r) => named(r.name, r.en)) : [];
const base = (tenantId: number, id: number | string, n: AuditName): Omit<Reading, 'fields'> => ({
  tenantId,
  id: String(id),
  ...n,
});

async function readUser(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [u] = await q
    .select({
      tenantId: users.tenantId,
      username: users.username,
      name: users.name,
      en: englishOf(users.translations, 'name'),
      nickname: users.nickname,
      mobile: users.mobile,
      disabled: sql<boolean>`${users.disabledAt} IS NOT NULL`,
      locked: sql<boolean>`coalesce(${users.lockedUntil} > now(), false)`,
      mustChange: users.mustChangePassword,
      roles: sql<unknown>`(SELECT json_agg(json_build_object('name', r.title, 'en', nullif(r.translations->'en'->>'title', '')) ORDER BY r.id)
        FROM ${userRoles} ur JOIN ${roles} r ON r.id = ur.role_id WHERE ur.user_id = ${users.id})`,
      enterprises: sql<unknown>`(SELECT json_agg(json_build_object('name', e.name, 'en', nullif(e.translations->'en'->>'name', '')) ORDER BY e.id)
        FROM ${enterpriseMembers} m JOIN ${enterprises} e ON e.id = m.enterprise_id WHERE m.user_id = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, ref.id));
  if (!u) return null;
  return {
    ...base(u.tenantId, ref.id, named(u.name, u.en)),
    username: u.username,
    fields: {
      username: u.username,
      name: u.name,
      nameEn: u.en,
      nickname: u.nickname,
      mobile: u.mobile,
      disabled: u.disabled,
      locked: u.locked,
      mustChange: u.mustChange,
      roles: namesOf(u.roles),
      enterprises: namesOf(u.enterprises),
    },
  };
}

/** A user with how many second factors, recovery codes and remembered browsers they hold (a factor reset's object). */
async function readUserFactors(q: Q, ref: SubjectRef): Promise<Reading | null> {
  const u = await readUser(q, ref);
  if (!u || ref.id === undefined) return u;
  const [c] = await q
    .select({
      factors: sql<number>`(SELECT count(*)::int FROM ${userFactors} f WHERE f.user_id = ${ref.id})`,
      recoveryLeft: sql<number>`(SELECT count(*)::int FROM ${recoveryCodes} r WHERE r.user_id = ${ref.id} AND r.used_at IS NULL)`,
      rememberedBrowsers: sql<number>`(SELECT count(*)::int FROM ${rememberedBrowsers} b WHERE b.user_id = ${ref.id})`,
    })
    .from(users)
    .where(eq(users.id, ref.id));
  return { ...u, fields: { ...u.fields, ...c } };
}

async function readRole(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [r] = await q
    .select({
      tenantId: roles.tenantId,
      code: roles.code,
      title: roles.title,
      en: englishOf(roles.translations, 'title'),
      isDefault: roles.isDefault,
      permissions: sql<string[] | null>`(SELECT json_agg(p.code ORDER BY p.code)
        FROM ${rolePermissions} rp JOIN ${permissions} p ON p.id = rp.permission_id WHERE rp.role_id = ${roles.id})`,
    })
    .from(roles)
    .where(eq(roles.id, ref.id));
  if (!r) return null;
  return {
    ...base(r.tenantId, ref.id, named(r.title, r.en)),
    fields: { code: r.code, title: r.title, titleEn: r.en, isDefault: r.isDefault, permissions: r.permissions ?? [] },
  };
}

async function readPermission(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [p] = await q.select().from(permissions).where(eq(permissions.id, ref.id));
  if (!p) return null;
  return {
    ...base(p.tenantId, ref.id, named(p.code, null)),
    fields: { code: p.code, describe: p.describe, type: p.type, status: p.status },
  };
}

/** Applications and workbenches: a code and a name in two languages. */
const readCoded =
  (table: typeof applications | typeof workbenches) =>
  async (q: Q, ref: SubjectRef): Promise<Reading | null> => {
    if (ref.id === undefined) return null;
    const [a] = await q
      .select({
        tenantId: table.tenantId,
        code: table.code,
        name: table.name,
        en: englishOf(table.translations, 'name'),
      })
      .from(table)
      .where(eq(table.id, ref.id));
    if (!a) return null;
    return { ...base(a.tenantId, ref.id, named(a.name, a.en)), fields: { code: a.code, name: a.name, nameEn: a.en } };
  };

const menuTitle = (m: typeof menus) => sql<string>`coalesce(nullif(${m.meta}->>'title', ''), ${m.name})`;

async function readMenu(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [m] = await q
    .select({
      tenantId: menus.tenantId,
      title: menuTitle(menus),
      en: englishOf(menus.translations, 'title'),
      path: menus.path,
      component: menus.component,
      hidden: menus.hidden,
      sort: menus.sort,
      parent: sql<{ name: string; en: string | null } | null>`(SELECT json_build_object('name',
          coalesce(nullif(p.meta->>'title', ''), p.name), 'en', nullif(p.translations->'en'->>'title', ''))
        FROM ${menus} p WHERE p.id = ${menus.parentId})`,
    })
    .from(menus)
    .where(eq(menus.id, ref.id));
  if (!m) return null;
  return {
    ...base(m.tenantId, ref.id, named(m.title, m.en)),
    fields: {
      title: m.title,
      titleEn: m.en,
      path: m.path,
      component: m.component,
      parent: m.parent ? named(m.parent.name, m.parent.en) : null,
      hidden: m.hidden,
      sort: m.sort,
    },
  };
}

/** The words of a stored HTML text (the agreement), as a reader of the log reads them. */
const textOf = (html: string | null) =>
  html === null
    ? null
    : html
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();

/** The tenant a reference names, by id or by code; none when it names neither. */
const tenantWhere = (ref: SubjectRef): SQL | undefined =>
  ref.id !== undefined ? eq(tenants.id, ref.id) : ref.code !== undefined ? eq(tenants.code, ref.code) : undefined;

/** A tenant, its settings and its agreement: what tenant, settings, logo and agreement changes change. */
async function readTenant(q: Q, ref: SubjectRef): Promise<Reading | null> {
  const where = tenantWhere(ref);
  if (!where) return null;
  const [t] = await q
    .select({
      id: tenants.id,
      code: tenants.code,
      name: tenants.name,
      en: englishOf(tenants.translations, 'name'),
      homeUrl: tenants.homeUrl,
      disabled: sql<boolean>`${tenants.disabledAt} IS NOT NULL`,
      settings: tenants.settings,
      agreement: registerAgreements.html,
      agreementEn: sql<string | null>`${registerAgreements.translations}->'en'->>'html'`,
    })
    .from(tenants)
    .leftJoin(registerAgreements, eq(registerAgreements.tenantId, tenants.id))
    .where(where);
  if (!t) return null;
  const settings = Object.fromEntries(
    Object.entries(t.settings ?? {}).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v]),
  ) as Record<string, AuditValue>;
  return {
    ...base(t.id, t.id, named(t.name, t.en)),
    fields: {
      code: t.code,
      name: t.name,
      nameEn: t.en,
      homeUrl: t.homeUrl,
      disabled: t.disabled,
      ...settings,
      agreement: textOf(t.agreement),
      agreementEn: textOf(t.agreementEn),
    },
  };
}

/** A tenant's security policy, key by key as in force (an unset key: the product's default). */
async function readSecurityPolicy(q: Q, ref: SubjectRef): Promise<Reading | null> {
  const where = tenantWhere(ref);
  if (!where) return null;
  const [t] = await q
    .select({
      id: tenants.id,
      name: tenants.name,
      en: englishOf(tenants.translations, 'name'),
      policy: tenants.securityPolicy,
    })
    .from(tenants)
    .where(where);
  if (!t) return null;
  // The password keys under names the audit keeps (it drops every key that says "password").
  const fields = Object.fromEntries(
    Object.entries(securityPolicyOf(t.policy)).map(([k, v]) => [
      k.replace(/^password/, 'pw'),
      Array.isArray(v) ? v.join(', ') : v,
    ]),
  ) as Record<string, AuditValue>;
  return { ...base(t.id, t.id, named(t.name, t.en)), fields };
}

async function readEnterprise(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [e] = await q
    .select({
      tenantId: enterprises.tenantId,
      name: enterprises.name,
      en: englishOf(enterprises.translations, 'name'),
      estatus: enterprises.estatus,
      reviewReason: enterprises.reviewReason,
    })
    .from(enterprises)
    .where(eq(enterprises.id, ref.id));
  if (!e) return null;
  return {
    ...base(e.tenantId, ref.id, named(e.name, e.en)),
    fields: { estatus: e.estatus, reviewReason: e.reviewReason },
  };
}

async function readSsoService(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [s] = await q.select().from(ssoServices).where(eq(ssoServices.id, ref.id));
  if (!s) return null;
  return {
    ...base(s.tenantId, ref.id, named(s.name, null)),
    fields: {
      name: s.name,
      pattern: s.pattern,
      sysCode: s.sysCode,
      entryUrl: s.entryUrl,
      logoutUrl: s.logoutUrl,
      enabled: s.enabled,
    },
  };
}

/** An OIDC client: its settings, never its secret's hash (only whether one is set). */
async function readOidcClient(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [c] = await q
    .select({
      tenantId: oidcClients.tenantId,
      clientId: oidcClients.clientId,
      name: oidcClients.name,
      en: englishOf(oidcClients.translations, 'name'),
      confidential: oidcClients.confidential,
      grantTypes: oidcClients.grantTypes,
      redirectUris: oidcClients.redirectUris,
      postLogoutRedirectUris: oidcClients.postLogoutRedirectUris,
      backchannelLogoutUri: oidcClients.backchannelLogoutUri,
      scopes: oidcClients.scopes,
      firstParty: oidcClients.firstParty,
      idTokenAlg: oidcClients.idTokenAlg,
      enabled: oidcClients.enabled,
    })
    .from(oidcClients)
    .where(eq(oidcClients.id, ref.id));
  if (!c) return null;
  // `idTokenAlg` reads as a token to the audit's redaction: kept under a name that does not.
  const { tenantId, en, idTokenAlg, ...fields } = c;
  return { ...base(tenantId, ref.id, named(c.name, en)), fields: { ...fields, nameEn: en, signatureAlg: idTokenAlg } };
}

async function readMicroApp(q: Q, ref: SubjectRef, tenantId: number): Promise<Reading | null> {
  const where =
    ref.id !== undefined
      ? eq(microApps.id, ref.id)
      : ref.code !== undefined
        ? and(eq(microApps.tenantId, tenantId), eq(microApps.code, ref.code))
        : undefined;
  if (!where) return null;
  const [a] = await q
    .select({
      id: microApps.id,
      tenantId: microApps.tenantId,
      code: microApps.code,
      name: microApps.name,
      en: englishOf(microApps.translations, 'name'),
      entry: microApps.entry,
      serviceType: microApps.serviceType,
      sort: microApps.sort,
    })
    .from(microApps)
    .where(where);
  if (!a) return null;
  return {
    ...base(a.tenantId, a.id, named(a.name, a.en)),
    fields: { code: a.code, name: a.name, nameEn: a.en, entry: a.entry, serviceType: a.serviceType, sort: a.sort },
  };
}

async function readNotice(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [n] = await q
    .select({
      tenantId: notices.tenantId,
      title: notices.title,
      en: englishOf(notices.translations, 'title'),
      withdrawn: sql<boolean>`${notices.withdrawnAt} IS NOT NULL`,
    })
    .from(notices)
    .where(eq(notices.id, ref.id));
  if (!n) return null;
  return {
    ...base(n.tenantId, ref.id, named(n.title, n.en)),
    fields: { title: n.title, titleEn: n.en, withdrawn: n.withdrawn },
  };
}

async function readDevice(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [d] = await q
    .select({
      tenantId: devices.tenantId,
      code: devices.code,
      name: devices.name,
      en: englishOf(devices.translations, 'name'),
      location: devices.location,
      isPublic: devices.isPublic,
      credentials: sql<number>`(SELECT count(*) FROM ${deviceCredentials} c
        WHERE c.device_id = ${devices.id} AND c.revoked_at IS NULL)`.mapWith(Number),
    })
    .from(devices)
    .where(eq(devices.id, ref.id));
  if (!d) return null;
  return {
    ...base(d.tenantId, ref.id, named(d.name, d.en)),
    fields: {
      code: d.code,
      name: d.name,
      nameEn: d.en,
      location: d.location,
      isPublic: d.isPublic,
      credentials: d.credentials,
    },
  };
}

/** The device a credential belongs to (a revocation names the credential). */
async function readDeviceOfCredential(q: Q, ref: SubjectRef): Promise<Reading | null> {
  if (ref.id === undefined) return null;
  const [c] = await q
    .select({ deviceId: deviceCredentials.deviceId })
    .from(deviceCredentials)
    .where(eq(deviceCredentials.id, ref.id));
  return c ? readDevice(q, { id: c.deviceId }) : null;
}

/** A page of the builder, by its code in the tenant: its versions. */
async function readPage(q: Q, ref: SubjectRef, tenantId: number): Promise<Reading | null> {
  if (ref.code === undefined) return null;
  const [p] = await q
    .select({
      id: pageDefinitions.id,
      tenantId: pageDefinitions.tenantId,
      code: pageDefinitions.code,
      publishedVersion: pageDefinitions.publishedVersion,
      latestVersion: sql<
        number | null
      >`(SELECT max(v.version) FROM ${pageVersions} v WHERE v.page_id = ${pageDefinitions.id})`,
    })
    .from(pageDefinitions)
    .where(and(eq(pageDefinitions.tenantId, tenantId), eq(pageDefinitions.code, ref.code)));
  if (!p) return null;
  return {
    ...base(p.tenantId, p.id, named(p.code, null)),
    fields: { publishedVersion: p.publishedVersion, latestVersion: p.latestVersion },
  };
}

const user = { type: 'user', read: readUser, before: byParam, after: byParam } as const;

/** The user of a sign-in (`sso-<uuid>` or `portal-<uuid>`, as the sessions module names them) of the tenant. */
async function readUserOfSignIn(q: Q, ref: SubjectRef): Promise<Reading | null> {
  const m = ref.code ? /^(sso|portal)-([0-9a-f-]{36})$/.exec(ref.code) : null;
  if (!m) return null;
  const { rows } = await q.execute<{ id: string }>(
    m[1] === 'sso'
      ? sql`SELECT user_id::text AS id FROM sso_sessions WHERE id = ${m[2]}::uuid`
      : sql`SELECT user_id::text AS id FROM sessions WHERE chain_id = ${m[2]}::uuid LIMIT 1`,
  );
  return rows[0] ? readUser(q, { id: Number(rows[0].id) }) : null;
}
const tenantActedOn = { type: 'tenant', read: readTenant, before: tenantBefore, after: tenantAfter } as const;
const created = <T extends SubjectRule>(rule: T): SubjectRule => ({
  type: rule.type,
  read: rule.read,
  after: byResult,
});
const role = { type: 'role', read: readRole, before: byParam, after: byParam } as const;
const permission = { type: 'permission', read: readPermission, before: byParam, after: byParam } as const;
const application = { type: 'application', read: readCoded(applications), before: byParam, after: byParam } as const;
const workbench = { type: 'workbench', read: readCoded(workbenches), before: byParam, after: byParam } as const;
const menu = { type: 'menu', read: readMenu, before: byParam, after: byParam } as const;
const ssoService = { type: 'sso_service', read: readSsoService, before: byParam, after: byParam } as const;
const oidcClient = { type: 'oidc_client', read: readOidcClient, before: byParam, after: byParam } as const;
const device = { type: 'device', read: readDevice, before: byParam, after: byParam } as const;
const page = { type: 'page', read: readPage, before: byCodeParam, after: byCodeParam } as const;

/**
 * Every audited operator's code: the object it changes, or null for a change that names none.
 * Keep it beside `ADMIN_ROUTE_ACTIONS`: a new route's code needs an entry here too.
 */
export const AUDIT_SUBJECTS: Partial<Record<AuditAction, SubjectRule | null>> = {
  'user.create': created(user),
  'user.update': user,
  'user.disable': user,
  'user.enable': user,
  'user.password.set': user,
  'user.unlock': user,
  'user.factors.reset': { type: 'user', read: readUserFactors, before: byParam, after: byParam },
  'user.roles.set': user,
  'user.enterprises.set': user,
  'role.create': created(role),
  'role.update': role,
  'role.permissions.set': role,
  'permission.create': created(permission),
  'permission.update': permission,
  'application.create': created(application),
  'application.update': application,
  'workbench.create': created(workbench),
  'workbench.update': workbench,
  'menu.create': created(menu),
  'menu.update': menu,
  'menu.move': menu,
  'menu.delete': { type: 'menu', read: readMenu, before: byParam },
  'menu.import': null,
  'tenant.create': created({ type: 'tenant', read: readTenant }),
  'tenant.update': { type: 'tenant', read: readTenant, before: byParam, after: byParam },
  'settings.update': tenantActedOn,
  'settings.logo.upload': tenantActedOn,
  'agreement.update': tenantActedOn,
  'security_policy.update': { type: 'tenant', read: readSecurityPolicy, before: tenantBefore, after: tenantAfter },
  'enterprise.review': { type: 'enterprise', read: readEnterprise, before: byParam, after: byParam },
  'sso_service.create': created(ssoService),
  'sso_service.update': ssoService,
  'sso_service.delete': { type: 'sso_service', read: readSsoService, before: byParam },
  'oidc_client.create': created(oidcClient),
  'oidc_client.update': oidcClient,
  'oidc_client.enable': oidcClient,
  'oidc_client.disable': oidcClient,
  'oidc_client.delete': { type: 'oidc_client', read: readOidcClient, before: byParam },
  'oidc_client.secret.rotate': oidcClient,
  'sms_outbox.read': null,
  'audit.export': null,
  // The user whose sign-in an operator ended: the sign-in's (read before it ends), or the route's :id.
  'signin.end': { type: 'user', read: readUserOfSignIn, before: (c) => codeRef(field(c.params, 'id')) },
  'signin.end_user': user,
  'login_history.export': null,
  'microapp.register': {
    type: 'microapp',
    read: readMicroApp,
    before: (c) => codeRef(field(c.body, 'code')),
    after: byResult,
  },
  'microapp.remove': { type: 'microapp', read: readMicroApp, before: byParam },
  'notice.publish': created({ type: 'notice', read: readNotice }),
  'notice.withdraw': { type: 'notice', read: readNotice, before: byParam, after: byParam },
  // An upload belongs to no notice yet; an export changes nothing of the notice it reads.
  'notice.attachment.upload': null,
  'notice.recipients.export': { type: 'notice', read: readNotice, before: byParam, after: byParam },
  'device.create': created(device),
  'device.credential.issue': device,
  'device.credential.revoke': { type: 'device', read: readDeviceOfCredential, before: byParam, after: byParam },
  'page.version.save': page,
  'page.publish': page,
  'page.restore': page,
};

/** The readings of one change: before (when it had one), and the rule that reads after. */
export interface SubjectWatch {
  rule: SubjectRule;
  before: Reading | null;
}

/** Reads the object before the handler runs (null: the code names none, or no rule knows it). */
export async function readBefore(q: Q, action: AuditAction, call: SubjectCall): Promise<SubjectWatch | null> {
  const rule = AUDIT_SUBJECTS[action];
  if (!rule) return null;
  const ref = rule.before?.(call);
  return { rule, before: ref ? await rule.read(q, ref, call.sessionTenant) : null };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** What changed between two readings, field by field (values as the audit keeps them: cut, secrets out). */
export function changesBetween(before: Reading | null, after: Reading | null): AuditChange[] {
  const keep = (v: AuditValue | undefined) => auditedValue(v ?? null) as AuditValue;
  const keys = [...new Set([...Object.keys(before?.fields ?? {}), ...Object.keys(after?.fields ?? {})])];
  const changes: AuditChange[] = [];
  for (const key of keys) {
    const from = before?.fields[key];
    const to = after?.fields[key];
    if (before && after) {
      if (!same(from, to)) changes.push({ field: key, from: keep(from), to: keep(to) });
    } else if (after) {
      // A new object: what it was given, not every default it has (false, empty).
      if (!isEmpty(to) && to !== false) changes.push({ field: key, to: keep(to) });
    } else if (!isEmpty(from)) {
      changes.push({ field: key, from: keep(from) });
    }
  }
  // Whatever a reading holds, a field named like a secret is never kept (auditedValue's rule).
  return changes.filter((c) => !isSecretKey(c.field));
}

/**
 * The object and the changes for the row, once the handler succeeded: the object read again, in
 * the tenant the row is written for (an object of another tenant is never named in this one's log).
 */
export async function subjectOf(
  q: Q,
  watch: SubjectWatch | null,
  call: SubjectCall,
  rowTenant: number,
): Promise<{ subject: AuditSubject; changes: AuditChange[] } | null> {
  if (!watch) return null;
  const ref = watch.rule.after?.(call);
  const after = ref ? await watch.rule.read(q, ref, call.actedOn ?? call.sessionTenant) : null;
  const mine = (r: Reading | null) => (r && (watch.rule.type === 'tenant' || r.tenantId === rowTenant) ? r : null);
  const before = mine(watch.before);
  const now = mine(after);
  const named = now ?? before;
  if (!named) return null;
  const subject: AuditSubject = {
    type: watch.rule.type,
    id: named.id,
    name: named.name,
    ...(named.en ? { en: named.en } : {}),
    ...(named.username ? { username: named.username } : {}),
  };
  return { subject: auditedValue(subject) as AuditSubject, changes: changesBetween(before, now) };
}
