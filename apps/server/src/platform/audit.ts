/**
 * The audit log's one writer (ADR 039). Every row carries a code of the catalogue
 * (`AUDIT_ACTIONS` in the contracts, with its labels in Chinese and English) and is written in the
 * transaction of the change it records (ADR 037): `writeAudit(tx, entry)` takes that transaction.
 * The operators' routes are mapped to their codes here (`ADMIN_ROUTE_ACTIONS`); the hook of
 * `operators.ts` refuses to register a route the map lacks. The hot paths of sign-in and logout
 * write their rows inside their own named statements, with `auditCode` putting the code into the
 * statement's text.
 */
import type { AuditAction } from '@portal/contracts';
import { isAuditAction } from '@portal/contracts';
import type { Db, Tx } from '../db/client.js';
import { auditLog } from '../db/schema.js';

export type { AuditAction };

export interface AuditRow {
  /** The tenant the action concerns (acted on); null when no tenant is known (a failed captcha). */
  tenantId: number | null;
  /** Who did it; null when no one is known. */
  userId: number | null;
  action: AuditAction;
  /** The client's address. */
  ip?: string | null | undefined;
  detail?: Record<string, unknown> | null | undefined;
}

/** Writes one row, in `tx`: the transaction of the change it records (or the scoped database). */
export async function writeAudit(tx: Db | Tx, row: AuditRow): Promise<void> {
  await tx.insert(auditLog).values({
    tenantId: row.tenantId,
    userId: row.userId,
    action: row.action,
    detail: row.detail ?? null,
    ip: row.ip ?? null,
  });
}

/**
 * A code as an SQL string literal, for the named statements of the hot paths that write their row
 * in the statement of the change itself. Codes are lower-case words, dots and underscores; checked
 * anyway, since this is text spliced into SQL.
 */
export function auditCode(action: AuditAction): string {
  if (!/^[a-z_.]+$/.test(action) || !isAuditAction(action)) throw new Error(`not an audit code: ${action}`);
  return `'${action}'`;
}

/**
 * Every audited route under `/api/admin/` (changes, and reads marked `auditedRead`), by
 * `METHOD path` as registered, and the code its rows carry. Until the catalogue existed the rows
 * held `admin:METHOD path`; migration 0018 turned those into these codes. Each code also needs its
 * entry in `AUDIT_SUBJECTS` (audit-subjects.ts: the object it changes, or none).
 */
