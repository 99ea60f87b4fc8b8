/**
 * What a person reads of an audit row (ADR 044): a sentence in the reader's language naming who did
 * what to which object ("张三 通过了 蓝海智能制造有限公司 的入驻审核"), and what changed, field by field,
 * in words. Built when the row is read, from its code, the object it names (`subject`, with the
 * object's name as it was then) and its changes: the console's 审计日志 page and the server's CSV
 * export call these same functions. Pure.
 *
 * A row without what a sentence needs (written before rows named their objects, or of a code no
 * sentence is written for yet) gets the generic sentence: who, and the action's label.
 */
import { auditLabel, isAuditAction, type AuditAction } from './audit.js';

type Lang = 'zh' | 'en';
interface Label {
  zh: string;
  en: string;
}

/** The kinds of object an audit row can name, with the words for each. */
export const AUDIT_SUBJECT_TYPES = {
  user: { zh: '用户', en: 'User' },
  role: { zh: '角色', en: 'Role' },
  permission: { zh: '权限', en: 'Permission' },
  application: { zh: '应用', en: 'Application' },
  workbench: { zh: '工作台', en: 'Workbench' },
  menu: { zh: '菜单', en: 'Menu entry' },
  tenant: { zh: '租户', en: 'Tenant' },
  enterprise: { zh: '企业', en: 'Enterprise' },
  sso_service: { zh: '单点登录服务', en: 'Sign-on service' },
  oidc_client: { zh: 'OIDC 客户端', en: 'OIDC client' },
  microapp: { zh: '子应用', en: 'Sub-application' },
  notice: { zh: '通知', en: 'Notice' },
  device: { zh: '设备', en: 'Device' },
  page: { zh: '页面', en: 'Page' },
} as const satisfies Record<string, Label>;
export type AuditSubjectType = keyof typeof AUDIT_SUBJECT_TYPES;
export const AUDIT_SUBJECT_TYPE_CODES = Object.keys(AUDIT_SUBJECT_TYPES) as AuditSubjectType[];
export const isAuditSubjectType = (t: string): t is AuditSubjectType => Object.hasOwn(AUDIT_SUBJECT_TYPES, t);

/** A named thing as it was when the row was written: its name, and its English name when it had one. */
export interface AuditName {
  name: string;
  en?: string;
}

/** The object a row names: its kind, id and name at the time (a user's username too). */
export interface AuditSubject extends AuditName {
  type: string;
  id: string;
  username?: string;
}

/** A value before or after a change: plain values, a named thing, or a list of them. */
export type AuditValue = string | number | boolean | null | AuditName | (string | AuditName)[];

/** One field that changed: `from` absent when the object was created, `to` absent when it was removed. */
export interface AuditChange {
  field: string;
  from?: unknown;
  to?: unknown;
}

/**
 * The fields' names in both languages. A field without one shows its key. Secrets are never among
 * the fields a row keeps (the server's loaders never read them, and redact any key that looks like one).
 */
