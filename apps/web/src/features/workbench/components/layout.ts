/** My workbench's arrangement: the default, and a saved one made whole. Pure. */
import { WORKBENCH_WIDGETS, type WorkbenchLayout, type WorkbenchWidget } from '@portal/contracts';

export type Item = WorkbenchLayout['items'][number];

/** Where each widget goes on a first visit, on 12 columns. */
export const DEFAULT_ITEMS: Item[] = [
  { i: 'shortcuts', x: 0, y: 0, w: 8, h: 5 },
  { i: 'recent', x: 8, y: 0, w: 4, h: 5 },
  { i: 'notices', x: 0, y: 5, w: 6, h: 6 },
  { i: 'alerts', x: 6, y: 5, w: 6, h: 6 },
  { i: 'enterprises', x: 0, y: 11, w: 12, h: 5 },
];

export const DEFAULT_LAYOUT: WorkbenchLayout = { items: DEFAULT_ITEMS, shortcuts: [] };

/** The widgets a layout leaves out (the user hid them), in the default order. */
export const hidden = (items: readonly Item[]): WorkbenchWidget[] =>
  WORKBENCH_WIDGETS.filter((w) => !items.some((i) => i.i === w));

/** Adds a hidden widget back, below the others, at its default size. */
export function show(items: readonly Item[], widget: WorkbenchWidget): Item[] {
  const size = DEFAULT_ITEMS.find((i) => i.i === widget)!;
  const bottom = Math.max(0, ...items.map((i) => i.y + i.h));
  return [...items, { ...size, x: 0, y: bottom }];
}

/** The grid's arrangement as a layout's items (whole grid units, inside the schema's bounds). */
export function itemsOf(grid: readonly { i: string; x: number; y: number; w: number; h: number }[]): Item[] {
  return grid
    .filter((g): g is Item => (WORKBENCH_WIDGETS as readonly string[]).includes(g.i))
    .map(({ i, x, y, w, h }) => ({
      i,
      x: Math.min(Math.max(0, x), 11),
      y: Math.min(Math.max(0, y), 200),
      w: Math.min(Math.max(1, w), 12),
      h: Math.min(Math.max(1, h), 30),
    }));
}
