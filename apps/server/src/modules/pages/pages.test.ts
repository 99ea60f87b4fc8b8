/**
 * Drag-page definitions: shown only through a drag-page entry of the caller's menu, within the
 * caller's tenant; bad codes refused with a message.
 */
import type { PageDefinition } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const URL = '/api/front/page/definition';
let ctx: TestContext;
let member: string;

async function id(query: ReturnType<typeof sql>): Promise<number> {
  const res = await ctx.db.execute<{ id: number }>(query);
  return Number(res.rows[0]!.id);
}

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  const demo = await id(sql`SELECT id FROM tenants WHERE code = 'demo'`);
  const operator = await id(sql`SELECT id FROM roles WHERE tenant_id = ${demo} AND code = 'park_operator'`);
  const blocks = JSON.stringify([{ type: 'text', text: 'x' }]);
  // A page no menu entry points at, and one only the park operator's menu shows.
  await ctx.db.execute(sql`
    INSERT INTO page_definitions (tenant_id, code, title, blocks) VALUES
      (${demo}, 'orphan', '无入口', ${blocks}::jsonb), (${demo}, 'ops-board', '运营看板', ${blocks}::jsonb)`);
  const opsMenu = await id(sql`
    INSERT INTO menus (tenant_id, name, path, component, meta)
    VALUES (${demo}, 'opsBoard', '/ops/board', 'DragPageView', ${JSON.stringify({ title: '运营看板', pageId: 'ops-board' })}::jsonb)
    RETURNING id`);
  await ctx.db.execute(sql`INSERT INTO role_menus (role_id, menu_id) VALUES (${operator}, ${opsMenu})`);
  // Another tenant with a page under a code demo does not have, and one under demo's own code.
  const other = await id(sql`INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id`);
  await ctx.db.execute(sql`
    INSERT INTO page_definitions (tenant_id, code, title, blocks) VALUES
      (${other}, 'other-board', '他人看板', ${blocks}::jsonb), (${other}, 'ent-dashboard', '他人企业看板', ${blocks}::jsonb)`);
  // A demo entry pointing at other-board (a page demo does not have), and one that is not routed.
  await ctx.db.execute(sql`
    INSERT INTO page_definitions (tenant_id, code, title, blocks) VALUES (${demo}, 'draft-board', '草稿', ${blocks}::jsonb)`);
  const memberRole = await id(sql`SELECT id FROM roles WHERE tenant_id = ${demo} AND code = 'ent_member'`);
  for (const [name, pageId, route] of [
    ['otherBoard', 'other-board', '1'],
    ['draftBoard', 'draft-board', '0'],
  ] as const) {
    const menu = await id(sql`
      INSERT INTO menus (tenant_id, name, path, component, route, meta)
      VALUES (${demo}, ${name}, ${`/x/${name}`}, 'DragPageView', ${route}, ${JSON.stringify({ title: name, pageId })}::jsonb)
      RETURNING id`);
    await ctx.db.execute(sql`INSERT INTO role_menus (role_id, menu_id) VALUES (${memberRole}, ${menu})`);
  }
});
afterAll(async () => ctx?.close());

describe('GET /api/front/page/definition/{code}', () => {
  it("answers a page that the caller's menu shows, with its blocks", async () => {
    const res = await ctx.call({ url: `${URL}/ent-dashboard`, token: member });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: PageDefinition }>().data;
    expect(page.title).toBe('企业看板');
    expect(page.blocks.map((b) => b.type)).toEqual(['stats', 'text', 'links']);
  });

  it('answers 404 for a page no entry of the menu points at, one of another role, and one not routed', async () => {
    for (const code of ['orphan', 'ops-board', 'nothing', 'draft-board']) {
      const res = await ctx.call({ url: `${URL}/${code}`, token: member });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 404, message: '页面不存在或无权查看', data: null });
    }
  });

  it("never answers another tenant's page, even when a menu entry of the caller names its code", async () => {
    const res = await ctx.call({ url: `${URL}/other-board?language=eng`, token: member });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('The page does not exist or you may not view it');
    // Both tenants have ent-dashboard: the caller gets their own tenant's.
    const own = await ctx.call({ url: `${URL}/ent-dashboard`, token: member });
    expect(own.json<{ data: PageDefinition }>().data.title).toBe('企业看板');
  });

  it('refuses malformed codes with 400 and needs a session', async () => {
    for (const code of ['a%20b', '..%2Fx', 'x'.repeat(65)]) {
      const res = await ctx.call({ url: `${URL}/${code}`, token: member });
      expect(res.statusCode, code).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
    expect((await ctx.call({ url: `${URL}/ent-dashboard` })).statusCode).toBe(401);
  });
});