export const AUDIT_FIELDS: Record<string, Label> = {
  name: { zh: '名称', en: 'Name' },
  nameEn: { zh: '英文名称', en: 'English name' },
  username: { zh: '用户名', en: 'Username' },
  nickname: { zh: '昵称', en: 'Nickname' },
  mobile: { zh: '手机号', en: 'Mobile' },
  disabled: { zh: '已停用', en: 'Disabled' },
  locked: { zh: '已锁定', en: 'Locked' },
  mustChange: { zh: '登录时须修改密码', en: 'Must change the password at sign-in' },
  roles: { zh: '角色', en: 'Roles' },
  enterprises: { zh: '所属企业', en: 'Enterprises' },
  permissions: { zh: '权限', en: 'Permissions' },
  title: { zh: '标题', en: 'Title' },
  titleEn: { zh: '英文标题', en: 'English title' },
  withdrawn: { zh: '已撤回', en: 'Withdrawn' },
  code: { zh: '编码', en: 'Code' },
  describe: { zh: '说明', en: 'Description' },
  type: { zh: '类型', en: 'Type' },
  status: { zh: '状态', en: 'Status' },
  isDefault: { zh: '默认角色', en: 'Default role' },
  estatus: { zh: '审核状态', en: 'Review status' },
  reviewReason: { zh: '审核意见', en: 'Review reason' },
  parent: { zh: '上级菜单', en: 'Parent entry' },
  path: { zh: '路径', en: 'Path' },
  component: { zh: '组件', en: 'Component' },
  hidden: { zh: '隐藏', en: 'Hidden' },
  sort: { zh: '排序', en: 'Order' },
  pattern: { zh: '服务地址', en: 'Service address' },
  sysCode: { zh: '系统编码', en: 'System code' },
  entryUrl: { zh: '进入地址', en: 'Entry address' },
  logoutUrl: { zh: '退出地址', en: 'Logout address' },
  enabled: { zh: '启用', en: 'Enabled' },
  clientId: { zh: '客户端标识', en: 'Client ID' },
  confidential: { zh: '机密客户端', en: 'Confidential client' },
  grantTypes: { zh: '授权类型', en: 'Grant types' },
  redirectUris: { zh: '登录回调地址', en: 'Redirect URIs' },
  postLogoutRedirectUris: { zh: '退出后跳转地址', en: 'Post-logout redirect URIs' },
  backchannelLogoutUri: { zh: '后台退出通知地址', en: 'Back-channel logout URI' },
  scopes: { zh: '授权范围', en: 'Scopes' },
  firstParty: { zh: '自有应用（免授权确认）', en: 'First-party (no consent screen)' },
  signatureAlg: { zh: 'ID 令牌签名算法', en: 'ID token algorithm' },
  entry: { zh: '入口地址', en: 'Entry' },
  serviceType: { zh: '服务类型', en: 'Service type' },
  homeUrl: { zh: '园区首页', en: 'Home page' },
  location: { zh: '位置', en: 'Location' },
  isPublic: { zh: '公开', en: 'Public' },
  credentials: { zh: '有效凭据数', en: 'Valid credentials' },
  publishedVersion: { zh: '已发布版本', en: 'Published version' },
  latestVersion: { zh: '最新版本', en: 'Latest version' },
  agreement: { zh: '用户协议', en: 'User agreement' },
  agreementEn: { zh: '英文用户协议', en: 'User agreement (English)' },
  recipients: { zh: '接收人数', en: 'Recipients' },
  // The tenant's settings (the console's 租户设置 form names them the same way).
  siteName: { zh: '站点名称', en: 'Site name' },
  siteNameEn: { zh: '英文站点名称', en: 'Site name in English' },
  logo: { zh: '标志', en: 'Logo' },
  theme: { zh: '布局主题', en: 'Layout theme' },
  apptheme: { zh: '应用布局主题', en: 'Application layout theme' },
  registerTheme: { zh: '注册页样式', en: 'Registration page style' },
  noticeEnabled: { zh: '通知', en: 'Notices' },
  registerWithoutSms: { zh: '注册免短信验证', en: 'Registration without SMS' },
  notsms: { zh: '注册需短信验证', en: 'SMS check at registration' },
  workbenchEnabled: { zh: '切换工作台', en: 'Workbench switch' },
  appSwitch: { zh: '切换应用', en: 'Application switch' },
  keepAlive: { zh: '页签保活', en: 'Keep tabs alive' },
  languageSwitch: { zh: '语言切换', en: 'Language switch' },
  homePortalLink: { zh: '返回园区首页链接', en: 'Link back to the park’s home' },
  domianURL: { zh: '园区首页地址', en: 'Park home address' },
  defaultLocale: { zh: '默认语言', en: 'Default language' },
};

/** The words for coded values of some fields. */
const VALUE_WORDS: Record<string, Record<string, Label>> = {
  estatus: {
    '0': { zh: '待审核', en: 'Awaiting review' },
    '1': { zh: '已通过', en: 'Approved' },
    '2': { zh: '未通过', en: 'Rejected' },
  },
};

const words = {
  yes: { zh: '是', en: 'Yes' },
  no: { zh: '否', en: 'No' },
  empty: { zh: '（空）', en: '(empty)' },
  none: { zh: '（无）', en: '(none)' },
  someone: { zh: '有人', en: 'Someone' },
} satisfies Record<string, Label>;

/** A field's name in `lang`: its label, or the key when it has none. */
export function auditFieldLabel(field: string, lang: Lang): string {
  return Object.hasOwn(AUDIT_FIELDS, field) ? AUDIT_FIELDS[field]![lang] : field;
}

