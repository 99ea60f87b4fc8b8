import { WorkbenchLayout } from '@portal/contracts';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAYOUT,
  hidden,
  itemsOf,
  pickShortcuts,
  resetLayout,
  shortcutMatches,
  show,
  shownShortcuts,
} from './layout';

describe('the workbench layout', () => {
  it('starts with every widget, in a layout the server accepts', () => {
    expect(Value.Check(WorkbenchLayout, DEFAULT_LAYOUT)).toBe(true);
    expect(hidden(DEFAULT_LAYOUT.items)).toEqual([]);
  });

  it('hides and shows a widget again below the others', () => {
    const items = DEFAULT_LAYOUT.items.filter((i) => i.i !== 'notices');
    expect(hidden(items)).toEqual(['notices']);
    expect(show(items, 'notices').at(-1)).toEqual({ i: 'notices', x: 0, y: 16, w: 6, h: 6 });
  });

  it("keeps the grid's widgets in bounds and drops anything else", () => {
    expect(
      itemsOf([
        { i: 'recent', x: -1, y: 3, w: 14, h: 40 },
        { i: '__dropping__', x: 0, y: 0, w: 1, h: 1 },
      ]),
    ).toEqual([{ i: 'recent', x: 0, y: 3, w: 12, h: 30 }]);
  });
});

describe('the shortcut picker', () => {
  const pages = Array.from({ length: 10 }, (_, n) => ({ path: `/p${n}`, title: `页面${n}` }));
  pages[9] = { path: '/park-services/repair', title: '物业报修' };
  const first8 = pages.slice(0, 8).map((p) => p.path);

  it('starts with the shortcuts shown: the menu’s first eight until the user picks', () => {
    expect(shownShortcuts(DEFAULT_LAYOUT, pages)).toEqual(first8);
    expect(shownShortcuts({ ...DEFAULT_LAYOUT, shortcuts: ['/p8', '/gone'] }, pages)).toEqual(['/p8']);
  });

  it('adds a pick to the eight shown, not in their place', () => {
    const picked = pickShortcuts(DEFAULT_LAYOUT, pages, [
      ...shownShortcuts(DEFAULT_LAYOUT, pages),
      '/park-services/repair',
    ]);
    expect(picked.shortcuts).toEqual([...first8, '/park-services/repair']);
  });

  it("keeps another application's pins after the picks", () => {
    const layout = { ...DEFAULT_LAYOUT, shortcuts: ['/p1', '/other-app/page'] };
    expect(pickShortcuts(layout, pages, ['/p2']).shortcuts).toEqual(['/p2', '/other-app/page']);
  });

  it('finds a page by its name as well as by its address', () => {
    const repair = pages[9];
    expect(shortcutMatches('报修', repair)).toBe(true);
    expect(shortcutMatches('REPAIR', repair)).toBe(true);
    expect(shortcutMatches('会议', repair)).toBe(false);
    expect(shortcutMatches('', repair)).toBe(true);
    expect(shortcutMatches('报修', undefined)).toBe(false);
  });

  it('恢复默认 puts back the widgets and the first eight shortcuts', () => {
    const arranged = {
      items: DEFAULT_LAYOUT.items.filter((i) => i.i !== 'alerts').map((i) => ({ ...i, x: 0 })),
      shortcuts: ['/p8', '/p3', '/other-app/page'],
    };
    const reset = resetLayout(arranged, pages);
    expect(reset.items).toEqual(DEFAULT_LAYOUT.items);
    expect(shownShortcuts(reset, pages)).toEqual(first8);
    expect(reset.shortcuts).toEqual(['/other-app/page']);
  });
});
