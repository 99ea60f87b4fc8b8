/**
 * Drag pages: the published version shown only through a drag-page entry of the caller's menu,
 * within the caller's tenant; the builder's saves checked by the document's one schema (every
 * widget kind, unknown kinds, oversize pages, markup in texts, frames off the allow-list), stale
 * saves refused, publishing and restoring, and `page:design` required.
 */
import type { PageDocument, PublishedPage, Widget } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const URL = '/api/front/page/definition';
let ctx: TestContext;
let member: string;
let operator: string;

const doc1: PageDocument = {
  format: 1,
  title: { zh: '测试页' },
  widgets: [{ id: 'a', x: 0, y: 0, w: 6, h: 3, kind: 'text', props: { text: { zh: '你好' } } }],
};

async function id(query: ReturnType<typeof sql>): Promise<number> {
  const res = await ctx.db.execute<{ id: number }>(query);
  return Number(res.rows[0]!.id);
}

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
  const demo = await id(sql`SELECT id FROM tenants WHERE code = 'demo'`);
  const operatorRole = await id(sql`SELECT id FROM roles WHERE tenant_id = ${demo} AND code = 'park_operator'`);
  const page = async (tenant: number, code: string, title: string, published = true) => {
    const pageId = await id(sql`
      INSERT INTO page_definitions (tenant_id, code, published_version) VALUES (${tenant}, ${code}, ${published ? 1 : null})
      RETURNING id`);
    const doc = JSON.stringify({ ...doc1, title: { zh: title } });
    await ctx.db.execute(
      sql`INSERT INTO page_versions (page_id, version, document) VALUES (${pageId}, 1, ${doc}::jsonb)`,
    );
  };
  // A page no menu entry points at, and one only the park operator's menu shows.
  await page(demo, 'orphan', '无入口');
  await page(demo, 'ops-only', '运营看板');
  const opsMenu = await id(sql`
    INSERT INTO menus (tenant_id, name, path, component, meta)
    VALUES (${demo}, 'opsOnly', '/ops/only', 'DragPageView', ${JSON.stringify({ title: '运营看板', pageId: 'ops-only' })}::jsonb)
    RETURNING id`);
  await ctx.db.execute(sql`INSERT INTO role_menus (role_id, menu_id) VALUES (${operatorRole}, ${opsMenu})`);
  // Another tenant with a page under a code demo does not have, and one under demo's own code.
  const other = await id(sql`INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id`);
  await page(other, 'other-board', '他人看板');
  await page(other, 'ent-dashboard', '他人企业看板');
  // A demo entry pointing at other-board (a page demo does not have), one that is not routed, and
  // one whose page was never published.
  await page(demo, 'draft-board', '草稿');
  await page(demo, 'unpublished', '未发布', false);
  const memberRole = await id(sql`SELECT id FROM roles WHERE tenant_id = ${demo} AND code = 'ent_member'`);
  for (const [name, pageId, route] of [
    ['otherBoard', 'other-board', '1'],
    ['draftBoard', 'draft-board', '0'],
    ['unpublished', 'unpublished', '1'],
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
  it("answers the published version of a page that the caller's menu shows", async () => {
    const res = await ctx.call({ url: `${URL}/ent-dashboard`, token: member });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ data: PublishedPage }>().data;
    expect(page.version).toBe(1);
    expect(page.document.title).toEqual({ zh: '企业看板', en: 'Enterprise dashboard' });
    expect(page.document.widgets.map((w) => w.kind)).toEqual(['stats', 'text', 'links']);
    const unpublished = await ctx.call({ url: `${URL}/unpublished`, token: member });
    expect(unpublished.json()).toEqual({ status: 404, message: '该页面尚未发布', data: null });
  });

  it('answers 404 for a page no entry of the menu points at, one of another role, and one not routed', async () => {
    for (const code of ['orphan', 'ops-only', 'nothing', 'draft-board']) {
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
    expect(own.json<{ data: PublishedPage }>().data.document.title.zh).toBe('企业看板');
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

/** One widget of every kind, each valid. */
const EVERY_KIND: Widget[] = [
  {
    id: 't',
    x: 0,
    y: 0,
    w: 6,
    h: 3,
    kind: 'text',
    props: { title: { zh: '说明', en: 'About' }, text: { zh: 'a < b，且 b > c' } },
  },
  {
    id: 'i',
    x: 6,
    y: 0,
    w: 6,
    h: 3,
    kind: 'image',
    props: { src: 'data:image/png;base64,iVBORw0KGgo=', alt: { zh: '图' }, fit: 'cover' },
  },
  {
    id: 'l',
    x: 0,
    y: 3,
    w: 4,
    h: 3,
    kind: 'links',
    props: { items: [{ title: { zh: '消息' }, path: '/message/index' }] },
  },
  { id: 's', x: 4, y: 3, w: 4, h: 3, kind: 'stats', props: { items: [{ label: { zh: '企业' }, value: '12' }] } },
  {
    id: 'c',
    x: 8,
    y: 3,
    w: 4,
    h: 3,
    kind: 'chart',
    props: { type: 'pie', points: [{ label: { zh: '甲' }, value: 3 }] },
  },
  { id: 'tb', x: 0, y: 6, w: 6, h: 3, kind: 'table', props: { columns: [{ zh: '名称' }], rows: [[{ zh: '甲' }]] } },
  { id: 'f', x: 6, y: 6, w: 6, h: 3, kind: 'iframe', props: { url: 'https://park.example.com/policy' } },
  { id: 'n', x: 0, y: 9, w: 6, h: 3, kind: 'notices', props: { count: 5 } },
  { id: 'd', x: 6, y: 9, w: 6, h: 3, kind: 'devices', props: { count: 6 } },
];
const doc = (widgets: unknown[], title = '新页面') => ({ format: 1, title: { zh: title }, widgets });
const save = (code: string, baseVersion: number, document: unknown, token = operator) =>
  ctx.call({ url: `/api/admin/pages/${code}/versions`, body: { baseVersion, document }, token });

describe('the builder: saving', () => {
  it('saves a page with every kind of widget as version 1, then version 2 on top of it', async () => {
    const first = await save('every-kind', 0, doc(EVERY_KIND));
    expect(first.json(), first.body).toEqual({ status: 200, message: expect.any(String), data: 1 });
    const second = await save('every-kind', 1, doc(EVERY_KIND.slice(0, 2), '第二版'));
    expect(second.json().data).toBe(2);
    const latest = (await ctx.call({ url: '/api/admin/pages/every-kind', token: operator })).json().data;
    expect(latest).toMatchObject({ version: 2, publishedVersion: null, document: { title: { zh: '第二版' } } });
    const v1 = (await ctx.call({ url: '/api/admin/pages/every-kind/versions/1', token: operator })).json().data;
    expect(v1.document.widgets).toEqual(EVERY_KIND);
  });

  it('refuses a stale base, an existing code and an unknown page, saying why', async () => {
    await save('stale', 0, doc1);
    expect((await save('stale', 1, doc1)).json().data).toBe(2);
    const stale = await save('stale', 1, doc1);
    expect(stale.json()).toEqual({ status: 409, message: '页面已被他人保存为新版本，请重新加载后再修改', data: null });
    expect((await save('stale', 0, doc1)).json()).toMatchObject({ status: 409, message: '页面编码已存在' });
    expect((await save('never-made', 3, doc1)).json()).toMatchObject({ status: 404, message: '页面或版本不存在' });
  });

  it.each([
    ['an unknown widget kind', [{ id: 'x', x: 0, y: 0, w: 1, h: 1, kind: 'script', props: {} }], 'kind'],
    [
      'a script in a text widget',
      [{ ...EVERY_KIND[0], props: { text: { zh: '<script>alert(1)</script>' } } }],
      'text.zh',
    ],
    [
      'an element in an English text',
      [{ ...EVERY_KIND[0], props: { text: { zh: '好', en: 'x <img src=x onerror=alert(1)>' } } }],
      'text.en',
    ],
    [
      'a comment in a title',
      [{ ...EVERY_KIND[0], props: { title: { zh: '<!-- x -->' }, text: { zh: 'a' } } }],
      'title.zh',
    ],
    [
      'an SVG image',
      [{ ...EVERY_KIND[1], props: { ...EVERY_KIND[1]!.props, src: 'data:image/svg+xml;base64,PHN2Zz4=' } }],
      'src',
    ],
    [
      'an image of another origin',
      [{ ...EVERY_KIND[1], props: { ...EVERY_KIND[1]!.props, src: 'https://evil.example/x.png' } }],
      'src',
    ],
    [
      'a link out of the portal',
      [{ ...EVERY_KIND[2], props: { items: [{ title: { zh: 'x' }, path: 'javascript:alert(1)' }] } }],
      'path',
    ],
    ['a chart with no points', [{ ...EVERY_KIND[4], props: { type: 'bar', points: [] } }], 'points'],
    [
      'a chart of an unknown type',
      [{ ...EVERY_KIND[4], props: { type: 'radar', points: [{ label: { zh: 'a' }, value: 1 }] } }],
      'type',
    ],
    [
      'a table of 9 columns',
      [{ ...EVERY_KIND[5], props: { columns: Array(9).fill({ zh: 'c' }), rows: [] } }],
      'columns',
    ],
    ['a notice list of 11', [{ ...EVERY_KIND[7], props: { count: 11 } }], 'count'],
    ['a widget beyond the grid', [{ ...EVERY_KIND[0], x: 12 }], 'x'],
    ['too many widgets', Array.from({ length: 61 }, (_, n) => ({ ...EVERY_KIND[0], id: `w${n}` })), 'widgets'],
  ])('refuses %s, naming the field', async (_, widgets, field) => {
    const res = await save(`bad-${field.replace(/\W/g, '')}`, 0, doc(widgets));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(field);
    expect(res.json().message).not.toMatch(/anyOf|schema/);
  });

  it('refuses what the schema cannot say: twin ids, a widget past column 12, a frame off the allow-list, 200 KB', async () => {
    const cases: [unknown[], string][] = [
      [[EVERY_KIND[0], { ...EVERY_KIND[1], id: 't' }], '组件编号重复'],
      [[{ ...EVERY_KIND[0], x: 8, w: 6 }], '组件超出了页面的 12 列'],
      [
        [{ ...EVERY_KIND[6], props: { url: 'https://evil.example/x' } }],
        '嵌入页面的地址 https://evil.example 不在本园区登记的应用中',
      ],
    ];
    for (const [widgets, message] of cases) {
      expect((await save('checked', 0, doc(widgets))).json()).toEqual({ status: 400, message, data: null });
    }
    const image = (n: number) => ({
      ...EVERY_KIND[1],
      id: `img${n}`,
      props: { ...EVERY_KIND[1]!.props, src: `data:image/png;base64,${'A'.repeat(60_000)}` },
    });
    const big = await save('big', 0, doc([0, 1, 2, 3].map(image)));
    expect(big.json()).toMatchObject({ status: 400, message: expect.stringContaining('页面定义过大') });
    const huge = await save('huge', 0, doc([0, 1, 2, 3, 4].map(image)));
    expect(huge.statusCode).toBe(413);
    expect((await ctx.call({ url: '/api/admin/pages/big', token: operator })).statusCode).toBe(404);
  });

  it('needs page:design for every builder call', async () => {
    for (const [url, body] of [
      ['/api/admin/pages', undefined],
      ['/api/admin/pages/ent-dashboard', undefined],
      ['/api/admin/pages/ent-dashboard/versions', undefined],
      ['/api/admin/pages/ent-dashboard/versions', { baseVersion: 1, document: doc1 }],
      ['/api/admin/pages/ent-dashboard/publish', { version: 1 }],
      ['/api/admin/pages/ent-dashboard/restore', { version: 1 }],
    ] as const) {
      const res = await ctx.call({ url, body, token: member });
      expect(res.statusCode, url).toBe(403);
    }
    expect((await ctx.call({ url: '/api/admin/pages/ent-dashboard/versions/1', token: member })).statusCode).toBe(403);
  });
});

describe('the builder: publishing and restoring', () => {
  it('publishes a version to the menu entry, and restores an earlier one as a new published version', async () => {
    const shown = async () =>
      (await ctx.call({ url: `${URL}/ent-dashboard`, token: member })).json<{ data: PublishedPage }>().data;
    expect((await save('ent-dashboard', 1, doc(EVERY_KIND.slice(7), '新看板'))).json().data).toBe(2);
    // Saved, not yet published: the menu still shows version 1.
    expect((await shown()).version).toBe(1);
    const pub = await ctx.call({
      url: '/api/admin/pages/ent-dashboard/publish',
      body: { version: 2 },
      token: operator,
    });
    expect(pub.json().status, pub.body).toBe(200);
    expect((await shown()).document.title.zh).toBe('新看板');

    const restored = await ctx.call({
      url: '/api/admin/pages/ent-dashboard/restore',
      body: { version: 1 },
      token: operator,
    });
    expect(restored.json().data).toBe(3);
    const page = await shown();
    expect(page.version).toBe(3);
    expect(page.document.title.zh).toBe('企业看板');

    const versions = (
      await ctx.call({ url: '/api/admin/pages/ent-dashboard/versions?language=eng', token: operator })
    ).json().data;
    expect(
      versions.map((v: { version: number; restoredFrom: number | null; title: string }) => [
        v.version,
        v.restoredFrom,
        v.title,
      ]),
    ).toEqual([
      [3, 1, 'Enterprise dashboard'],
      [2, null, '新看板'],
      [1, null, 'Enterprise dashboard'],
    ]);
    const list = (await ctx.call({ url: '/api/admin/pages', token: operator })).json().data;
    expect(list.find((p: { code: string }) => p.code === 'ent-dashboard')).toMatchObject({
      latestVersion: 3,
      publishedVersion: 3,
      menuEntries: 1,
      title: '企业看板',
    });
  });

  it('refuses versions that do not exist, and pages of another tenant', async () => {
    for (const path of ['ent-dashboard/publish', 'ent-dashboard/restore', 'other-board/publish']) {
      const version = path.startsWith('other') ? 1 : 99;
      const res = await ctx.call({ url: `/api/admin/pages/${path}`, body: { version }, token: operator });
      expect(res.json(), path).toEqual({ status: 404, message: '页面或版本不存在', data: null });
    }
    expect((await ctx.call({ url: '/api/admin/pages/other-board', token: operator })).statusCode).toBe(404);
    const list = (await ctx.call({ url: '/api/admin/pages', token: operator })).json().data as { code: string }[];
    expect(list.map((p) => p.code)).not.toContain('other-board');
  });
});

describe('documents the schema no longer accepts, and frames that are gone', () => {
  it('refuses frame addresses that are no URL with 400, never a 5xx', async () => {
    for (const url of ['https://x:99999', 'http://[', 'http://%zz', 'https://:80']) {
      const res = await save('bad-frame', 0, doc([{ ...EVERY_KIND[6], props: { url } }]));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toContain('不在本园区登记的应用中');
    }
  });

  it('answers 409 with a message for a stored document that breaks the schema (written by hand)', async () => {
    const broken = { ...doc1, widgets: [{ ...doc1.widgets[0], props: { text: { zh: '<b>粗体</b>' } } }] };
    await ctx.db.execute(sql`
      UPDATE page_versions SET document = ${JSON.stringify(broken)}::jsonb
      WHERE page_id = (SELECT id FROM page_definitions WHERE code = 'ops-only') AND version = 1`);
    const res = await ctx.call({ url: '/api/admin/pages/ops-only', token: operator });
    expect(res.json()).toEqual({
      status: 409,
      message: '该页面的定义不符合当前格式，请在页面设计中保存一个新版本',
      data: null,
    });
    const publish = await ctx.call({ url: '/api/admin/pages/ops-only/publish', body: { version: 1 }, token: operator });
    expect(publish.statusCode).toBe(409);
  });

  it('does not publish or restore a version whose frame is no longer registered', async () => {
    await save('framed', 0, doc([EVERY_KIND[6]]));
    await save('framed', 1, doc([EVERY_KIND[0]]));
    await ctx.db.execute(sql`UPDATE micro_apps SET entry = 'https://moved.example.com/' WHERE code = 'park-hall'`);
    try {
      for (const action of ['publish', 'restore']) {
        const res = await ctx.call({ url: `/api/admin/pages/framed/${action}`, body: { version: 1 }, token: operator });
        expect(res.json(), action).toMatchObject({ status: 400, message: expect.stringContaining('park.example.com') });
      }
    } finally {
      await ctx.db.execute(sql`UPDATE micro_apps SET entry = 'https://park.example.com/' WHERE code = 'park-hall'`);
    }
  });
});

describe("images: uploads or http(s) addresses, never a path of the portal's own", () => {
  const image = (src: string) => ({ ...EVERY_KIND[1], props: { ...EVERY_KIND[1].props, src } });

  it('refuses an image at a path of the portal or at its own origin, whose request could act (sign out)', async () => {
    for (const src of [
      '/cas/logout',
      '/cas/logout?service=x',
      '/api/front/member/logout',
      '/center/anything.png',
      'http://localhost:8080/cas/logout',
      'https://evil.example/pixel.png',
      'javascript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz4=',
    ]) {
      const res = await save('img-bad', 0, doc([image(src)]));
      expect(res.statusCode, src).toBe(400);
      expect(res.json().message, src).toMatch(/图片/);
    }
    const en = await ctx.call({
      url: '/api/admin/pages/img-bad/versions?language=eng',
      body: { baseVersion: 0, document: doc([image('/cas/logout')]) },
      token: operator,
    });
    expect(en.json().message).toMatch(/image/);
  });

  it('takes an embedded picture, an uploaded image and an image of a registered application', async () => {
    for (const [code, src] of [
      ['img-data', 'data:image/png;base64,iVBORw0KGgo='],
      ['img-upload', '/api/resources/logos/0f0e0d0c-0b0a-4908-8706-050403020100'],
      ['img-app', 'https://park.example.com/banner.png'],
    ]) {
      const res = await save(code!, 0, doc([image(src!)]));
      expect(res.json().status, `${src}: ${res.body}`).toBe(200);
    }
  });

  it('never shows or publishes a stored page whose image points at the portal (written by hand, or before the rule)', async () => {
    await save('img-old', 0, doc([EVERY_KIND[0]]));
    await ctx.db.execute(sql`
      UPDATE page_versions SET document = ${JSON.stringify(doc([image('/cas/logout')]))}::jsonb
      WHERE page_id = (SELECT id FROM page_definitions WHERE code = 'img-old') AND version = 1`);
    const publish = await ctx.call({ url: '/api/admin/pages/img-old/publish', body: { version: 1 }, token: operator });
    expect(publish.statusCode).toBe(409);
    const latest = await ctx.call({ url: '/api/admin/pages/img-old', token: operator });
    expect(latest.statusCode).toBe(409);
  });
});