/** What the kind of an object is called in `lang` (the stored text when it is no kind we know). */
export function auditSubjectTypeLabel(type: string, lang: Lang): string {
  return isAuditSubjectType(type) ? AUDIT_SUBJECT_TYPES[type][lang] : type;
}

const isName = (v: unknown): v is AuditName =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as AuditName).name === 'string';

/** A name in `lang`: its English name in English when it has one. */
export function auditNameIn(n: AuditName, lang: Lang): string {
  return lang === 'en' && n.en ? n.en : n.name;
}

/** A value before or after a change, in words. */
export function auditValueText(field: string, value: unknown, lang: Lang): string {
  if (value === undefined || value === null || value === '') return words.empty[lang];
  if (typeof value === 'boolean') return (value ? words.yes : words.no)[lang];
  const coded = VALUE_WORDS[field]?.[String(value)];
  if (coded) return coded[lang];
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return words.none[lang];
    return value
      .map((v: unknown) => (isName(v) ? auditNameIn(v, lang) : auditValueText(field, v, lang)))
      .join(lang === 'zh' ? '、' : ', ');
  }
  return isName(value) ? auditNameIn(value, lang) : JSON.stringify(value);
}

/** The object as a sentence names it: its name in `lang`, a user with the username. */
export function auditSubjectText(s: AuditSubject, lang: Lang): string {
  const name = auditNameIn(s, lang);
  if (!s.username || s.username === name) return name;
  return lang === 'zh' ? `${name}（${s.username}）` : `${name} (${s.username})`;
}

/** What a sentence is built from: one row as the audit query answers it. */
export interface AuditSentenceInput {
  action: string;
  actor: { name: string; username: string } | null;
  subject?: AuditSubject | null | undefined;
  changes?: AuditChange[] | null | undefined;
  detail?: Record<string, unknown> | null | undefined;
}

/**
 * A sentence: `{actor}` the one who acted, `{object}` the object the row names, `{username}` the
 * username a failed sign-in typed. A template with `{object}` needs a subject, one with `{actor}`
 * an actor; `noActor` is the sentence for a row with none.
 */
interface Sentence {
  zh: string;
  en: string;
  noActor?: Label;
}

const s = (zh: string, en: string, noActor?: Label): Sentence => (noActor ? { zh, en, noActor } : { zh, en });

/**
 * A sentence for each code. Kept partial on purpose: a code added without one (another change's)
 * still reads, through the generic sentence, and `audit-sentences.test.ts` fails until it has one.
 */
