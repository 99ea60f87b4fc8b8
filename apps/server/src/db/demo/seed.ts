/**
 * The demo, written on first start unless SEED_DEMO=0: tenant `demo` with users `admin` and
 * `member`, roles, applications, workbenches, enterprises in every estatus, a four-level menu tree
 * with every kind of entry the portal knows, permission codes and a few notices, and the platform
 * tenant. One transaction: either all of it is there or none. Later starts add to an existing demo
 * tenant what newer versions of the demo have and it lacks (`top-up.ts`). The demo's rows are data
 * (`content/`); what every tenant has is provisioning's (`../provisioning/`).
 */
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../client.js';
import { transactionLock } from '../locks.js';
import { ensureMenus } from '../provisioning/menus.js';
import { ensurePermissions } from '../provisioning/permissions.js';
import { insertTenant, PORTAL_SERVICE } from '../provisioning/tenant.js';
import * as s from '../schema.js';
import { sanitizeRichText } from '../../platform/html.js';
import { DEMO_PLATFORM } from './content/accounts.js';
import { DEMO_AGREEMENT } from './content/agreement.js';
import { DEMO_ENTERPRISES } from './content/enterprises.js';
import { DEMO_NOTICES } from './content/notices.js';
import { EXAMPLE_SYSTEM, OIDC_EXAMPLE } from './content/services.js';
import {
  attachDemoFiles,
  demoMenuTree,
  ensureApps,
  ensureDevices,
  ensurePages,
  ensureParkServices,
  ensureOidcExample,
  giveDemoContacts,
  parkEnterprises,
  translateDemo,
} from './steps.js';
import { topUpDemo } from './top-up.js';

/**
 * `created` on first start; on later starts an existing demo tenant gets what newer versions added
 * to the demo (`updated`, with the rows added), else `unchanged`. Data someone changed stays as it is.
 */
export async function seedDemo(
  db: Db,
  opts: {
    passwordHash: string;
    /** Where uploads are kept: the demo notices' attachments go there. */ filesDir?: string;
    /** Where the demo devices' credentials go when they are made (for `npm run devices:simulate`). */
    devicesFile?: string;
  },
): Promise<{ result: 'created' } | { result: 'updated'; added: number } | { result: 'unchanged' }> {
  return db.transaction(async (tx) => {
    // Serialise concurrent starts of several instances.
    await tx.execute(transactionLock('installation'));
    const existing = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.code, 'demo'));
    if (existing.length === 0) {
      const tenantId = await insertDemo(tx, opts.passwordHash, undefined, opts.devicesFile);
      if (opts.filesDir) await attachDemoFiles(tx, tenantId, opts.filesDir);
      await ensurePlatform(tx, opts.passwordHash);
      return { result: 'created' };
    }
    // No platform tenant is added to an installation that exists: its operator, with the demo's
    // well-known password, would administer every tenant there.
    let added = await topUpDemo(tx, existing[0]!.id, opts.devicesFile);
    if (opts.filesDir) added += await attachDemoFiles(tx, existing[0]!.id, opts.filesDir);
    return added > 0 ? { result: 'updated', added } : { result: 'unchanged' };
  });
}

/** The demo's platform tenant, made with a new demo only, unless there is a platform tenant already. */
async function ensurePlatform(tx: Tx, passwordHash: string): Promise<void> {
  const [any] = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.platform, true));
  if (any) return;
  await insertTenant(
    tx,
    { ...DEMO_PLATFORM, platform: true },
    { username: 'platform', name: '平台管理员', nameEn: 'Platform Administrator', passwordHash },
  );
}

/**
 * A tenant with everything the demo has (users, roles, applications, workbenches, enterprises,
 * menus, permissions, pages, services, notices): the demo tenant, and a second park where one is
 * needed (the tenant-isolation suite).
 */
