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

/** Shortcuts shown before the user picks their own: the menu's first pages. */
export const FIRST_SHORTCUTS = 8;
/** Shortcuts a layout keeps at most (the schema's bound). */
export const MAX_SHORTCUTS = 24;

/** A page of the menu the workbench may link to. */
export interface ShortcutPage {
  path: string;
  title: string;
}

/** The layout's pins this menu offers (a page the menu no longer has is not a shortcut any more). */
const pinnedHere = (layout: WorkbenchLayout, pages: readonly ShortcutPage[]) =>
  layout.shortcuts.filter((p) => pages.some((l) => l.path === p));

/**
 * The shortcuts shown, and the picker's starting choice: the user's pins this menu offers, else the
 * menu's first pages.
 */
export function shownShortcuts(layout: WorkbenchLayout, pages: readonly ShortcutPage[]): string[] {
  const pinned = pinnedHere(layout, pages);
  return pinned.length > 0 ? pinned : pages.slice(0, FIRST_SHORTCUTS).map((l) => l.path);
}

/**
 * The layout with `paths` picked (the picker's whole choice, in order): pins of another
 * application's menu, which this picker does not offer, stay pinned after them.
 */
export function pickShortcuts(
  layout: WorkbenchLayout,
  pages: readonly ShortcutPage[],
  paths: string[],
): WorkbenchLayout {
  const elsewhere = layout.shortcuts.filter((p) => !pages.some((l) => l.path === p));
  return { ...layout, shortcuts: [...paths, ...elsewhere].slice(0, MAX_SHORTCUTS) };
}

/** 恢复默认: every widget where it starts, and the menu's first pages as shortcuts (other menus' pins kept). */
export function resetLayout(layout: WorkbenchLayout, pages: readonly ShortcutPage[]): WorkbenchLayout {
  return pickShortcuts({ ...DEFAULT_LAYOUT, shortcuts: layout.shortcuts }, pages, []);
}

/** Whether a page matches what the user typed in the picker: its title or its address, any case. */
export function shortcutMatches(input: string, page: ShortcutPage | undefined): boolean {
  if (!page) return false;
  const q = input.trim().toLowerCase();
  return q === '' || page.title.toLowerCase().includes(q) || page.path.toLowerCase().includes(q);
}