export const ADMIN_ROUTE_ACTIONS = {
  'POST /api/admin/users': 'user.create',
  'PATCH /api/admin/users/:id': 'user.update',
  'POST /api/admin/users/:id/disable': 'user.disable',
  'POST /api/admin/users/:id/enable': 'user.enable',
  'POST /api/admin/users/:id/password': 'user.password.set',
  'POST /api/admin/users/:id/unlock': 'user.unlock',
  'POST /api/admin/users/:id/factors/reset': 'user.factors.reset',
  'PUT /api/admin/users/:id/roles': 'user.roles.set',
  'PUT /api/admin/users/:id/enterprises': 'user.enterprises.set',
  'POST /api/admin/roles': 'role.create',
  'PATCH /api/admin/roles/:id': 'role.update',
  'PUT /api/admin/roles/:id/permissions': 'role.permissions.set',
  'POST /api/admin/permissions': 'permission.create',
  'PATCH /api/admin/permissions/:id': 'permission.update',
  'POST /api/admin/applications': 'application.create',
  'PATCH /api/admin/applications/:id': 'application.update',
  'POST /api/admin/workbenches': 'workbench.create',
  'PATCH /api/admin/workbenches/:id': 'workbench.update',
  'POST /api/admin/menus': 'menu.create',
  'PATCH /api/admin/menus/:id': 'menu.update',
  'POST /api/admin/menus/:id/move': 'menu.move',
  'DELETE /api/admin/menus/:id': 'menu.delete',
  'POST /api/admin/menus/import': 'menu.import',
  'POST /api/admin/tenants': 'tenant.create',
  'PATCH /api/admin/tenants/:id': 'tenant.update',
  'PUT /api/admin/settings': 'settings.update',
  'POST /api/admin/settings/logo': 'settings.logo.upload',
  'PUT /api/admin/agreement': 'agreement.update',
  'PUT /api/admin/security-policy': 'security_policy.update',
  'POST /api/admin/enterprises/:id/review': 'enterprise.review',
  'POST /api/admin/sso-services': 'sso_service.create',
  'PATCH /api/admin/sso-services/:id': 'sso_service.update',
  'DELETE /api/admin/sso-services/:id': 'sso_service.delete',
  'POST /api/admin/oidc-clients': 'oidc_client.create',
  'PATCH /api/admin/oidc-clients/:id': 'oidc_client.update',
  'POST /api/admin/oidc-clients/:id/enable': 'oidc_client.enable',
  'POST /api/admin/oidc-clients/:id/disable': 'oidc_client.disable',
  'DELETE /api/admin/oidc-clients/:id': 'oidc_client.delete',
  'POST /api/admin/oidc-clients/:id/secret': 'oidc_client.secret.rotate',
  'GET /api/admin/sms-outbox': 'sms_outbox.read',
  'GET /api/admin/audit/export': 'audit.export',
  'POST /api/admin/sign-ins/:id/end': 'signin.end',
  'POST /api/admin/online-users/:id/end': 'signin.end_user',
  'GET /api/admin/login-history/export': 'login_history.export',
  'POST /api/admin/micro-apps': 'microapp.register',
  'POST /api/admin/micro-apps/:id/remove': 'microapp.remove',
  'POST /api/admin/notices': 'notice.publish',
  'POST /api/admin/notices/:id/withdraw': 'notice.withdraw',
  'POST /api/admin/notices/attachments': 'notice.attachment.upload',
  'GET /api/admin/notices/:id/recipients/export': 'notice.recipients.export',
  'POST /api/admin/devices': 'device.create',
  'POST /api/admin/devices/:id/credentials': 'device.credential.issue',
  'POST /api/admin/device-credentials/:id/revoke': 'device.credential.revoke',
  'POST /api/admin/pages/:code/versions': 'page.version.save',
  'POST /api/admin/pages/:code/publish': 'page.publish',
  'POST /api/admin/pages/:code/restore': 'page.restore',
} as const satisfies Record<string, AuditAction>;

/** The code of an audited operator's route, or undefined when the map lacks it. */
export function adminRouteAction(method: string, url: string): AuditAction | undefined {
  return (ADMIN_ROUTE_ACTIONS as Record<string, AuditAction>)[`${method} ${url}`];
}

/**
 * Keys whose values the audit never keeps: passwords and their hashes and salts, secrets, tokens,
 * captcha answers, one-time codes (`otp`, `totp`, `smsCode`, `recoveryCode`) and private, API and
 * signing keys. The short ones (`otp`, `…Key`, `…Code`) match only as words of their own, so that
 * `footprint` or a plain `code` is kept; a device's count of `credentials` is kept too.
 */
const SECRET_KEY =
  /password|passwd|secret|token|cipher|captcha|hash|salt|private|totp|(?:^|[_-])otp(?:$|[_-])|otp$|(?:^|[a-z_-])(?:api|signing|session)_?key$|(?:sms|verify|verification|recovery)_?code/i;
/** Whether a key names what the audit never keeps (a password, a secret, a token …). */
export const isSecretKey = (key: string) => SECRET_KEY.test(key);
const MAX_TEXT = 300;

/**
 * A text as jsonb can hold it: no U+0000 and no lone surrogate (PostgreSQL refuses both), so that
 * what a request carried can never make its audit row, and with it the change, fail.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is replaced
const storable = (text: string) => text.toWellFormed().replace(/\u0000/g, '\ufffd');

/** What of a request the audit keeps: secrets out, long texts cut. */
export function auditedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return storable(value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return '…';
  if (Array.isArray(value)) {
    const kept = value.slice(0, 50).map((v) => auditedValue(v, depth + 1));
    return value.length > 50 ? [...kept, `… ${value.length - 50} more`] : kept;
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      storable(k),
      SECRET_KEY.test(k) ? '[redacted]' : auditedValue(v, depth + 1),
    ]),
  );
}