export const AUDIT_SENTENCES: Partial<Record<AuditAction, Sentence>> = {
  'login.succeeded': s('{actor} 登录成功', '{actor} signed in'),
  'login.failed': s('{actor} 登录失败：密码错误', '{actor} failed to sign in: wrong password', {
    zh: '登录失败：用户名 {username}（无此用户）',
    en: 'Sign-in failed: username {username} (no such user)',
  }),
  'login.locked': s('{actor} 登录被拒：账号已锁定', '{actor} was refused sign-in: the account is locked', {
    zh: '登录被拒（账号已锁定）：用户名 {username}',
    en: 'Sign-in refused (account locked): username {username}',
  }),
  'login.disabled': s('{actor} 登录被拒：账号已停用', '{actor} was refused sign-in: the account is disabled', {
    zh: '登录被拒（账号已停用）：用户名 {username}',
    en: 'Sign-in refused (account disabled): username {username}',
  }),
  'login.captcha_failed': s('{actor} 登录失败：验证码错误', '{actor} failed to sign in: wrong captcha', {
    zh: '登录失败：验证码错误',
    en: 'Sign-in failed: wrong captcha',
  }),
  logout: s('{actor} 退出登录', '{actor} signed out'),
  'logout.single': s('{actor} 经单点登出退出登录', '{actor} was signed out by single logout'),
  'session.end': s('{actor} 结束了本人的一个登录', '{actor} ended one of their sign-ins'),
  'session.end_others': s('{actor} 结束了本人的其他登录', '{actor} ended their other sign-ins'),
  'session.switch': s(
    '{actor} 切换了角色、应用、工作台或企业',
    '{actor} switched role, application, workbench or enterprise',
  ),
  'sso.login': s('{actor} 在单点登录服务登录成功', '{actor} signed in on the sign-on server'),
  'login.passkey': s('{actor} 用通行密钥登录成功', '{actor} signed in with a passkey'),
  'login.passkey_failed': s('{actor} 通行密钥登录失败', '{actor} failed to sign in with a passkey', {
    zh: '通行密钥登录失败（通行密钥不属于本园区的任何人，或验证已过期）',
    en: 'Passkey sign-in failed (a passkey of no one in this park, or an expired check)',
  }),
  'sso.login.passkey': s(
    '{actor} 在单点登录服务用通行密钥登录成功',
    '{actor} signed in on the sign-on server with a passkey',
  ),
  'passkey.enrol': s('{actor} 添加了通行密钥', '{actor} added a passkey'),
  'passkey.rename': s('{actor} 重命名了通行密钥', '{actor} renamed a passkey'),
  'passkey.remove': s('{actor} 删除了通行密钥', '{actor} removed a passkey'),
  'login.password_expired': s(
    '{actor} 登录时密码已过期，须先修改密码',
    '{actor} signed in with an expired password and must change it first',
  ),
  'sso.login.password_change_required': s(
    '{actor} 单点登录被拒：须先修改密码',
    '{actor} was refused sign-on: the password must be changed first',
  ),
  'factor.enrolled': s('{actor} 添加了第二验证方式', '{actor} added a second factor'),
  'factor.removed': s('{actor} 删除了第二验证方式', '{actor} removed a second factor'),
  'factor.recovery_codes': s('{actor} 生成了新的恢复码', '{actor} generated new recovery codes'),
  'factor.succeeded': s('{actor} 通过了第二验证', '{actor} passed the second factor'),
  'factor.failed': s('{actor} 第二验证失败', '{actor} failed the second factor'),
  'factor.locked': s(
    '{actor} 第二验证被拒：账号已锁定',
    '{actor} was refused the second factor: the account is locked',
  ),
  'factor.step_up': s('{actor} 为敏感操作再次验证了身份', '{actor} confirmed their identity for a sensitive action'),
  'password.change': s('{actor} 修改了本人密码', '{actor} changed their own password'),
  'password.reset': s('{actor} 通过短信找回了密码', '{actor} reset their password by SMS'),
  'password.verify': s('{actor} 修改密码前核对了旧密码', '{actor} confirmed their old password before changing it'),
  'password.confirm_failed': s('{actor} 核对本人密码失败', '{actor} failed to confirm their own password'),
  'password.locked': s(
    '{actor} 核对本人密码被拒：账号已锁定',
    '{actor} was refused a password confirmation: the account is locked',
  ),
  'mobile.verified': s('{actor} 验证了手机号', '{actor} verified their mobile number'),
  'register.company': s('{actor} 注册了企业', '{actor} registered a company'),
  'register.member': s('{actor} 完成了个人注册', '{actor} registered as a member'),
  'invitation.accepted': s('{actor} 接受了企业邀请', '{actor} accepted an enterprise invitation'),
  'bootstrap.operator': s(
    '命令行创建了平台运营人员 {actor}',
    '{actor} was created as a platform operator on the command line',
  ),
  'user.create': s('{actor} 新增了用户 {object}', '{actor} created the user {object}'),
  'user.update': s('{actor} 修改了用户 {object}', '{actor} changed the user {object}'),
  'user.disable': s('{actor} 停用了用户 {object}', '{actor} disabled the user {object}'),
  'user.enable': s('{actor} 启用了用户 {object}', '{actor} enabled the user {object}'),
  'user.password.set': s('{actor} 设置了用户 {object} 的密码', '{actor} set the password of {object}'),
  'user.unlock': s('{actor} 解锁了用户 {object}', '{actor} unlocked the user {object}'),
  'user.factors.reset': s('{actor} 重置了用户 {object} 的两步验证', '{actor} reset the second factors of {object}'),
  'user.roles.set': s('{actor} 设置了用户 {object} 的角色', '{actor} set the roles of {object}'),
  'user.enterprises.set': s('{actor} 设置了用户 {object} 所属的企业', '{actor} set the enterprises of {object}'),
  'role.create': s('{actor} 新增了角色 {object}', '{actor} created the role {object}'),
  'role.update': s('{actor} 修改了角色 {object}', '{actor} changed the role {object}'),
  'role.permissions.set': s('{actor} 设置了角色 {object} 的权限', '{actor} set the permissions of the role {object}'),
  'permission.create': s('{actor} 新增了权限 {object}', '{actor} created the permission {object}'),
  'permission.update': s('{actor} 修改了权限 {object}', '{actor} changed the permission {object}'),
  'application.create': s('{actor} 新增了应用 {object}', '{actor} created the application {object}'),
  'application.update': s('{actor} 修改了应用 {object}', '{actor} changed the application {object}'),
  'workbench.create': s('{actor} 新增了工作台 {object}', '{actor} created the workbench {object}'),
  'workbench.update': s('{actor} 修改了工作台 {object}', '{actor} changed the workbench {object}'),
  'menu.create': s('{actor} 新增了菜单 {object}', '{actor} created the menu entry {object}'),
  'menu.update': s('{actor} 修改了菜单 {object}', '{actor} changed the menu entry {object}'),
  'menu.move': s('{actor} 移动了菜单 {object}', '{actor} moved the menu entry {object}'),
  'menu.delete': s('{actor} 删除了菜单 {object}', '{actor} deleted the menu entry {object}'),
  'menu.import': s('{actor} 导入了菜单', '{actor} imported the menus'),
  'tenant.create': s('{actor} 新增了租户 {object}', '{actor} created the tenant {object}'),
  'tenant.update': s('{actor} 修改了租户 {object}', '{actor} changed the tenant {object}'),
  'settings.update': s('{actor} 修改了 {object} 的租户设置', '{actor} changed the settings of {object}'),
  'settings.logo.upload': s('{actor} 上传了 {object} 的标志', '{actor} uploaded the logo of {object}'),
  'agreement.update': s('{actor} 修改了 {object} 的用户协议', '{actor} changed the user agreement of {object}'),
  'security_policy.update': s('{actor} 修改了 {object} 的安全策略', '{actor} changed the security policy of {object}'),
  // The review's sentence says the decision (see `reviewSentence`); this one is for a decision it can't tell.
  'enterprise.review': s('{actor} 审核了 {object}', '{actor} reviewed {object}'),
  'sso_service.create': s('{actor} 登记了单点登录服务 {object}', '{actor} registered the sign-on service {object}'),
  'sso_service.update': s('{actor} 修改了单点登录服务 {object}', '{actor} changed the sign-on service {object}'),
  'sso_service.delete': s('{actor} 删除了单点登录服务 {object}', '{actor} deleted the sign-on service {object}'),
  'oidc_client.create': s('{actor} 登记了 OIDC 客户端 {object}', '{actor} registered the OIDC client {object}'),
  'oidc_client.update': s('{actor} 修改了 OIDC 客户端 {object}', '{actor} changed the OIDC client {object}'),
  'oidc_client.enable': s('{actor} 启用了 OIDC 客户端 {object}', '{actor} enabled the OIDC client {object}'),
  'oidc_client.disable': s('{actor} 停用了 OIDC 客户端 {object}', '{actor} disabled the OIDC client {object}'),
  'oidc_client.delete': s('{actor} 删除了 OIDC 客户端 {object}', '{actor} deleted the OIDC client {object}'),
  'oidc_client.secret.rotate': s(
    '{actor} 重置了 OIDC 客户端 {object} 的密钥',
    '{actor} replaced the secret of the OIDC client {object}',
  ),
  'sms_outbox.read': s('{actor} 查看了短信发件箱', '{actor} read the SMS outbox'),
  'audit.export': s('{actor} 导出了审计日志', '{actor} exported the audit log'),
  'signin.end': s('{actor} 结束了用户 {object} 的一个登录', '{actor} ended a sign-in of the user {object}'),
  'signin.end_user': s('{actor} 结束了用户 {object} 的全部登录', '{actor} ended every sign-in of the user {object}'),
  'login_history.export': s('{actor} 导出了登录日志', '{actor} exported the login history'),
  'microapp.register': s(
    '{actor} 登记或修改了子应用 {object}',
    '{actor} registered or changed the sub-application {object}',
  ),
  'microapp.replaced': s(
    '{actor} 替换了子应用 {object} 的入口',
    '{actor} replaced the entry of the sub-application {object}',
  ),
  'microapp.remove': s('{actor} 移除了子应用 {object}', '{actor} removed the sub-application {object}'),
  'notice.publish': s('{actor} 发布了通知 {object}', '{actor} published the notice {object}'),
  'notice.withdraw': s('{actor} 撤回了通知 {object}', '{actor} withdrew the notice {object}'),
  'notice.attachment.upload': s('{actor} 上传了通知附件', '{actor} uploaded a notice attachment'),
  'notice.recipients.export': s(
    '{actor} 导出了通知 {object} 的接收情况',
    '{actor} exported the recipients of the notice {object}',
  ),
  'device.create': s('{actor} 新增了设备 {object}', '{actor} added the device {object}'),
  'device.credential.issue': s(
    '{actor} 为设备 {object} 签发了凭据',
    '{actor} issued a credential for the device {object}',
  ),
  'device.credential.revoke': s(
    '{actor} 吊销了设备 {object} 的一个凭据',
    '{actor} revoked a credential of the device {object}',
  ),
  'page.version.save': s('{actor} 保存了页面 {object} 的新版本', '{actor} saved a new version of the page {object}'),
  'page.publish': s('{actor} 发布了页面 {object}', '{actor} published the page {object}'),
  'page.restore': s('{actor} 恢复了页面 {object} 的旧版本', '{actor} restored an earlier version of the page {object}'),
};

