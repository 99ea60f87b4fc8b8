/** The permission codes every tenant has (the demo's included) and how a tenant gets those it lacks. */
import type { Tx } from '../client.js';
import * as s from '../schema.js';

/** The permission codes every tenant has, and the roles of a new tenant that hold them. */
const PERMISSIONS: { code: string; describe: string; type?: number; status?: number; roles: string[] }[] = [
  // Everyone receives notices, operators too (a notice to the whole tenant reaches them): the bell is every role's.
  { code: 'messageIndex', describe: '消息通知', roles: ['ent_admin', 'ent_member', 'park_operator'] },
  { code: 'colist', describe: '企业信息', roles: ['ent_admin', 'park_operator'] },
  { code: 'ent:invite', describe: '邀请成员', roles: ['ent_admin'] },
  { code: 'ent:export', describe: '导出', status: 0, roles: [] },
  { code: 'wf:approve', describe: '流程审批', type: 2, roles: [] },
  { code: 'notice:publish', describe: '发布通知', roles: ['park_operator'] },
  { code: 'microapp:manage', describe: '应用管理', roles: ['park_operator'] },
  // The demo sub-application's guarded button (物业报修: 受理 / 完成).
  { code: 'repair:handle', describe: '处理报修', roles: ['ent_admin', 'park_operator'] },
  { code: 'device:manage', describe: '设备管理', roles: ['park_operator'] },
  { code: 'alert:handle', describe: '处理告警', roles: ['park_operator'] },
  { code: 'page:design', describe: '页面设计', roles: ['park_operator'] },
  { code: 'system:manage', describe: '系统管理', roles: ['park_operator'] },
];

/**
 * Adds the permission codes the tenant lacks, each granted to its roles. A code the tenant has
 * already keeps the grants an operator gave it.
 */
export async function ensurePermissions(
  tx: Tx,
  tenantId: number,
  roles: { id: number; code: string }[],
): Promise<number> {
  const created = await tx
    .insert(s.permissions)
    .values(PERMISSIONS.map(({ roles: _, ...p }) => ({ tenantId, type: 1, status: 1, ...p })))
    .onConflictDoNothing()
    .returning({ id: s.permissions.id, code: s.permissions.code });
  const grants = created.flatMap((p) =>
    roles
      .filter((r) => PERMISSIONS.find((d) => d.code === p.code)!.roles.includes(r.code))
      .map((r) => ({ roleId: r.id, permissionId: p.id })),
  );
  if (grants.length > 0) await tx.insert(s.rolePermissions).values(grants);
  return created.length;
}