export async function insertDemo(
  tx: Tx,
  passwordHash: string,
  { code, name }: { code: string; name: string } = { code: 'demo', name: '演示园区' },
  devicesFile?: string,
): Promise<number> {
  const [tenant] = await tx.insert(s.tenants).values({ code, name }).returning();
  const tenantId = tenant!.id;

  // The portal itself is a service of the sign-on server (its address read from PUBLIC_URL).
  await tx.insert(s.ssoServices).values([
    { tenantId, name: PORTAL_SERVICE.name, pattern: s.PORTAL_PATTERN, logoutUrl: s.PORTAL_SLO },
    { tenantId, ...EXAMPLE_SYSTEM },
  ]);
  // The OpenID Connect example system signs in at the demo tenant's provider only.
  if (code === OIDC_EXAMPLE.tenantCode) await ensureOidcExample(tx, tenantId);

  const roles = await tx
    .insert(s.roles)
    .values([
      { tenantId, code: 'ent_admin', title: '企业管理员' },
      { tenantId, code: 'ent_member', title: '企业成员', isDefault: true },
      { tenantId, code: 'park_operator', title: '园区运营' },
    ])
    .returning();
  const role = (code: string) => roles.find((r) => r.code === code)!.id;

  const apps = await tx
    .insert(s.applications)
    .values([
      { tenantId, code: 'ENT_SERVICE', name: '企业服务' },
      { tenantId, code: 'ENT_WORKBENCH', name: '企业工作台' },
      { tenantId, code: 'PARK_OPS', name: '园区运营平台' },
    ])
    .returning();
  const app = (code: string) => apps.find((a) => a.code === code)!.id;

  const benches = await tx
    .insert(s.workbenches)
    .values([
      { tenantId, code: 'WB_ENT', name: '企业工作台' },
      { tenantId, code: 'WB_PARK', name: '园区工作台' },
    ])
    .returning();

  const ents = await tx
    .insert(s.enterprises)
    .values([
      ...DEMO_ENTERPRISES.map((e) => ({ tenantId, ...e })),
      // The park operator's own list is long enough to page (10 per page, docs/product/limits.md#lists).
      ...parkEnterprises(tenantId),
    ])
    .returning();

  const users = await tx
    .insert(s.users)
    .values([
      {
        tenantId,
        username: 'admin',
        passwordHash,
        name: '系统管理员',
        mobile: '13800000001',
        // The installation's own accounts: their numbers are its word, as an operator's are (ADR 023).
        verifiedMobile: '13800000001',
        homeUri: '/index',
        defaultRoleId: role('ent_admin'),
        defaultApplicationId: app('ENT_SERVICE'),
        defaultWorkbenchId: benches[0]!.id,
        defaultEnterpriseId: ents[0]!.id,
      },
      {
        tenantId,
        username: 'member',
        passwordHash,
        name: '张敏',
        mobile: '13800000002',
        verifiedMobile: '13800000002',
        homeUri: '/index',
        defaultRoleId: role('ent_member'),
        defaultApplicationId: app('ENT_SERVICE'),
        defaultWorkbenchId: benches[0]!.id,
        defaultEnterpriseId: ents[0]!.id,
      },
    ])
    .returning();
  const [admin, member] = users as [(typeof users)[number], (typeof users)[number]];

  await tx.insert(s.userRoles).values([
    { userId: admin.id, roleId: role('ent_admin') },
    { userId: admin.id, roleId: role('park_operator') },
    { userId: member.id, roleId: role('ent_member') },
    { userId: member.id, roleId: role('ent_admin') },
  ]);
  await tx
    .insert(s.userApplications)
    .values([
      ...apps.map((a) => ({ userId: admin.id, applicationId: a.id })),
      { userId: member.id, applicationId: app('ENT_SERVICE') },
      { userId: member.id, applicationId: app('ENT_WORKBENCH') },
    ]);
  await tx
    .insert(s.userWorkbenches)
    .values([
      ...benches.map((b) => ({ userId: admin.id, workbenchId: b.id })),
      ...benches.map((b) => ({ userId: member.id, workbenchId: b.id })),
    ]);
  await tx
    .insert(s.enterpriseMembers)
    .values([
      ...ents.map((e) => ({ enterpriseId: e.id, userId: admin.id })),
      ...ents.slice(0, 3).map((e) => ({ enterpriseId: e.id, userId: member.id })),
    ]);

  await ensurePermissions(tx, tenantId, roles);
  await ensureApps(tx, tenantId);
  await ensureParkServices(tx, tenantId);
  await ensureDevices(tx, tenantId, devicesFile);

  await ensureMenus(tx, tenantId, roles, apps, demoMenuTree());

  await ensurePages(tx, tenantId);

  await tx.insert(s.registerAgreements).values({ tenantId, html: sanitizeRichText(DEMO_AGREEMENT) });

  const notices = await tx
    .insert(s.notices)
    .values(DEMO_NOTICES.map((n) => ({ tenantId, ...n })))
    .returning();
  await translateDemo(tx, tenantId);
  await giveDemoContacts(tx, tenantId);
  await tx.insert(s.noticeRecipients).values(
    notices.flatMap((n, i) => [
      { noticeId: n.id, userId: member.id, readStatus: i === 3 ? 1 : 0, answerStatus: i === 3 ? 1 : 0 },
      { noticeId: n.id, userId: admin.id },
    ]),
  );
  return tenantId;
}
