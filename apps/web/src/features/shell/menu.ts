/**
 * Pure rules over the server's menu tree (docs/product/screens.md#menu-and-tabs, docs/product/data.md#menu). The shell
 * grows these into full dynamic routes; the rules stay here, tested on their own.
 */
import type { MenuItem } from '@portal/contracts';

/** The empty menu, one instance: store selectors must not return a new array on every call. */
export const NO_ITEMS: MenuItem[] = [];

/** A path is prefixed with its module, or with IframePageContent for service type 1 (docs/product/screens.md#menu-routes). */
export function menuPath(item: MenuItem): string {
  const raw = item.path.trim();
  if (item.meta.serviceType === 1) return `/IframePageContent/${raw.replace(/^\/+/, '')}`;
  if (item.meta.module && !raw.startsWith('/')) return `/${item.meta.module}/${raw}`;
  return raw.startsWith('/') ? raw : `/${raw}`;
}

/** Entries whose route is "0" are skipped entirely (docs/product/screens.md#menu-routes). */
export function routedItems(items: MenuItem[]): MenuItem[] {
  return items
    .filter((i) => i.route !== '0')
    .map((i) => (i.children ? { ...i, children: routedItems(i.children) } : i));
}

/** What the side menu shows: routed entries that are not hidden. */
export function visibleItems(items: MenuItem[]): MenuItem[] {
  return routedItems(items)
    .filter((i) => !i.hidden)
    .map((i) => (i.children ? { ...i, children: visibleItems(i.children) } : i));
}

export function findByPath(items: MenuItem[], path: string): { item: MenuItem; trail: MenuItem[] } | null {
  for (const item of routedItems(items)) {
    if (menuPath(item) === path) return { item, trail: [item] };
    if (item.children) {
      const found = findByPath(item.children, path);
      if (found) return { item: found.item, trail: [item, ...found.trail] };
    }
  }
  return null;
}

/** True when `path` (without query) is a routed entry of the user's menu. */
export function isPermitted(items: MenuItem[], path: string): boolean {
  return findByPath(items, path.split('?')[0] ?? path) !== null;
}

/** External URLs may carry a {workbenchCoding} placeholder for the current workbench (docs/product/screens.md#menu-routes). */
export function resolveUrl(url: string, workbenchCode: string | null): string {
  return url.replaceAll('{workbenchCoding}', encodeURIComponent(workbenchCode ?? ''));
}

/** Leaf entries (pages), in menu order; used for the home page's shortcuts. */
export function leafItems(items: MenuItem[]): MenuItem[] {
  return visibleItems(items).flatMap((i) => (i.children && i.children.length > 0 ? leafItems(i.children) : [i]));
}

/** Keys of the submenus that contain `path`, root first: the side menu opens exactly these. */
export function openKeysFor(items: MenuItem[], path: string): string[] {
  const found = findByPath(items, path);
  return found ? found.trail.slice(0, -1).map((i) => i.id) : [];
}

/** The path of the first routed entry whose path contains `fragment` (e.g. ent/colist), or null. */
export function pathContaining(items: MenuItem[], fragment: string): string | null {
  for (const item of routedItems(items)) {
    const path = menuPath(item);
    if (path.includes(fragment)) return path;
    const inside = item.children ? pathContaining(item.children, fragment) : null;
    if (inside) return inside;
  }
  return null;
}
