/**
 * The 2,000-entry menu the shell benchmark adds for role ent_member of tenant demo.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';
import * as s from '../../apps/server/src/db/schema.js';
import { MENU } from './settings.js';

const ICONS = [
  'AppstoreOutlined',
  'BankOutlined',
  'BellOutlined',
  'ClusterOutlined',
  'DashboardOutlined',
  'DesktopOutlined',
  'FormOutlined',
  'IdcardOutlined',
  'LinkOutlined',
  'ReadOutlined',
  'ShopOutlined',
  'TeamOutlined',
];

export interface Leaf {
  path: string;
  title: string;
}

export const rootTitle = (r: number) => `性能目录 ${r}`;
const dirTitle = (r: number, d: number) => `性能子目录 ${r}-${d}`;
const leafTitle = (r: number, d: number, p: number) => `页面 ${r}-${d}-${p}`;
const leafPath = (r: number, d: number, p: number) => `/bench/r${r}/d${d}/p${p}`;

/**
 * 20 roots, each with 9 directories of 10 pages, for role ent_member of tenant demo: one
 * transaction, one INSERT per level and one for the role links. Returns the pages in menu order.
 */
export async function seedBenchMenu(db: Db): Promise<Leaf[]> {
  return db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.code, 'demo'));
    if (!tenant) throw new Error('tenant demo is missing');
    const tenantId = tenant.id;
    const [role] = await tx
      .select({ id: s.roles.id })
      .from(s.roles)
      .where(and(eq(s.roles.tenantId, tenantId), eq(s.roles.code, 'ent_member')));
    if (!role) throw new Error('role ent_member is missing');
    const [last] = await tx
      .select({ sort: sql<number>`coalesce(max(${s.menus.sort}), 0)::int` })
      .from(s.menus)
      .where(eq(s.menus.tenantId, tenantId));
    let sort = (last?.sort ?? 0) + 1;

    const row = (
      name: string,
      path: string,
      title: string,
      parentId: number | null,
      component: string,
      icon: string | null,
      keepAlive: boolean,
    ): typeof s.menus.$inferInsert => ({
      tenantId,
      applicationId: null,
      parentId,
      name,
      path,
      component,
      route: '1',
      redirect: null,
      hidden: false,
      sort: sort++,
      serviceType: 0,
      module: null,
      meta: { title, icon, url: null, internalOrExternal: false, keepAlive, componentName: name, pageId: null },
    });
    const idsByName = async (rows: (typeof s.menus.$inferInsert)[]) =>
      new Map(
        (await tx.insert(s.menus).values(rows).returning({ id: s.menus.id, name: s.menus.name })).map((r) => [
          r.name,
          r.id,
        ]),
      );

    // Sort numbers follow the tree depth first, as the demo seed numbers its entries.
    const rootSort = new Map<number, number>();
    const roots: (typeof s.menus.$inferInsert)[] = [];
    for (let r = 1; r <= MENU.roots; r++) {
      rootSort.set(r, sort);
      roots.push(
        row(`benchR${r}`, `/bench/r${r}`, rootTitle(r), null, 'RouteView', ICONS[(r - 1) % ICONS.length]!, false),
      );
      sort += MENU.dirs * (MENU.leaves + 1);
    }
    const rootIds = await idsByName(roots);

    const dirs: (typeof s.menus.$inferInsert)[] = [];
    for (let r = 1; r <= MENU.roots; r++) {
      sort = rootSort.get(r)! + 1;
      for (let d = 1; d <= MENU.dirs; d++) {
        dirs.push(
          row(
            `benchR${r}D${d}`,
            `/bench/r${r}/d${d}`,
            dirTitle(r, d),
            rootIds.get(`benchR${r}`)!,
            'RouteView',
            null,
            false,
          ),
        );
        sort += MENU.leaves;
      }
    }
    const dirIds = await idsByName(dirs);

    const leaves: (typeof s.menus.$inferInsert)[] = [];
    const out: Leaf[] = [];
    let n = 0;
    for (let r = 1; r <= MENU.roots; r++) {
      for (let d = 1; d <= MENU.dirs; d++) {
        sort = rootSort.get(r)! + 1 + (d - 1) * (MENU.leaves + 1) + 1;
        for (let p = 1; p <= MENU.leaves; p++) {
          const path = leafPath(r, d, p);
          const title = leafTitle(r, d, p);
          leaves.push(
            row(`benchR${r}D${d}P${p}`, path, title, dirIds.get(`benchR${r}D${d}`)!, `bench/p${++n}`, null, true),
          );
          out.push({ path, title });
        }
      }
    }
    const leafIds = await idsByName(leaves);

    const links = [...rootIds.values(), ...dirIds.values(), ...leafIds.values()].map((menuId) => ({
      roleId: role.id,
      menuId,
    }));
    await tx.insert(s.roleMenus).values(links);

    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(s.roleMenus)
      .innerJoin(s.menus, eq(s.menus.id, s.roleMenus.menuId))
      .where(and(eq(s.roleMenus.roleId, role.id), sql`${s.menus.name} LIKE 'bench%'`));
    const expected = MENU.roots * (1 + MENU.dirs * (1 + MENU.leaves));
    if (count?.n !== expected)
      throw new Error(`expected ${expected} bench menu entries for ent_member, found ${count?.n}`);
    return out;
  });
}