/** The review's decision in words, when the row says what it was. */
const REVIEW: Record<string, Label> = {
  '1': { zh: '{actor} 通过了 {object} 的入驻审核', en: '{actor} approved {object}’s registration' },
  '2': { zh: '{actor} 驳回了 {object} 的入驻审核', en: '{actor} rejected {object}’s registration' },
};

function fill(template: string, values: Record<string, string | undefined>): string | null {
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined || v === '') missing = true;
    return v ?? '';
  });
  return missing ? null : text;
}

/**
 * The object of a row its writer named in its own words: the sub-application's code of a replaced
 * entry (written by the micro-apps module, not through the operators' wrapper).
 */
function objectOfDetail(e: AuditSentenceInput): string | undefined {
  const code = e.detail?.code;
  return e.action === 'microapp.replaced' && typeof code === 'string' && code ? code : undefined;
}

/** Who and the label: for a row no sentence can be built for. */
export function genericAuditSentence(e: Pick<AuditSentenceInput, 'action' | 'actor'>, lang: Lang): string {
  const label = auditLabel(e.action, lang);
  if (!e.actor) return label;
  if (lang === 'zh') return `${e.actor.name}：${label}`;
  // A label of the catalogue starts a sentence; after the name it goes on in lower case.
  const rest = isAuditAction(e.action) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
  return `${e.actor.name}: ${rest}`;
}

