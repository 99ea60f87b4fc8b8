import type { MenuItem } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { resolvePage, tabOf, type PageContext } from './pages';

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
    expect(page('/index')).toMatchObject({ kind: 'home', key: 'home', titleKey: 'shell.home' });
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
        key: 'CloudInsideIframePage',
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

  it('finds nothing for unknown paths', () => {
    expect(resolvePage('/nowhere', menu, ctx)).toBeNull();
    expect(resolvePage('/IframePageContent', menu, ctx)).toBeNull();
  });
});
