import { WorkbenchLayout } from '@portal/contracts';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, hidden, itemsOf, show } from './layout';

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