/** The sentence a person reads for one audit row, in `lang`. */
export function auditSentence(e: AuditSentenceInput, lang: Lang): string {
  if (!isAuditAction(e.action)) return genericAuditSentence(e, lang);
  const sentence = AUDIT_SENTENCES[e.action];
  if (!sentence) return genericAuditSentence(e, lang);
  const username = typeof e.detail?.username === 'string' ? e.detail.username : undefined;
  const values = {
    actor: e.actor?.name,
    object: e.subject ? auditSubjectText(e.subject, lang) : objectOfDetail(e),
    username,
  };
  let template = e.actor ? sentence[lang] : (sentence.noActor?.[lang] ?? sentence[lang]);
  if (e.action === 'enterprise.review') {
    const decided = e.changes?.find((c) => c.field === 'estatus')?.to;
    const review = REVIEW[String(decided)];
    if (review) template = review[lang];
  }
  return fill(template, values) ?? genericAuditSentence(e, lang);
}

/** One change in words: "审核状态：待审核 → 已通过". */
export function auditChangeText(c: AuditChange, lang: Lang): string {
  const field = auditFieldLabel(c.field, lang);
  const colon = lang === 'zh' ? '：' : ': ';
  if (!('from' in c)) return `${field}${colon}${auditValueText(c.field, c.to, lang)}`;
  if (!('to' in c)) return `${field}${colon}${auditValueText(c.field, c.from, lang)} → ${words.none[lang]}`;
  return `${field}${colon}${auditValueText(c.field, c.from, lang)} → ${auditValueText(c.field, c.to, lang)}`;
}

/** Every code that has its own sentence (the test checks the catalogue against it). */
export const AUDIT_SENTENCE_CODES = Object.keys(AUDIT_SENTENCES) as AuditAction[];
