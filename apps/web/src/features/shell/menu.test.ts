import type { MenuItem } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import {
  findByPath,
  isPermitted,
  leafItems,
  menuPath,
  openKeysFor,
  pathContaining,
  resolveUrl,
  visibleItems,
} from './menu';

const item = (
  id: string,
  path: string,
  extra: Partial<MenuItem> = {},
  meta: Partial<MenuItem['meta']> = {},
): MenuItem => ({
  id,
  path,
  name: id,
  hidden: false,
  parentId: null,
  component: '',
  route: '1',
  meta: { title: id, ...meta },
  ...extra,
});

const tree: MenuItem[] = [
  item('ent', '/ent', {
    children: [
      item('manage', '/ent/manage', {
        children: [
          item('members', '/ent/members', { children: [item('list', '/ent/members/list')] }),
          item('detail', '/ent/detail', { hidden: true }),
        ],
      }),
      item('draft', '/ent/draft', { route: '0' }),
    ],
  }),
  item('orders', 'cloudOrders', {}, { serviceType: 1 }),
  item('mod', 'colist', {}, { module: 'ent' }),
];

describe('menu rules', () => {
  it('prefixes paths with the module or IframePageContent (service type 1)', () => {
    expect(menuPath(tree[1]!)).toBe('/IframePageContent/cloudOrders');
    expect(menuPath(tree[2]!)).toBe('/ent/colist');
    expect(menuPath(item('x', 'plain'))).toBe('/plain');
  });

  it('skips route "0" entries everywhere and hides hidden ones from the menu only', () => {
    expect(JSON.stringify(visibleItems(tree))).not.toContain('"draft"');
    expect(JSON.stringify(visibleItems(tree))).not.toContain('"detail"');
    expect(isPermitted(tree, '/ent/detail')).toBe(true);
    expect(isPermitted(tree, '/ent/draft')).toBe(false);
  });

  it('finds an entry four levels deep with its trail and the submenus to open', () => {
    const found = findByPath(tree, '/ent/members/list');
    expect(found?.trail.map((i) => i.id)).toEqual(['ent', 'manage', 'members', 'list']);
    expect(openKeysFor(tree, '/ent/members/list')).toEqual(['ent', 'manage', 'members']);
    expect(isPermitted(tree, '/ent/members/list?x=1')).toBe(true);
    expect(isPermitted(tree, '/nowhere')).toBe(false);
  });

  it('finds the enterprise information entry by a fragment of its (prefixed) path, not a skipped one', () => {
    expect(pathContaining(tree, 'ent/colist')).toBe('/ent/colist');
    expect(pathContaining(tree, 'members/list')).toBe('/ent/members/list');
    expect(pathContaining(tree, 'ent/draft')).toBeNull();
    expect(pathContaining([], 'ent/colist')).toBeNull();
  });

  it('lists leaf pages in order', () => {
    expect(leafItems(tree).map((i) => i.id)).toEqual(['list', 'orders', 'mod']);
  });

  it('substitutes the workbench code into external URLs', () => {
    expect(resolveUrl('https://x.test/a?wb={workbenchCoding}', 'WB 1')).toBe('https://x.test/a?wb=WB%201');
    expect(resolveUrl('https://x.test/{workbenchCoding}', null)).toBe('https://x.test/');
  });
});
