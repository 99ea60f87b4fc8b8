/** The caller's joined enterprises, paged, and whether they belong to any; within the tenant only. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let member: string;

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  // An enterprise of another tenant that names the member (a row that must never show).
  await ctx.db.execute(sql`
    WITH t AS (INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id),
         e AS (INSERT INTO enterprises (tenant_id, name, estatus) SELECT id, '他园企业', 1 FROM t RETURNING id)
    INSERT INTO enterprise_members (enterprise_id, user_id) SELECT e.id, u.id FROM e, users u WHERE u.username = 'member'`);
});
afterAll(async () => ctx?.close());

describe('GET /api/front/ent/joinEntList', () => {
  it("pages the caller's enterprises of the tenant with credit code, join time and estatus", async () => {
    const all = await ctx.call({ url: '/api/front/ent/joinEntList?page=1&limit=10', token: member });
    expect(all.statusCode, all.body).toBe(200);
    const data = all.json().data as {
      rows: { entName: string; estatus: number; crtTime: string; creditCode: string }[];
      total: number;
    };
    expect(data.total).toBe(3);
    expect(data.rows.map((r) => r.entName).sort()).toEqual(
      ['星河科技有限公司', '蓝海智能制造有限公司', '青松物流有限公司'].sort(),
    );
    expect(data.rows.map((r) => r.estatus).sort()).toEqual([0, 1, 2]);
    expect(data.rows[0]!.crtTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const second = await ctx.call({ url: '/api/front/ent/joinEntList?page=2&limit=2', token: member });
    expect(second.json().data.rows).toHaveLength(1);
    expect(second.json().data.total).toBe(3);
    const beyond = await ctx.call({ url: '/api/front/ent/joinEntList?page=9&limit=2', token: member });
    expect(beyond.json().data).toEqual({ rows: [], total: 3 });
    expect((await ctx.call({ url: '/api/front/ent/joinEntList?limit=101', token: member })).statusCode).toBe(400);
  });

  it('tells whether the caller belongs to any enterprise', async () => {
    const yes = await ctx.call({ url: '/api/front/ent/isJoinedOrCreated', method: 'POST', token: member });
    expect(yes.json().data).toBe(true);
    await ctx.db.execute(sql`
      INSERT INTO users (tenant_id, username, password_hash, name)
      SELECT tenant_id, 'loner', password_hash, '独行' FROM users WHERE username = 'member'`);
    const loner = await ctx.login('loner');
    const no = await ctx.call({ url: '/api/front/ent/isJoinedOrCreated', method: 'POST', token: loner });
    expect(no.json().data).toBe(false);
  });
});

describe('GET /api/front/ent/current', () => {
  it("answers the session's enterprise with its industry's name and its region's names", async () => {
    const res = await ctx.call({ url: '/api/front/ent/current', token: member });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      entName: '星河科技有限公司',
      creditCode: '91310000MA1FL0XK3A',
      region: ['上海市', '浦东新区'],
      estatus: 1,
    });
    expect(data.industry).toEqual(expect.any(String));
    expect(data.industry).not.toBe('6513');
    expect(data.crtTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('answers null once the user no longer belongs to it, and 401 without a session', async () => {
    const token = await ctx.login('member');
    await ctx.db.execute(sql`
      DELETE FROM enterprise_members WHERE user_id = (SELECT id FROM users WHERE username = 'member')
        AND enterprise_id = (SELECT id FROM enterprises WHERE name = '星河科技有限公司')`);
    const res = await ctx.call({ url: '/api/front/ent/current', token });
    expect(res.json()).toMatchObject({ status: 200, data: null });
    expect((await ctx.call({ url: '/api/front/ent/current' })).statusCode).toBe(401);
  });
});

describe('GET /api/front/ent/members', () => {
  it("pages the people of the session's enterprise, mobiles masked, and nobody else's", async () => {
    const admin = await ctx.login('admin');
    const res = await ctx.call({ url: '/api/front/ent/members?page=1&limit=50', token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const { rows, total } = res.json().data as {
      rows: { name: string; username: string; mobile: string | null; crtTime: string }[];
      total: number;
    };
    expect(total).toBe(rows.length);
    expect(rows.map((r) => r.username)).toContain('admin');
    for (const r of rows) {
      expect(r.mobile === null || /^\d{3}\*{4}\d{4}$/.test(r.mobile), String(r.mobile)).toBe(true);
      expect(r.crtTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
    // The other park's enterprise names the member too; its people never show here.
    expect(rows.map((r) => r.name)).not.toContain('他园企业');
  });

  it('lists nobody for a session whose user left the enterprise', async () => {
    const token = await ctx.login('admin');
    await ctx.db.execute(sql`
      DELETE FROM enterprise_members WHERE user_id = (SELECT id FROM users WHERE username = 'admin')
        AND enterprise_id = (SELECT id FROM enterprises WHERE name = '星河科技有限公司')`);
    const res = await ctx.call({ url: '/api/front/ent/members', token });
    expect(res.json().data).toEqual({ rows: [], total: 0 });
  });
});
