import type { MenuItem, MicroApp } from '@portal/contracts';
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
  item('repair', 'repair', { component: 'MicroAppView' }, { module: 'park-services' }),
];

/** The tenant's registered applications: a sub-application and the framed services' origins. */
const apps: MicroApp[] = [
  { code: 'park-services', name: '园区服务', entry: '/micro/park-services/', serviceType: 0 },
  { code: 'crm', name: '客户管理', entry: 'https://crm.example/app/', serviceType: 0 },
  { code: 'orders', name: '订单', entry: 'https://c.example/', serviceType: 1 },
  { code: 'policy', name: '政策', entry: 'https://p.example/', serviceType: 1 },
];
const ctx: PageContext = {
  jzh: false,
  appCode: null,
  workbenchCode: 'WB 1',
  microApps: apps,
  origin: 'https://portal.example',
};
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

  it('opens 账户安全 at /account/security for everyone, whatever the menu', () => {
    for (const p of ['/account/security', '/account/security/']) {
      expect(page(p)).toMatchObject({ kind: 'security', key: '#accountSecurity', titleKey: 'shell.accountSecurity' });
    }
  });

  it('opens /workStand only in the JZH theme with the ENT_WORKBENCH application', () => {
    expect(page('/workStand')).toBeNull();
    expect(page('/workStand', { ...ctx, appCode: 'ENT_WORKBENCH' })).toBeNull();
    expect(page('/workStand', { ...ctx, jzh: true, appCode: 'ENT_WORKBENCH' })).toMatchObject({
      kind: 'workbench',
      titleKey: 'shell.workbench',
    });
  });

  it('names the application /workStand belongs to when another one is current (JZH theme)', () => {
    expect(resolvePage('/workStand', [], { ...ctx, jzh: true, appCode: 'PARK_OPS' })).toEqual({
      elsewhere: 'ENT_WORKBENCH',
    });
    expect(resolvePage('/workStand/', [], { ...ctx, jzh: true, appCode: null })).toEqual({
      elsewhere: 'ENT_WORKBENCH',
    });
    // Outside the JZH layout there is no workbench at all.
    expect(resolvePage('/workStand', [], { ...ctx, appCode: 'PARK_OPS' })).toBeNull();
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

  it("frames a detail address only at an origin on the tenant's allow-list, or the portal's own", () => {
    const q = (url: string) => `?url=${encodeURIComponent(url)}`;
    expect(detailUrl(q('https://c.example/order/7'), ctx)).toEqual({ url: 'https://c.example/order/7', refused: null });
    expect(detailUrl(q('https://p.example/policy?id=2'), ctx).url).toBe('https://p.example/policy?id=2');
    expect(detailUrl(q('https://portal.example/center/x'), ctx).url).toBe('https://portal.example/center/x');
    // Look-alikes, credentials, another scheme or port: refused, with the origin that was asked for.
    expect(detailUrl(q('https://c.example.evil/'), ctx)).toEqual({ url: null, refused: 'https://c.example.evil' });
    expect(detailUrl(q('https://c.example@evil.example/'), ctx).refused).toBe('https://evil.example');
    expect(detailUrl(q('http://c.example/'), ctx).refused).toBe('http://c.example');
    expect(detailUrl(q('https://c.example:8443/'), ctx).refused).toBe('https://c.example:8443');
    // No http(s) address at all: nothing to frame, nothing to name.
    expect(detailUrl(q('javascript:alert(1)'), ctx)).toEqual({ url: null, refused: null });
    expect(detailUrl('', ctx)).toEqual({ url: null, refused: null });
    // Without registered applications only the portal's own pages may be framed.
    expect(detailUrl(q('https://c.example/order/7'), { ...ctx, microApps: [] }).refused).toBe('https://c.example');
  });

  it("refuses a menu entry's frame whose origin the tenant did not register", () => {
    const off = [item('off', 'off', {}, { serviceType: 1, url: 'https://unregistered.example/x' })];
    const r = resolvePage('/IframePageContent/off', off, ctx);
    expect(r && 'page' in r ? r.page : null).toMatchObject({
      kind: 'iframe',
      url: null,
      refused: 'https://unregistered.example',
    });
  });

  it("resolves a sub-application's menu pages and its pages outside the menu, for users of the app", () => {
    expect(page('/park-services/repair')).toMatchObject({
      kind: 'micro',
      key: 'repair',
      title: 'T-repair',
      sub: { code: 'park-services', entry: '/micro/park-services/', name: '园区服务', route: '/repair' },
    });
    // A page the app opens itself: keyed by its address, titled by the app until a title is given.
    expect(page('/park-services/repair/12')).toMatchObject({
      kind: 'micro',
      key: '/park-services/repair/12',
      title: '园区服务',
      sub: { code: 'park-services', route: '/repair/12' },
    });
    // An app the user's menu has no page of, an unregistered code, a framed service's code: none.
    expect(page('/crm/customers')).toBeNull();
    expect(page('/nosuch/x')).toBeNull();
    expect(page('/orders/x')).toBeNull();
    // Without the app registered its menu entry is an ordinary page.
    expect(page('/park-services/repair', { ...ctx, microApps: [] })).toMatchObject({ kind: 'view', sub: null });
  });

  it('keeps frames alive whatever the keep-alive switch says, and carries a given title', () => {
    const frame = page('/IframePageContent/cloudOrders')!;
    expect(tabOf(frame, '/IframePageContent/cloudOrders', '', false).keepAlive).toBe(true);
    expect(tabOf(page('/a/b/c/d')!, '/a/b/c/d', '', false).keepAlive).toBe(false);
    const deep = page('/park-services/repair/12')!;
    expect(tabOf(deep, '/park-services/repair/12', '', true, '报修单 #12')).toMatchObject({ given: '报修单 #12' });
  });

  it('finds nothing for unknown paths', () => {
    expect(resolvePage('/nowhere', menu, ctx)).toBeNull();
    expect(resolvePage('/IframePageContent', menu, ctx)).toBeNull();
  });
});
