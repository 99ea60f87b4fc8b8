/**
 * Sign-ins and the login history: what a person sees of their own (账户安全) and an operator of their
 * tenant's (在线用户, 登录日志). A "sign-in" is one sign-on session (with the systems it signed into
 * and the portal sessions its tickets opened) or one portal sign-in (its sessions across switches).
 */
import { Type, type Static } from 'typebox';
import { Nullable, Text } from './fields.js';

/** How a sign-in attempt ended. */
export const LOGIN_OUTCOMES = [
  'succeeded',
  'wrong_password',
  'wrong_factor',
  'locked',
  'captcha_failed',
  'disabled',
  'password_change_required',
  'factor_required',
  'enrol_required',
  'password_expired',
] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/** Through which door: the portal's login, the sign-on server, an OpenID client's sign-in, the admin CLI, a step-up. */
export const LOGIN_VIAS = ['portal', 'cas', 'oidc', 'cli', 'step_up'] as const;
export type LoginVia = (typeof LOGIN_VIAS)[number];

/** What the user agent says of the device, in a few words (`Chrome`, `Windows`); `''` when it says nothing known. */
export const DeviceInfo = Type.Object({
  browser: Type.String(),
  os: Type.String(),
  mobile: Type.Boolean(),
});
export type DeviceInfo = Static<typeof DeviceInfo>;

export const SignIn = Type.Object({
  /** `sso-<uuid>` (a sign-on session) or `portal-<uuid>` (a portal sign-in's chain). */
  id: Type.String(),
  kind: Type.Union([Type.Literal('sso'), Type.Literal('portal')]),
  user: Type.Object({ id: Type.String(), username: Type.String(), name: Type.String() }),
  device: DeviceInfo,
  ip: Type.String(),
  startedAt: Type.String(),
  lastSeenAt: Type.String(),
  /** The sign-in the request itself is made in. */
  current: Type.Boolean(),
  /** The systems it signed into: CAS services that validated a ticket, OpenID clients. */
  systems: Type.Array(Type.String()),
  /** Its live portal sessions (a portal sign-in: 1; a sign-on session: the portal tabs its tickets opened). */
  portalSessions: Type.Integer({ minimum: 0 }),
});
export type SignIn = Static<typeof SignIn>;

export const SignInParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export type SignInParams = Static<typeof SignInParams>;

/** What "end all others" ended. */
export const SignInsEnded = Type.Object({ ended: Type.Integer({ minimum: 0 }) });
export type SignInsEnded = Static<typeof SignInsEnded>;

export const OnlineUsersQuery = Type.Object({
  tenant: Type.Optional(Text(32)),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  /** A username (exactly, any case) or words of a name. */
  user: Type.Optional(Text(64)),
  /** An address, or its beginning (`10.0.`). */
  ip: Type.Optional(Text(64)),
});
export type OnlineUsersQuery = Static<typeof OnlineUsersQuery>;

/** ISO 8601 with a zone, or a day (`2026-11-24`, China time). */
const Instant = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2}))?$',
  maxLength: 40,
});

/**
 * A search of the login history: newest first, at most `limit` entries, older ones by `before`
 * (the `next` of the previous answer). Without `from`, the last 30 days.
 */
export const LoginHistoryQuery = Type.Object({
  tenant: Type.Optional(Text(32)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$' })),
  /** A username as typed (exactly, any case); operators only. */
  user: Type.Optional(Text(64)),
  ip: Type.Optional(Text(64)),
  outcome: Type.Optional(Type.Enum([...LOGIN_OUTCOMES])),
  from: Type.Optional(Instant),
  to: Type.Optional(Instant),
});
export type LoginHistoryQuery = Static<typeof LoginHistoryQuery>;

export const LoginEvent = Type.Object({
  id: Type.String(),
  at: Type.String(),
  /** The name typed (kept also when no such user exists). */
  username: Type.String(),
  /** The user it was, when known. */
  user: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  outcome: Type.String(),
  via: Type.String(),
  factor: Nullable(Type.String()),
  ip: Type.String(),
  device: DeviceInfo,
});
export type LoginEvent = Static<typeof LoginEvent>;

export const LoginHistoryPage = Type.Object({
  records: Type.Array(LoginEvent),
  /** The `before` of the next (older) page; null when there is none. */
  next: Nullable(Type.String()),
});
export type LoginHistoryPage = Static<typeof LoginHistoryPage>;

/** At most this many entries go into one CSV export: the newest that match, the rest cut (`truncated`). */
export const LOGIN_HISTORY_EXPORT_MAX = 5000;
export const LoginHistoryExportQuery = Type.Omit(LoginHistoryQuery, ['limit', 'before']);
export type LoginHistoryExportQuery = Static<typeof LoginHistoryExportQuery>;
export const LoginHistoryExport = Type.Object({
  fileName: Type.String(),
  csv: Type.String(),
  rows: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
});
export type LoginHistoryExport = Static<typeof LoginHistoryExport>;

/** The words for an outcome and a door, in both languages (the pages and the CSV export). */
export const LOGIN_OUTCOME_LABELS: Record<LoginOutcome, { zh: string; en: string }> = {
  succeeded: { zh: '成功', en: 'Succeeded' },
  wrong_password: { zh: '密码错误或无此用户', en: 'Wrong password or no such user' },
  wrong_factor: { zh: '验证码错误', en: 'Wrong second factor' },
  locked: { zh: '账号已锁定', en: 'Account locked' },
  captcha_failed: { zh: '人机验证失败', en: 'Captcha failed' },
  disabled: { zh: '账号已停用', en: 'Account disabled' },
  password_change_required: { zh: '须先修改密码', en: 'Password change required' },
  factor_required: { zh: '等待第二因素', en: 'Second factor asked' },
  enrol_required: { zh: '须先绑定第二因素', en: 'Second factor enrolment required' },
  password_expired: { zh: '密码已过期', en: 'Password expired' },
};
export const LOGIN_VIA_LABELS: Record<LoginVia, { zh: string; en: string }> = {
  portal: { zh: '门户登录', en: 'Portal' },
  cas: { zh: '单点登录', en: 'Sign-on server' },
  oidc: { zh: 'OIDC 登录', en: 'OpenID Connect' },
  cli: { zh: '命令行', en: 'Command line' },
  step_up: { zh: '二次验证', en: 'Step-up' },
};
