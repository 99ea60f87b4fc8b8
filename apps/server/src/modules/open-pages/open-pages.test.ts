/**
 * The open dashboard over HTTP against the real database (ADR 027): the demo park's
 * figures, counted only from its resident enterprises and its public devices; nothing of another
 * tenant; an unknown tenant is 400 as on the device pages; English names for sections and provinces.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../db/demo/seed.js';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';
import { hashPassword } from '../../platform/passwords.js';
import { monthsEnding } from './open-pages.service.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db.transaction(async (tx) =>
    insertDemo(tx, await hashPassword(DEMO_PASSWORD), { code: 'other', name: '另一园区' }),
  );
  // The demo park's residents: 星河 (6513) and three of the operator's list (65), all 信息传输 in
  // 上海 (31). Added here: a manufacturer in 江苏 registered two months ago, one with neither code,
  // one with codes that name nothing, one refused (not resident), and one registered 13 months ago.
  await ctx.db.execute(sql`
    INSERT INTO enterprises (tenant_id, name, industry_code, region_code, estatus, created_at)
    SELECT t.id, v.name, v.industry, v.region, v.estatus, now() - v.age
    FROM tenants t, (VALUES
      ('看板测试制造有限公司', '3911', '320505', 1, interval '2 months'),
      ('看板测试无编码有限公司', NULL, NULL, 1, interval '0'),
      ('看板测试未知编码有限公司', '9999', '990000', 1, interval '0'),
      ('看板测试未通过有限公司', '3911', '440106', 2, interval '0'),
      ('看板测试早年有限公司', '6513', '310115', 1, interval '13 months')
    ) AS v(name, industry, region, estatus, age)
    WHERE t.code = 'demo'`);
  // Another park's resident in 广东 and its open alert must never show in the demo's figures.
  await ctx.db.execute(sql`
    INSERT INTO enterprises (tenant_id, name, industry_code, region_code, estatus)
    SELECT id, '另一园区广东企业', '0111', '440106', 1 FROM tenants WHERE code = 'other'`);
});
afterAll(async () => ctx?.close());

type Named = { code: string; name: string; count: number };
interface Dashboard {
  park: string;
  generatedTime: string;
  enterprises: { total: number; registeredThisMonth: number; byIndustry: Named[]; byRegion: Named[] };
  registrations: { month: string; count: number }[];
  devices: { total: number; online: number; byType: { type: string; total: number; online: number }[] };
  alerts: { open: number; bySeverity: { severity: string; count: number }[] };
}

const dashboard = async (query: string) => {
  const res = await ctx.call({ url: `/api/open/dashboard${query}` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toMatchObject({ status: 200, message: query.includes('language=eng') ? 'Success' : '成功' });
  return res.json().data as Dashboard;
};

describe('the open dashboard', () => {
  it("counts the demo park's resident enterprises by section and province, and its registrations by month", async () => {
    const d = await dashboard('?tc=demo');
    expect(d.park).not.toBe('');
    expect(d.generatedTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // 4 demo residents + 3 added this month or two months ago + the one of 13 months ago.
    expect(d.enterprises.total).toBe(8);
    expect(d.enterprises.byIndustry).toEqual([
      { code: 'I', name: '信息传输、软件和信息技术服务业', count: 5 },
      { code: 'C', name: '制造业', count: 1 },
      { code: '', name: '其他', count: 2 },
    ]);
    expect(d.enterprises.byRegion).toEqual([
      { code: '31', name: '上海市', count: 5 },
      { code: '32', name: '江苏省', count: 1 },
      { code: '', name: '其他', count: 2 },
    ]);
    // Twelve months ending with this one (China time); every registration counts, refused ones too.
    const months = d.registrations.map((r) => r.month);
    expect(months).toEqual(monthsEnding(d.generatedTime.slice(0, 7), 12));
    expect(d.registrations.at(-1)!.count).toBe(13 + 3);
    expect(d.enterprises.registeredThisMonth).toBe(16);
    expect(d.registrations.at(-3)!.count).toBe(1);
    expect(d.registrations.reduce((sum, r) => sum + r.count, 0)).toBe(17);
  });

  it('counts public devices only, online within 5 minutes, and the open alerts of public devices', async () => {
    const d = await dashboard('?tenantCode=demo');
    // Nine demo devices, the substation's meter not public; the east gate camera silent for 2 h.
    expect(d.devices).toMatchObject({ total: 8, online: 7 });
    expect(d.devices.byType.find((t) => t.type === 'meter')).toEqual({ type: 'meter', total: 2, online: 2 });
    expect(d.devices.byType.find((t) => t.type === 'camera')).toEqual({ type: 'camera', total: 1, online: 0 });
    // The substation meter's open critical alert is not public; acknowledged and closed are not open.
    expect(d.alerts).toEqual({
      open: 2,
      bySeverity: [
        { severity: 'critical', count: 1 },
        { severity: 'warning', count: 1 },
        { severity: 'info', count: 0 },
      ],
    });
  });

  it("never counts another tenant's enterprises, devices or alerts", async () => {
    // Every device of the other park reports: its east gate camera is online, the demo's is not.
    await ctx.db.execute(sql`
      UPDATE devices SET last_seen_at = now()
      WHERE tenant_id = (SELECT id FROM tenants WHERE code = 'other')`);
    const other = await dashboard('?tc=other');
    expect(other.enterprises.byRegion.find((r) => r.code === '44')).toEqual({ code: '44', name: '广东省', count: 1 });
    expect(other.devices).toMatchObject({ total: 8, online: 8 });
    const demo = await dashboard('?tc=demo');
    expect(demo.enterprises.byRegion.map((r) => r.code)).not.toContain('44');
    expect(demo.devices).toMatchObject({ total: 8, online: 7 });
  });

  it('answers English section and province names, and the park name, with language=eng', async () => {
    const d = await dashboard('?tc=demo&language=eng');
    expect(d.park).toBe('Demo Park');
    expect(d.enterprises.byIndustry.map((r) => r.name)).toEqual([
      'Information transmission, software and information technology services',
      'Manufacturing',
      'Other',
    ]);
    expect(d.enterprises.byRegion.map((r) => r.name)).toEqual(['Shanghai', 'Jiangsu', 'Other']);
  });

  it('answers 租户不存在 for an unknown tenant, and the default tenant without one', async () => {
    const unknown = await ctx.call({ url: '/api/open/dashboard?tc=nosuch' });
    expect(unknown.json()).toMatchObject({ status: 400, message: '租户不存在', data: null });
    expect((await ctx.call({ url: '/api/open/dashboard?tc=nosuch&language=eng' })).json().message).not.toBe(
      '租户不存在',
    );
    expect((await dashboard('?tc=null')).devices.total).toBe(8);
    expect((await dashboard('')).enterprises.total).toBe(8);
  });
});

describe('monthsEnding', () => {
  it('counts back across a year', () => {
    expect(monthsEnding('2026-02', 4)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsEnding('2026-12', 1)).toEqual(['2026-12']);
  });
});
