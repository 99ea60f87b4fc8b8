/**
 * Names that are data come in the request's language (ADR 020): every answer that carries one
 * gives its English translation for `language=eng`, and the Chinese of record otherwise or where a
 * row has none.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MenuItem } from '@portal/contracts';
import { createTestContext, type TestContext } from './test/harness.js';

let ctx: TestContext;
let member: string;

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
});
afterAll(async () => ctx?.close());

/** `url`'s data in Chinese and in English. */
const both = async (url: string, token: string | undefined = member) => {
  const sep = url.includes('?') ? '&' : '?';
  const [zh, en] = await Promise.all([ctx.call({ url, token }), ctx.call({ url: `${url}${sep}language=eng`, token })]);
  expect(zh.statusCode, zh.body).toBe(200);
  expect(en.statusCode, en.body).toBe(200);
  return { zh: zh.json().data, en: en.json().data };
};

const titles = (items: MenuItem[]): string[] => items.flatMap((m) => [m.meta.title, ...titles(m.children ?? [])]);

describe('names in the request language', () => {
  it('gives the menu, roles, applications and workbenches in English', async () => {
    const menu = await both('/api/front/member/front/allPermissionV2');
    expect(titles(menu.zh.menu)).toContain('企业信息');
    expect(titles(menu.en.menu)).toContain('Enterprise information');
    expect(titles(menu.en.menu).filter((t) => /[\u4e00-\u9fff]/.test(t))).toEqual([]);

    const roles = await both('/api/front/member/getUserRolesNew');
    expect(roles.zh.map((r: { title: string }) => r.title)).toEqual(['企业管理员', '企业成员']);
    expect(roles.en.map((r: { title: string }) => r.title)).toEqual(['Enterprise administrator', 'Enterprise member']);

    const apps = await both('/api/front/apply/info/getNewApplyList');
    expect(apps.en.map((a: { appName: string }) => a.appName)).toEqual(['Enterprise services', 'Enterprise workbench']);
    const name = await both('/api/front/member/getAppNameByCode/ENT_WORKBENCH');
    expect(name).toEqual({ zh: '企业工作台', en: 'Enterprise workbench' });

    const benches = await both('/api/front/member/getWorkbenchList');
    expect(benches.en.map((w: { appName: string }) => w.appName)).toEqual(['Enterprise workbench', 'Park workbench']);
  });

  it("gives the user's and the enterprise's names, and the enterprise pages, in English", async () => {
    const info = await both('/api/front/member/front/infoV2');
    expect([info.zh.name, info.zh.groupName]).toEqual(['张敏', '星河科技有限公司']);
    expect([info.en.name, info.en.groupName]).toEqual(['Zhang Min', 'Xinghe Technology Co., Ltd.']);

    const current = await both('/api/front/ent/current');
    expect(current.en.entName).toBe('Xinghe Technology Co., Ltd.');
    const joined = await both('/api/front/ent/joinEntList');
    expect(joined.en.rows.map((r: { entName: string }) => r.entName)).toContain('Qingsong Logistics Co., Ltd.');
    const members = await both('/api/front/ent/members');
    expect(members.en.rows.map((r: { name: string }) => r.name).sort()).toEqual(['System Administrator', 'Zhang Min']);
  });

  it('gives a drag page and the registration agreement in English', async () => {
    // A page carries both languages in itself: every text has its English beside it.
    const page = await both('/api/front/page/definition/park-news');
    expect(page.en).toEqual(page.zh);
    expect(page.zh.document.title).toEqual({ zh: '园区资讯', en: 'Park news' });
    const texts: { zh: string; en?: string }[] = [];
    JSON.stringify(page.zh.document, (key, value: unknown) => {
      if (value && typeof value === 'object' && 'zh' in value) texts.push(value as { zh: string; en?: string });
      return value;
    });
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) expect(text.en, text.zh).toMatch(/^[^\u4e00-\u9fff]+$/);

    const agreement = await both('/api/front/registerContent/getInfoByTenantCode?tenantCode=demo', undefined);
    expect(agreement.zh.registerAgreement).toContain('用户注册协议');
    expect(agreement.en.registerAgreement).toContain('User registration agreement');
  });

  it("gives the park services' seeded repair requests and rooms in English", async () => {
    type Repair = { title: string; location: string; description: string; reporter: string };
    const repairs = await both('/api/front/park/repairs');
    expect(repairs.zh.rows.map((r: Repair) => r.title).sort()).toEqual(['会议室投影仪无法开机', '卫生间水龙头漏水']);
    const chinese = /[\u4e00-\u9fff]/;
    expect(repairs.en.rows).toHaveLength(2);
    for (const r of repairs.en.rows as Repair[]) {
      for (const text of [r.title, r.location, r.description, r.reporter]) expect(text, r.title).not.toMatch(chinese);
    }
    const rooms = await both('/api/front/park/rooms');
    expect(rooms.en.map((r: { name: string }) => r.name)).toEqual([
      'Meeting room 1',
      'Meeting room 2',
      'Roadshow hall',
    ]);
  });

  it("gives the operators the sign-on services' English names, and keeps the one an operator sets", async () => {
    const operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
    type Service = { id: string; name: string; nameEn: string };
    const list = async (): Promise<Service[]> =>
      (await ctx.call({ url: '/api/admin/sso-services', token: operator })).json().data;
    expect((await list()).map((s) => [s.name, s.nameEn])).toEqual([
      ['企业服务门户', 'Enterprise Service Portal'],
      ['园区物业服务（示例外部系统）', 'Park property services (example external system)'],
    ]);
    const made = await ctx.call({
      url: '/api/admin/sso-services',
      body: { name: '访客系统', nameEn: 'Visitor system', pattern: 'https://visitors.example.com/' },
      token: operator,
    });
    expect(made.json().status, made.body).toBe(200);
    const id = made.json().data as string;
    const changed = await ctx.call({
      url: `/api/admin/sso-services/${id}`,
      method: 'PATCH',
      body: { nameEn: 'Visitors' },
      token: operator,
    });
    expect(changed.json().status, changed.body).toBe(200);
    expect((await list()).find((s) => s.id === id)).toMatchObject({ name: '访客系统', nameEn: 'Visitors' });
    await ctx.call({ url: `/api/admin/sso-services/${id}`, method: 'DELETE', token: operator });
  });

  it('falls back to the Chinese of record where a row has no translation', async () => {
    await ctx.db.execute(sql`UPDATE roles SET translations = '{}' WHERE code = 'ent_member'`);
    await ctx.db.execute(sql`UPDATE menus SET translations = '{"en":{}}' WHERE name = 'entColist'`);
    try {
      const roles = await both('/api/front/member/getUserRolesNew');
      expect(roles.en.map((r: { title: string }) => r.title)).toEqual(['Enterprise administrator', '企业成员']);
      const menu = await both('/api/front/member/front/allPermissionV2');
      expect(titles(menu.en.menu)).toContain('企业信息');
    } finally {
      await ctx.db.execute(
        sql`UPDATE roles SET translations = '{"en":{"title":"Enterprise member"}}' WHERE code = 'ent_member'`,
      );
      await ctx.db.execute(
        sql`UPDATE menus SET translations = '{"en":{"title":"Enterprise information"}}' WHERE name = 'entColist'`,
      );
    }
  });
});
