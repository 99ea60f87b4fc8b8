/** My workbench's arrangement: each user's own, kept per tenant, checked by its schema. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const URL = '/api/front/workbench/layout';
let ctx: TestContext;
let member: string;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  admin = await ctx.login('admin');
});
afterAll(async () => ctx?.close());

const layout = {
  items: [
    { i: 'notices', x: 0, y: 0, w: 8, h: 6 },
    { i: 'shortcuts', x: 8, y: 0, w: 4, h: 6 },
  ],
  shortcuts: ['/message/index'],
};

describe('the workbench layout', () => {
  it("is null until the user arranges it, then the user's own", async () => {
    expect((await ctx.call({ url: URL, token: member })).json().data).toBeNull();
    const saved = await ctx.call({ url: URL, body: layout, token: member });
    expect(saved.json(), saved.body).toMatchObject({ status: 200, data: null });
    expect((await ctx.call({ url: URL, token: member })).json().data).toEqual(layout);
    // Another user's stays theirs.
    expect((await ctx.call({ url: URL, token: admin })).json().data).toBeNull();
    // Fields the layout does not have are not kept.
    await ctx.call({
      url: URL,
      body: { ...layout, extra: 'x'.repeat(100), items: [{ ...layout.items[0], note: 1 }] },
      token: member,
    });
    expect((await ctx.call({ url: URL, token: member })).json().data).toEqual({ ...layout, items: [layout.items[0]] });
    const changed = { ...layout, items: layout.items.slice(1) };
    await ctx.call({ url: URL, body: changed, token: member });
    expect((await ctx.call({ url: URL, token: member })).json().data).toEqual(changed);
  });

  it('refuses unknown widgets, a widget twice, and shortcuts out of the portal; needs a session', async () => {
    const bad = [
      { ...layout, items: [{ i: 'weather', x: 0, y: 0, w: 4, h: 4 }] },
      { ...layout, items: [layout.items[0], layout.items[0]] },
      { ...layout, shortcuts: ['https://evil.example/'] },
      { ...layout, items: [{ ...layout.items[0], w: 13 }] },
      { ...layout, items: [{ ...layout.items[0], x: 8, w: 6 }] },
    ];
    for (const body of bad) {
      const res = await ctx.call({ url: URL, body, token: member });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/请求参数不正确|组件编号重复|组件超出了页面的 12 列/);
    }
    expect((await ctx.call({ url: URL })).statusCode).toBe(401);
  });
});
