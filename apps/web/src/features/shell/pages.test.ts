import type { MenuItem } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { detailUrl, httpUrl, resolvePage, tabOf, type PageContext } from './pages';

const item = (
  name: string,
  path: string,
  extra: Partial<MenuItem> = {},
  meta: Partial<MenuItem['meta']> = {},
): MenuItem => ({
  id: name,
  path,
  name,
  hidden: false,
  parentId: null,
  component: 'some/view',
  route: '1',
  meta: { title: `T-${name}`, ...meta },
  ...extra,
});

const menu: MenuItem[] = [
  item('l1', '/a', {
    component: 'RouteView',
    children: [
      item('l2', '/a/b', {
        component: 'RouteView',
        children: [
          item('l3', '/a/b/c', {
            component: 'RouteView',
            children: [item('l4', '/a/b/c/d', {}, { keepAlive: true })],
          }),
          item('hiddenPage', '/a/b/hidden', { hidden: true }),
        ],
      }),
      item('skipped', '/a/skipped', { route: '0' }),
    ],
  }),
  item('dir', '/dir', {
    component: 'RouteView',
    redirect: '/dir/two',
    children: [item('one', '/dir/one'), item('two', '/dir/two')],
  }),
  item('onlySkipped', '/empty', { component: 'RouteView', children: [item('s', '/empty/s', { route: '0' })] }),
  item('orders', 'cloudOrders', {}, { serviceType: 1, url: 'https://c.example/o?wb={workbenchCoding}' }),
  item('policy', '/policy', { component: 'IframePageView' }, { url: 'https://p.example/policy', keepAlive: true }),
  item('site', '/site', {}, { url: 'https://p.example/', internalOrExternal: true }),
  item('dash', '/dash', { component: 'DragPageView' }, { pageId: 'demo' }),
  item('mod', 'colist', {}, { module: 'ent' }),
];

const ctx: PageContext = { jzh: false, appCode: null, workbenchCode: 'WB 1' };
const page = (path: string, c = ctx) => {
  const r = resolvePage(path, menu, c);
  return r && 'page' in r ? r.page : null;
};

