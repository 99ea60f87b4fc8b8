/**
 * Provisioning: a new tenant with what every tenant needs. Production uses it (the operators' API
 * creating a tenant, the first run's bootstrap of the platform tenant) as the demo does.
 */
import type { Tx } from '../client.js';
import { keepDefaultRolePlain } from '../role-powers.js';
import * as s from '../schema.js';
import { consoleMenu, ensureMenus } from './menus.js';
import { ensurePermissions } from './permissions.js';

/**
 * A tenant with what every tenant needs and nothing more (: its portal as a sign-on
 * service, the three roles, the permission codes, the console's menu and its first operator, who
 * holds the operator role as their default. The platform tenant's operators administer every tenant.
 */
/** The portal's own entry among the sign-on server's services, and its English (ADR 020). */
export const PORTAL_SERVICE = { name: '企业服务门户', en: 'Enterprise Service Portal' };

export async function insertTenant(
  tx: Tx,
  t: {
    code: string;
    name: string;
    nameEn?: string | undefined;
    homeUrl?: string | null | undefined;
    platform?: boolean;
  },
  operator: { username: string; name: string; nameEn?: string; passwordHash: string; mustChangePassword?: boolean },
): Promise<number> {
  const [tenant] = await tx
    .insert(s.tenants)
    .values({
      code: t.code,
      name: t.name,
      homeUrl: t.homeUrl ?? null,
      platform: t.platform ?? false,
      translations: t.nameEn ? { en: { name: t.nameEn } } : {},
    })
    .returning({ id: s.tenants.id });
  const tenantId = tenant!.id;
  await tx.insert(s.ssoServices).values({
    tenantId,
    name: PORTAL_SERVICE.name,
    translations: { en: { name: PORTAL_SERVICE.en } },
    pattern: s.PORTAL_PATTERN,
    logoutUrl: s.PORTAL_SLO,
  });
  const roles = await tx
    .insert(s.roles)
    .values([
      { tenantId, code: 'ent_admin', title: '企业管理员', translations: { en: { title: 'Enterprise administrator' } } },
      {
        tenantId,
        code: 'ent_member',
        title: '企业成员',
        translations: { en: { title: 'Enterprise member' } },
        isDefault: true,
      },
      { tenantId, code: 'park_operator', title: '园区运营', translations: { en: { title: 'Park operator' } } },
    ])
    .returning({ id: s.roles.id, code: s.roles.code });
  await ensurePermissions(tx, tenantId, roles);
  await ensureMenus(tx, tenantId, roles, [], consoleMenu(t.platform ?? false));
  const operatorRole = roles.find((r) => r.code === 'park_operator')!.id;
  const { nameEn, ...account } = operator;
  const [user] = await tx
    .insert(s.users)
    .values({
      tenantId,
      ...account,
      translations: nameEn ? { en: { name: nameEn } } : {},
      defaultRoleId: operatorRole,
    })
    .returning({ id: s.users.id });
  await tx.insert(s.userRoles).values({ userId: user!.id, roleId: operatorRole });
  // The skeleton's default role is the members' (ADR 036): a newcomer is never an operator.
  await keepDefaultRolePlain(tx, tenantId);
  return tenantId;
}
