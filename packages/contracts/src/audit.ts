/**
 * The audit log's catalogue of actions (ADR 039): every row the server writes carries one of these
 * codes, and the console shows its label in the interface's language. A code never changes once
 * rows carry it; a new kind of entry is a new code. The server's writers take only codes of this
 * catalogue (`AuditAction`), and every operator's route is mapped to one (a route without one
 * stops the server at start-up).
 */

interface Label {
  zh: string;
  en: string;
}

export const AUDIT_ACTIONS = {
  // Sign-in and sessions
  'login.succeeded': { zh: '登录成功', en: 'Signed in' },
  'login.failed': { zh: '登录失败（密码错误或无此用户）', en: 'Sign-in failed (wrong password or no such user)' },
  'login.locked': { zh: '登录被拒（账号已锁定）', en: 'Sign-in refused (account locked)' },
  'login.disabled': { zh: '登录被拒（账号已停用）', en: 'Sign-in refused (account disabled)' },
  'login.captcha_failed': { zh: '登录验证码错误', en: 'Sign-in captcha wrong' },
  logout: { zh: '退出登录', en: 'Signed out' },
  'logout.single': { zh: '单点登出', en: 'Signed out by single logout' },
  'session.end': { zh: '结束本人的一个登录', en: 'Ended one of own sign-ins' },
  'session.end_others': { zh: '结束本人的其他登录', en: 'Ended own other sign-ins' },
  'session.switch': { zh: '切换角色、应用、工作台或企业', en: 'Switched role, application, workbench or enterprise' },
  'sso.login': { zh: '单点登录服务登录成功', en: 'Signed in on the sign-on server' },
  'login.passkey': { zh: '用通行密钥登录成功', en: 'Signed in with a passkey' },
  'login.passkey_failed': { zh: '通行密钥登录失败', en: 'Passkey sign-in failed' },
  'sso.login.passkey': { zh: '在单点登录服务用通行密钥登录成功', en: 'Signed in on the sign-on server with a passkey' },
  'passkey.enrol': { zh: '添加通行密钥', en: 'Added a passkey' },
  'passkey.rename': { zh: '重命名通行密钥', en: 'Renamed a passkey' },
  'passkey.remove': { zh: '删除通行密钥', en: 'Removed a passkey' },
  'login.password_expired': {
    zh: '登录时密码已过期（须先修改密码）',
    en: 'Password expired at sign-in (must be changed first)',
  },
  'sso.login.password_change_required': {
    zh: '单点登录被拒（须先修改密码）',
    en: 'Sign-on refused (password must be changed first)',
  },
  // Second factors
  'factor.enrolled': { zh: '添加第二验证方式', en: 'Added a second factor' },
  'factor.removed': { zh: '删除第二验证方式', en: 'Removed a second factor' },
  'factor.recovery_codes': { zh: '生成恢复码', en: 'Generated recovery codes' },
  'factor.succeeded': { zh: '第二验证通过', en: 'Second factor accepted' },
  'factor.failed': { zh: '第二验证失败', en: 'Second factor refused' },
  'factor.locked': { zh: '第二验证被拒（账号已锁定）', en: 'Second factor refused (account locked)' },
  'factor.step_up': { zh: '敏感操作前再次验证身份', en: 'Confirmed identity for a sensitive action' },
  // Own account
  'password.change': { zh: '修改本人密码', en: 'Changed own password' },
  'password.reset': { zh: '找回密码（短信）', en: 'Reset password (SMS)' },
  'password.verify': { zh: '修改密码前核对旧密码', en: 'Old password checked before a change' },
  'password.confirm_failed': { zh: '核对本人密码失败', en: 'Own password confirmation failed' },
  'password.locked': { zh: '核对本人密码被拒（账号已锁定）', en: 'Own password confirmation refused (account locked)' },
  'mobile.verified': { zh: '验证手机号', en: 'Verified mobile number' },
  'register.company': { zh: '企业注册', en: 'Registered a company' },
  'register.member': { zh: '个人注册', en: 'Registered a member' },
  'invitation.accepted': { zh: '接受企业邀请', en: 'Accepted an enterprise invitation' },
  // Installation
  'bootstrap.operator': { zh: '创建平台运营人员（命令行）', en: 'Created a platform operator (command line)' },
  // Operators: users
  'user.create': { zh: '新增用户', en: 'Created a user' },
  'user.update': { zh: '修改用户', en: 'Changed a user' },
  'user.disable': { zh: '停用用户', en: 'Disabled a user' },
  'user.enable': { zh: '启用用户', en: 'Enabled a user' },
  'user.password.set': { zh: '设置用户密码', en: 'Set a user’s password' },
  'user.unlock': { zh: '解锁用户', en: 'Unlocked a user' },
  'user.factors.reset': { zh: '重置用户的两步验证', en: 'Reset a user’s second factors' },
  'user.roles.set': { zh: '设置用户角色', en: 'Set a user’s roles' },
  'user.enterprises.set': { zh: '设置用户所属企业', en: 'Set a user’s enterprises' },
  // Operators: roles, permissions, applications, workbenches
  'role.create': { zh: '新增角色', en: 'Created a role' },
  'role.update': { zh: '修改角色', en: 'Changed a role' },
  'role.permissions.set': { zh: '设置角色权限', en: 'Set a role’s permissions' },
  'permission.create': { zh: '新增权限', en: 'Created a permission' },
  'permission.update': { zh: '修改权限', en: 'Changed a permission' },
  'application.create': { zh: '新增应用', en: 'Created an application' },
  'application.update': { zh: '修改应用', en: 'Changed an application' },
  'workbench.create': { zh: '新增工作台', en: 'Created a workbench' },
  'workbench.update': { zh: '修改工作台', en: 'Changed a workbench' },
  // Operators: menus
  'menu.create': { zh: '新增菜单', en: 'Created a menu entry' },
  'menu.update': { zh: '修改菜单', en: 'Changed a menu entry' },
  'menu.move': { zh: '移动菜单', en: 'Moved a menu entry' },
  'menu.delete': { zh: '删除菜单', en: 'Deleted a menu entry' },
  'menu.import': { zh: '导入菜单', en: 'Imported menus' },
  // Operators: tenants and their settings
  'tenant.create': { zh: '新增租户', en: 'Created a tenant' },
  'tenant.update': { zh: '修改租户', en: 'Changed a tenant' },
  'settings.update': { zh: '修改租户设置', en: 'Changed the tenant’s settings' },
  'settings.logo.upload': { zh: '上传租户标志', en: 'Uploaded the tenant’s logo' },
  'agreement.update': { zh: '修改用户协议', en: 'Changed the user agreement' },
  'security_policy.update': { zh: '修改安全策略', en: 'Changed the security policy' },
  // Operators: enterprises, sign-on services, OIDC clients, SMS outbox, the audit log's export
  'enterprise.review': { zh: '审核企业', en: 'Reviewed an enterprise' },
  'sso_service.create': { zh: '新增单点登录服务', en: 'Registered a sign-on service' },
  'sso_service.update': { zh: '修改单点登录服务', en: 'Changed a sign-on service' },
  'sso_service.delete': { zh: '删除单点登录服务', en: 'Deleted a sign-on service' },
  'oidc_client.create': { zh: '新增 OIDC 客户端', en: 'Registered an OIDC client' },
  'oidc_client.update': { zh: '修改 OIDC 客户端', en: 'Changed an OIDC client' },
  'oidc_client.enable': { zh: '启用 OIDC 客户端', en: 'Enabled an OIDC client' },
  'oidc_client.disable': { zh: '停用 OIDC 客户端', en: 'Disabled an OIDC client' },
  'oidc_client.delete': { zh: '删除 OIDC 客户端', en: 'Deleted an OIDC client' },
  'oidc_client.secret.rotate': { zh: '重置 OIDC 客户端密钥', en: 'Replaced an OIDC client’s secret' },
  'sms_outbox.read': { zh: '查看短信发件箱', en: 'Read the SMS outbox' },
  'audit.export': { zh: '导出审计日志', en: 'Exported the audit log' },
  // Operators: online users and the login history
  'signin.end': { zh: '结束用户的登录', en: 'Ended a user’s sign-in' },
  'signin.end_user': { zh: '结束用户的全部登录', en: 'Ended all of a user’s sign-ins' },
  'login_history.export': { zh: '导出登录日志', en: 'Exported the login history' },
  // Operators: sub-applications, notices, devices, pages
  'microapp.register': { zh: '登记或修改子应用', en: 'Registered or changed a sub-application' },
  'microapp.replaced': { zh: '替换子应用入口', en: 'Replaced a sub-application’s entry' },
  'microapp.remove': { zh: '移除子应用', en: 'Removed a sub-application' },
  'notice.publish': { zh: '发布通知', en: 'Published a notice' },
  'notice.withdraw': { zh: '撤回通知', en: 'Withdrew a notice' },
  'notice.attachment.upload': { zh: '上传通知附件', en: 'Uploaded a notice attachment' },
  'notice.recipients.export': { zh: '导出通知接收情况', en: 'Exported a notice’s recipients' },
  'device.create': { zh: '新增设备', en: 'Added a device' },
  'device.credential.issue': { zh: '签发设备凭据', en: 'Issued a device credential' },
  'device.credential.revoke': { zh: '吊销设备凭据', en: 'Revoked a device credential' },
  'page.version.save': { zh: '保存页面版本', en: 'Saved a page version' },
  'page.publish': { zh: '发布页面', en: 'Published a page' },
  'page.restore': { zh: '恢复页面版本', en: 'Restored a page version' },
} as const satisfies Record<string, Label>;

/** A code of the catalogue: what the server writes into `audit_log.action`. */
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export function isAuditAction(code: string): code is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, code);
}

/**
 * What the console shows for a row's action: the catalogue's label in `lang`, or the stored text
 * itself when the catalogue has no such code (a row written before the catalogue whose action had
 * no code to map to, ADR 039).
 */
export function auditLabel(action: string, lang: 'zh' | 'en'): string {
  return isAuditAction(action) ? AUDIT_ACTIONS[action][lang] : action;
}