describe('pages', () => {
  it('resolves the home page and sends /home to it', () => {
    expect(page('/index')).toMatchObject({ kind: 'home', key: '#home', titleKey: 'shell.home' });
    expect(resolvePage('/home', menu, ctx)).toEqual({ redirect: '/index' });
  });

  it('routes an entry four levels deep, keyed by name and titled by meta.title', () => {
    expect(page('/a/b/c/d')).toMatchObject({ kind: 'view', key: 'l4', title: 'T-l4', keepAlive: true });
  });

  it('routes hidden entries and skips route "0" entries', () => {
    expect(page('/a/b/hidden')?.key).toBe('hiddenPage');
    expect(resolvePage('/a/skipped', menu, ctx)).toBeNull();
  });

  it('sends a directory to its redirect, else to its first page; one without pages is not found', () => {
    expect(resolvePage('/dir', menu, ctx)).toEqual({ redirect: '/dir/two' });
    expect(resolvePage('/a', menu, ctx)).toEqual({ redirect: '/a/b/c/d' });
    expect(resolvePage('/a/b/c/', menu, ctx)).toEqual({ redirect: '/a/b/c/d' });
    expect(resolvePage('/empty', menu, ctx)).toBeNull();
  });

  it('embeds service-type-1 entries under /IframePageContent with the workbench code substituted', () => {
    expect(page('/IframePageContent/cloudOrders')).toMatchObject({
      kind: 'iframe',
      url: 'https://c.example/o?wb=WB%201',
    });
    expect(page('/cloudOrders')).toBeNull();
    expect(page('/IframePageContent/unknown')).toBeNull();
    expect(page('/policy')).toMatchObject({ kind: 'iframe', url: 'https://p.example/policy', keepAlive: true });
  });

  it('tells apart external, drag-page and module-prefixed entries', () => {
    expect(page('/site')).toMatchObject({ kind: 'external', url: 'https://p.example/' });
    expect(page('/dash')).toMatchObject({ kind: 'drag', url: null });
    expect(page('/ent/colist')?.key).toBe('mod');
  });

  it('has the fixed detail tabs under both paths with their fixed titles', () => {
    for (const p of ['/CloudInsideIframePage/', '/CloudInsideIframePage', '/IframePageContent/CloudInsideIframePage']) {
      expect(page(p)).toMatchObject({
        kind: 'detail',
        key: '#CloudInsideIframePage',
        titleKey: 'shell.cloudOrderDetail',
      });
    }
    expect(page('/ProductInsideIframePage/')).toMatchObject({ titleKey: 'shell.productDetail' });
  });

  it('opens /workStand only in the JZH theme with the ENT_WORKBENCH application', () => {
    expect(page('/workStand')).toBeNull();
    expect(page('/workStand', { ...ctx, jzh: true })).toBeNull();
    expect(page('/workStand', { ...ctx, appCode: 'ENT_WORKBENCH' })).toBeNull();
    expect(page('/workStand', { ...ctx, jzh: true, appCode: 'ENT_WORKBENCH' })).toMatchObject({
      kind: 'workbench',
      titleKey: 'shell.workbench',
    });
  });

  it('makes a tab that keeps its page only when the switch is on and the entry asks', () => {
    const p = page('/a/b/c/d')!;
    expect(tabOf(p, '/a/b/c/d', '?tc=x', true)).toEqual({
      key: 'l4',
      path: '/a/b/c/d',
      search: '?tc=x',
      title: 'T-l4',
      titleKey: null,
      keepAlive: true,
    });
    expect(tabOf(p, '/a/b/c/d', '', false).keepAlive).toBe(false);
    expect(tabOf(page('/dir/one')!, '/dir/one', '', true).keepAlive).toBe(false);
  });

  it('follows redirects to a page, and never loops or leaves the app', () => {
    const loop: MenuItem[] = [
      item('a', '/a', { component: 'RouteView', redirect: '/b', children: [item('a1', '/a/1')] }),
      item('b', '/b', { component: 'RouteView', redirect: '/a', children: [item('b1', '/b/1')] }),
      item('self', '/self', { component: 'RouteView', redirect: '/self/', children: [item('s1', '/self/1')] }),
      item('evil', '/evil', { component: 'RouteView', redirect: '/\\evil.example', children: [item('e1', '/evil/1')] }),
      item('far', '/far', { component: 'RouteView', redirect: '//evil.example', children: [] }),
    ];
    // /a → /b is a directory whose own redirect leads back: /b's first page instead.
    expect(resolvePage('/a', loop, ctx)).toEqual({ redirect: '/b/1' });
    expect(resolvePage('/self', loop, ctx)).toEqual({ redirect: '/self/1' });
    expect(resolvePage('/evil', loop, ctx)).toEqual({ redirect: '/evil/1' });
    expect(resolvePage('/far', loop, ctx)).toBeNull();
  });

  it('keeps menu entries off the fixed tabs: fixed keys start with #', () => {
    const clash = [item('home', '/clash'), item('workStand', '/ws')];
    const r = resolvePage('/clash', clash, ctx);
    expect(r && 'page' in r ? r.page.key : null).toBe('home');
    expect(page('/index')?.key).not.toBe('home');
  });

  it('embeds only http(s) addresses', () => {
    const bad = [item('js', '/js', {}, { serviceType: 1, url: 'javascript:alert(1)' })];
    const r = resolvePage('/IframePageContent/js', bad, ctx);
    expect(r && 'page' in r ? r.page : null).toMatchObject({ kind: 'iframe', url: null });
    expect(httpUrl('data:text/html,x')).toBeNull();
    expect(httpUrl('/relative')).toBeNull();
    expect(httpUrl('https://a.example/x')).toBe('https://a.example/x');
  });

  it('frames a detail address only at an origin an embedded entry of the menu uses', () => {
    const q = (url: string) => `?url=${encodeURIComponent(url)}`;
    expect(detailUrl(q('https://c.example/order/7'), menu)).toBe('https://c.example/order/7');
    expect(detailUrl(q('https://p.example/policy?id=2'), menu)).toBe('https://p.example/policy?id=2');
    // Look-alikes, credentials, other schemes, an external-only origin, nothing.
    expect(detailUrl(q('https://c.example.evil/'), menu)).toBeNull();
    expect(detailUrl(q('https://c.example@evil.example/'), menu)).toBeNull();
    expect(detailUrl(q('javascript:alert(1)'), menu)).toBeNull();
    expect(detailUrl(q('http://c.example/'), menu)).toBeNull();
    const onlyExternal = [item('site', '/site', {}, { url: 'https://x.example/', internalOrExternal: true })];
    expect(detailUrl(q('https://x.example/a'), onlyExternal)).toBeNull();
    const notRouted = [item('r0', '/r0', { route: '0' }, { url: 'https://r.example/', serviceType: 1 })];
    expect(detailUrl(q('https://r.example/a'), notRouted)).toBeNull();
    expect(detailUrl('', menu)).toBeNull();
  });

  it('finds nothing for unknown paths', () => {
    expect(resolvePage('/nowhere', menu, ctx)).toBeNull();
    expect(resolvePage('/IframePageContent', menu, ctx)).toBeNull();
  });
});
