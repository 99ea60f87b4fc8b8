/**
 * The demo seed: a fresh one needs nothing more; a demo tenant seeded by an earlier version gets
 * what it lacks on the next start (default role, agreement, menu entries with their roles, drag
 * pages, the park operator's enterprises, the OpenID Connect example system), once, and keeps what someone changed.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../platform/hash.js';
import { hashPassword } from '../../platform/passwords.js';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';
import { DEMO_PAGES } from './content/pages.js';
import { seedDemo } from './seed.js';

let ctx: TestContext;
let passwordHash: string;

beforeAll(async () => {
  ctx = await createTestContext();
  passwordHash = await hashPassword(DEMO_PASSWORD);
});
afterAll(async () => ctx?.close());

const one = async <T>(q: ReturnType<typeof sql>) => (await ctx.db.execute<T & Record<string, unknown>>(q)).rows[0]!;

describe('seedDemo', () => {
  it('finds nothing to add to a demo it has just created', async () => {
    expect(await seedDemo(ctx.db, { passwordHash })).toEqual({ result: 'unchanged' });
  });

  it("brings an earlier version's demo up to date, once, and keeps what was changed", async () => {
    const workbenchMenus = ['workbenchApps', 'wbDashboard', 'wbCloudOrders'];
    await ctx.db.execute(sql`UPDATE roles SET is_default = false`);
    await ctx.db.execute(sql`DELETE FROM register_agreements`);
    await ctx.db.execute(sql`DELETE FROM menus WHERE name IN ('wbDashboard', 'wbCloudOrders')`);
    await ctx.db.execute(sql`DELETE FROM menus WHERE name = 'workbenchApps'`);
    await ctx.db.execute(sql`DELETE FROM page_definitions WHERE code = 'demo-dashboard'`);
    await ctx.db.execute(sql`DELETE FROM enterprises WHERE name IN ('启明生物医药有限公司', '悦享餐饮管理有限公司')`);
    // Someone's own change: a renamed entry stays renamed.
    await ctx.db.execute(
      sql`UPDATE menus SET meta = jsonb_set(meta, '{title}', '"企业资料"') WHERE name = 'entColist'`,
    );
    // A demo from before names had translations, except one someone gave its own.
    await ctx.db.execute(sql`UPDATE roles SET translations = '{}'`);
    await ctx.db.execute(
      sql`UPDATE roles SET translations = '{"en":{"title":"Company admin"}}' WHERE code = 'ent_admin'`,
    );

    // A demo from before the sub-application): no applications, rooms or their
    // permissions, and 物业报修 / 会议室预约 were placeholder pages.
    await ctx.db.execute(sql`DELETE FROM micro_apps`);
    await ctx.db.execute(sql`DELETE FROM park_rooms`);
    await ctx.db.execute(sql`DELETE FROM park_repairs`);
    await ctx.db.execute(sql`DELETE FROM permissions WHERE code IN ('microapp:manage', 'repair:handle')`);
    await ctx.db.execute(sql`UPDATE tenants SET home_url = NULL`);
    await ctx.db.execute(sql`
      UPDATE menus SET module = NULL, path = '/services/' || path, component = 'services/' || path
      WHERE module = 'park-services'`);
    await ctx.db.execute(sql`
      UPDATE page_versions SET document = replace(document::text, '/park-services/', '/services/')::jsonb`);

    // A demo from before the enterprises named their contact, but for one someone gave its own.
    await ctx.db.execute(sql`UPDATE enterprises SET contacts = NULL, position = NULL,
      translations = jsonb_build_object('en', jsonb_build_object('name', translations->'en'->'name'))`);
    await ctx.db.execute(sql`UPDATE enterprises SET contacts = '刘洋' WHERE name = '青松物流有限公司'`);

    const first = await seedDemo(ctx.db, { passwordHash });
    // Rows added (the default role's flag, the agreement, 3 menus, 2 permissions, 3 applications,
    // 3 rooms, 2 entries moved to the sub-application and 2 pages' links to them, a page, 2
    // enterprises), then those of them and the 2 untranslated roles given their English names (a
    // page carries its English in itself; menu entries are added with theirs), then the 12
    // enterprises without a contact given theirs.
    expect(first).toEqual({
      result: 'updated',
      added: 1 + 1 + 3 + 2 + 3 + 3 + 2 + 2 + 1 + 2 + (1 + 2 + 2) + 12,
    });
    const contacts = await ctx.db.execute<Record<string, unknown>>(sql`
      SELECT name, contacts, position, translations->'en' AS en FROM enterprises
      WHERE name IN ('星河科技有限公司', '青松物流有限公司', '启明生物医药有限公司') ORDER BY id`);
    expect(contacts.rows).toEqual([
      {
        name: '星河科技有限公司',
        contacts: '林晓',
        position: '行政经理',
        en: { name: 'Xinghe Technology Co., Ltd.', contacts: 'Lin Xiao', position: 'Office manager' },
      },
      { name: '青松物流有限公司', contacts: '刘洋', position: null, en: { name: 'Qingsong Logistics Co., Ltd.' } },
      {
        name: '启明生物医药有限公司',
        contacts: '王磊',
        position: '研发总监',
        en: { name: 'Qiming Biomedicine Co., Ltd.', contacts: 'Wang Lei', position: 'R&D director' },
      },
    ]);
    const links = await ctx.db.execute(sql`
      SELECT count(*)::int AS n FROM page_versions WHERE document::text LIKE '%"/services/%'`);
    expect(links.rows[0]).toEqual({ n: 0 });
    expect(await seedDemo(ctx.db, { passwordHash })).toEqual({ result: 'unchanged' });

    expect(await one(sql`SELECT code FROM roles WHERE is_default`)).toEqual({ code: 'ent_member' });
    expect((await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM register_agreements`)).n).toBe(1);
    // The entries are back in their tree, with their application and the roles that see them.
    const menus = await ctx.db.execute<{ name: string; parent: string | null; app: string; roles: string }>(sql`
      SELECT m.name, p.name AS parent, a.code AS app,
             (SELECT string_agg(r.code, ',' ORDER BY r.code) FROM role_menus rm JOIN roles r ON r.id = rm.role_id
              WHERE rm.menu_id = m.id) AS roles
      FROM menus m LEFT JOIN menus p ON p.id = m.parent_id LEFT JOIN applications a ON a.id = m.application_id
      WHERE m.name IN ('workbenchApps', 'wbDashboard', 'wbCloudOrders') ORDER BY m.sort`);
    expect(menus.rows).toEqual(
      workbenchMenus.map((name, i) => ({
        name,
        parent: i === 0 ? null : 'workbenchApps',
        app: 'ENT_WORKBENCH',
        roles: 'ent_admin,ent_member',
      })),
    );
    expect(
      (await one<{ title: string }>(sql`SELECT meta->>'title' AS title FROM menus WHERE name = 'entColist'`)).title,
    ).toBe('企业资料');
    expect((await one<{ n: number }>(sql`SELECT count(*)::int AS n FROM page_definitions`)).n).toBe(4);
    const moved = await ctx.db.execute(
      sql`SELECT name, module, path, component FROM menus WHERE module = 'park-services' ORDER BY sort`,
    );
    expect(moved.rows).toEqual([
      { name: 'svcRepair', module: 'park-services', path: 'repair', component: 'MicroAppView' },
      { name: 'svcMeeting', module: 'park-services', path: 'meeting', component: 'MicroAppView' },
    ]);
    const grants = await ctx.db.execute(sql`
      SELECT p.code, string_agg(r.code, ',' ORDER BY r.code) AS roles FROM permissions p
      JOIN role_permissions rp ON rp.permission_id = p.id JOIN roles r ON r.id = rp.role_id
      WHERE p.code IN ('microapp:manage', 'repair:handle') GROUP BY p.code ORDER BY p.code`);
    expect(grants.rows).toEqual([
      { code: 'microapp:manage', roles: 'park_operator' },
      { code: 'repair:handle', roles: 'ent_admin,park_operator' },
    ]);
    expect(await one(sql`SELECT count(*)::int AS n FROM park_repairs`)).toEqual({ n: 2 });
    expect(await one(sql`SELECT home_url FROM tenants WHERE code = 'demo'`)).toEqual({
      home_url: 'https://park.example.com/',
    });
    const roles = await ctx.db.execute<{ code: string; en: string }>(
      sql`SELECT code, translations #>> '{en,title}' AS en FROM roles ORDER BY id`,
    );
    expect(roles.rows.slice(0, 3)).toEqual([
      { code: 'ent_admin', en: 'Company admin' },
      { code: 'ent_member', en: 'Enterprise member' },
      { code: 'park_operator', en: 'Park operator' },
    ]);
    const joined = await one<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM enterprise_members m JOIN users u ON u.id = m.user_id WHERE u.username = 'admin'`);
    expect(joined.n).toBe(13);

    // The topped-up menu is served: the member's workbench application shows its entries again.
    const token = await ctx.login('member');
    const menu = await ctx.call({ url: '/api/front/member/front/allPermissionV2?appCodes=ENT_WORKBENCH', token });
    expect(JSON.stringify(menu.json().data.menu)).toContain('wbDashboard');
  });

  it('makes the figures of demo pages nobody saved live, and leaves a saved page as it is', async () => {
    // Seeded before figures could be live: typed-in numbers that looked like the park's.
    const before = (code: string) => {
      const doc = structuredClone(DEMO_PAGES.find((p) => p.code === code)!.document);
      for (const w of doc.widgets) {
        if (w.kind !== 'stats') continue;
        for (const item of w.props.items) {
          delete item.measure;
          item.value = '128';
        }
      }
      return JSON.stringify(doc);
    };
    await ctx.db.execute(sql`UPDATE page_versions v SET document = ${before('ops-board')}::jsonb
      FROM page_definitions p WHERE p.id = v.page_id AND p.code = 'ops-board'`);
    // Someone saved 数据看板 since: a version 2 of their own.
    await ctx.db.execute(sql`UPDATE page_versions v SET document = ${before('demo-dashboard')}::jsonb
      FROM page_definitions p WHERE p.id = v.page_id AND p.code = 'demo-dashboard'`);
    await ctx.db.execute(sql`INSERT INTO page_versions (page_id, version, document)
      SELECT id, 2, ${before('demo-dashboard')}::jsonb FROM page_definitions WHERE code = 'demo-dashboard'`);

    expect(await seedDemo(ctx.db, { passwordHash })).toEqual({ result: 'updated', added: 1 });
    expect(await seedDemo(ctx.db, { passwordHash })).toEqual({ result: 'unchanged' });
    const documentOf = async (code: string, version: number) =>
      JSON.stringify(
        (
          await one<{ document: unknown }>(sql`SELECT v.document FROM page_versions v
            JOIN page_definitions p ON p.id = v.page_id WHERE p.code = ${code} AND v.version = ${version}`)
        ).document,
      );
    expect(await documentOf('ops-board', 1)).toContain('"measure":"residentEnterprises"');
    expect(await documentOf('ops-board', 1)).not.toContain('128');
    expect(await documentOf('demo-dashboard', 1)).toContain('128');
    expect(await documentOf('demo-dashboard', 2)).toContain('128');
  });

  it('gives a demo seeded before it the OpenID Connect example system, once', async () => {
    await ctx.db.execute(sql`DELETE FROM oidc_clients WHERE client_id = 'demo-oidc-example'`);
    await ctx.db.execute(sql`DELETE FROM server_secrets WHERE name = 'oidc_example_client_secret'`);
    await ctx.db.execute(sql`DELETE FROM menus WHERE name = 'visitorService'`);
    // The client, and its menu entry under 园区链接 (added with its English and its roles).
    expect(await seedDemo(ctx.db, { passwordHash })).toEqual({ result: 'updated', added: 2 });
    expect(await seedDemo(ctx.db, { passwordHash })).toEqual({ result: 'unchanged' });
    const client = await one<{ code: string; hash: string; secret: string; uris: string[] }>(sql`
      SELECT t.code, c.secret_hash AS hash, c.redirect_uris AS uris,
             (SELECT value FROM server_secrets WHERE name = 'oidc_example_client_secret') AS secret
      FROM oidc_clients c JOIN tenants t ON t.id = c.tenant_id WHERE c.client_id = 'demo-oidc-example'`);
    expect(client.code).toBe('demo');
    expect(client.hash).toBe(sha256Hex(client.secret));
    expect(client.uris).toEqual(['{SERVER}/oidc-example/callback']);
    const menu = await one<{ url: string; en: string; parent: string }>(sql`
      SELECT m.meta->>'url' AS url, m.translations->'en'->>'title' AS en, p.name AS parent
      FROM menus m JOIN menus p ON p.id = m.parent_id WHERE m.name = 'visitorService'`);
    expect(menu).toEqual({ url: '{SERVER}/oidc-example/login', en: 'Visitor services', parent: 'parkLinks' });
  });

  it('gives the demo notices their attachments once, written to the files directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seed-files-'));
    try {
      expect(await seedDemo(ctx.db, { passwordHash, filesDir: dir })).toEqual({ result: 'updated', added: 2 });
      expect(await seedDemo(ctx.db, { passwordHash, filesDir: dir })).toEqual({ result: 'unchanged' });
      const rows = await ctx.db.execute<{ title: string; addr: string; name: string; size: number }>(sql`
        SELECT n.title, n.push_files->0->>'addr' AS addr, f.file_name AS name, f.size::int AS size
        FROM notices n JOIN files f ON 'files/' || f.id = n.push_files->0->>'addr' ORDER BY n.id`);
      expect(rows.rows.map((r) => r.name)).toEqual(['2026年度企业安全生产自查表.txt', '高新技术企业申报材料清单.txt']);
      for (const r of rows.rows) {
        const content = await readFile(join(dir, r.addr.slice('files/'.length)));
        expect(content.length).toBe(r.size);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
