/** The top-ups: what later versions added to the demo, for a demo tenant an earlier version seeded. */
import { and, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { Tx } from '../client.js';
import { ensureMenus } from '../provisioning/menus.js';
import { ensurePermissions } from '../provisioning/permissions.js';
import * as s from '../schema.js';
import { sanitizeRichText } from '../../platform/html.js';
import { DEMO_AGREEMENT } from './content/agreement.js';
import { DEMO_MENU } from './content/menu.js';
import { DEMO_PAGES } from './content/pages.js';
import { EXAMPLE_SYSTEM } from './content/services.js';
import {
  demoMenuTree,
  ensureApps,
  ensureDevices,
  ensureOidcExample,
  ensurePages,
  ensureParkServices,
  giveDemoContacts,
  parkEnterprises,
  translateDemo,
} from './steps.js';

/**
 * What later versions added to the demo, for a demo tenant seeded by an earlier one: the default
 * role, the registration agreement, the example external systems (CAS and OpenID Connect), menu entries (by name, with their
 * roles), drag pages (by code), the park operator's enterprises (by name) and English names. Each
 * step adds only what is missing; the count is of rows added or given their English names.
 */
export async function topUpDemo(tx: Tx, tenantId: number, devicesFile?: string): Promise<number> {
  let added = 0;
  const anyDefault = tx
    .select({ id: s.roles.id })
    .from(s.roles)
    .where(and(eq(s.roles.tenantId, tenantId), eq(s.roles.isDefault, true)));
  added += (
    await tx
      .update(s.roles)
      .set({ isDefault: true })
      .where(and(eq(s.roles.tenantId, tenantId), eq(s.roles.code, 'ent_member'), notExists(anyDefault)))
      .returning({ id: s.roles.id })
  ).length;
  added += (
    await tx
      .insert(s.registerAgreements)
      .values({ tenantId, html: sanitizeRichText(DEMO_AGREEMENT) })
      .onConflictDoNothing()
      .returning({ tenantId: s.registerAgreements.tenantId })
  ).length;
  added += (
    await tx
      .insert(s.ssoServices)
      .values({ tenantId, ...EXAMPLE_SYSTEM })
      .onConflictDoNothing()
      .returning()
  ).length;
  const roles = await tx
    .select({ id: s.roles.id, code: s.roles.code })
    .from(s.roles)
    .where(eq(s.roles.tenantId, tenantId));
  const apps = await tx
    .select({ id: s.applications.id, code: s.applications.code })
    .from(s.applications)
    .where(eq(s.applications.tenantId, tenantId));
  added += await ensureMenus(tx, tenantId, roles, apps, demoMenuTree());
  added += await ensurePermissions(tx, tenantId, roles);
  added += await ensureApps(tx, tenantId);
  added += await ensureOidcExample(tx, tenantId);
  added += await ensureParkServices(tx, tenantId);
  added += await ensureDevices(tx, tenantId, devicesFile);
  added += await moveServicesToSubApp(tx, tenantId);
  added += await ensurePages(tx, tenantId);
  added += await liveDemoFigures(tx, tenantId);
  const ents = await tx
    .insert(s.enterprises)
    .values(parkEnterprises(tenantId))
    .onConflictDoNothing()
    .returning({ id: s.enterprises.id });
  added += ents.length;
  if (ents.length > 0) {
    const [admin] = await tx
      .select({ id: s.users.id })
      .from(s.users)
      .where(and(eq(s.users.tenantId, tenantId), eq(s.users.username, 'admin')));
    if (admin) {
      await tx
        .insert(s.enterpriseMembers)
        .values(ents.map((e) => ({ enterpriseId: e.id, userId: admin.id })))
        .onConflictDoNothing();
    }
  }
  added += await translateDemo(tx, tenantId);
  added += await giveDemoContacts(tx, tenantId);
  return added;
}

/**
 * 物业报修 and 会议室预约 were placeholders before the demo sub-application): a demo
 * seeded earlier gets them as its pages, unless someone changed the entries since.
 */
async function moveServicesToSubApp(tx: Tx, tenantId: number): Promise<number> {
  let moved = 0;
  for (const m of DEMO_MENU.flatMap((x) => x.children ?? []).filter((x) => x.module === 'park-services')) {
    const rows = await tx
      .update(s.menus)
      .set({ path: m.path, module: m.module!, component: m.component! })
      .where(and(eq(s.menus.tenantId, tenantId), eq(s.menus.name, m.name), eq(s.menus.component, `services/${m.path}`)))
      .returning({ id: s.menus.id });
    moved += rows.length;
  }
  // The drag pages' links to them follow (in every version, unless the links were changed since).
  for (const [from, to] of [
    ['/services/repair', '/park-services/repair'],
    ['/services/meeting', '/park-services/meeting'],
  ]) {
    const quoted = (p: string) => `"path": "${p}"`;
    const rows = await tx
      .update(s.pageVersions)
      .set({ document: sql`replace(${s.pageVersions.document}::text, ${quoted(from!)}, ${quoted(to!)})::jsonb` })
      .where(
        and(
          inArray(
            s.pageVersions.pageId,
            tx
              .select({ id: s.pageDefinitions.id })
              .from(s.pageDefinitions)
              .where(eq(s.pageDefinitions.tenantId, tenantId)),
          ),
          sql`${s.pageVersions.document}::text LIKE ${`%${quoted(from!)}%`}`,
        ),
      )
      .returning({ version: s.pageVersions.version });
    moved += rows.length;
  }
  return moved;
}

/**
 * The demo's drag pages seeded before figures could be live (ADR 046): a page nobody has saved
 * since (its only version the seed's) takes the seeded document as it is now, so its figures are
 * the park's own and the rest say they are samples. A page someone saved is theirs.
 */
async function liveDemoFigures(tx: Tx, tenantId: number): Promise<number> {
  let updated = 0;
  for (const { code, document } of DEMO_PAGES) {
    const rows = await tx
      .update(s.pageVersions)
      .set({ document })
      .where(
        and(
          eq(s.pageVersions.version, 1),
          isNull(s.pageVersions.createdBy),
          inArray(
            s.pageVersions.pageId,
            tx
              .select({ id: s.pageDefinitions.id })
              .from(s.pageDefinitions)
              .where(and(eq(s.pageDefinitions.tenantId, tenantId), eq(s.pageDefinitions.code, code))),
          ),
          sql`NOT EXISTS (SELECT 1 FROM ${s.pageVersions} later
            WHERE later.page_id = ${s.pageVersions.pageId} AND later.version > 1)`,
          sql`${s.pageVersions.document}::text NOT LIKE '%"measure"%'`,
          sql`${s.pageVersions.document} <> ${JSON.stringify(document)}::jsonb`,
        ),
      )
      .returning({ version: s.pageVersions.version });
    updated += rows.length;
  }
  return updated;
}
