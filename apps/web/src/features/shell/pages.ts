/**
 * Which page an address inside the layout shows (spec §2 other paths, menu and tabs): the fixed
 * routes, then the routed entries of the user's menu. Pure, so every rule is tested on its own;
 * the tab strip and the content area both read it.
 */
import type { MenuItem } from '@portal/contracts';
import { findByPath, menuPath, resolveUrl, routedItems } from './menu';
import { HOME_KEY, HOME_PATH, type Tab } from './tabs/tabs';
import { safeRedirect } from '../../lib/address';

export type PageKind =
  /** The index page. */
  | 'home'
  /** A plain view: the business page its component names (a placeholder until that feature exists). */
  | 'view'
  /** A page built with the drag-page builder: its definition (meta.pageId) rendered. */
  | 'drag'
  /** An external service embedded in a frame (service type 1, or an entry with a url). */
  | 'iframe'
  /** An entry flagged internalOrExternal: it opens in a new window; its address only offers that. */
  | 'external'
  /** The cloud-order and supplied-product detail tabs: a frame of an address given in the query. */
  | 'detail'
  /** /workStand: my workbench (JZH theme with the ENT_WORKBENCH application). */
  | 'workbench';

export interface Page {
  kind: PageKind;
  /** The tab's identity: the entry's name, else the fixed route's name. */
  key: string;
  title: string | null;
  titleKey: string | null;
  keepAlive: boolean;
  item: MenuItem | null;
  /** The frame's or window's address, workbench code substituted. */
  url: string | null;
}

export type Resolved = { page: Page } | { redirect: string } | null;

export interface PageContext {
  /** The layout is the JZH flyout one. */
  jzh: boolean;
  /** The current application's code (stored, else the user's default). */
  appCode: string | null;
  workbenchCode: string | null;
}

export const WORKBENCH_APP = 'ENT_WORKBENCH';

/** Where an address the user may not open goes (spec §2); signed in, it is shown inside the shell. */
export const NOT_FOUND_PATH = '/404';

/** The detail tabs of §2, each reachable under its own path and under /IframePageContent. */
const DETAILS: Record<string, string> = {
  CloudInsideIframePage: 'shell.cloudOrderDetail',
  ProductInsideIframePage: 'shell.productDetail',
};

const fixed = (kind: PageKind, key: string, titleKey: string): Page => ({
  kind,
  key,
  title: null,
  titleKey,
  keepAlive: kind === 'detail',
  item: null,
  url: null,
});

function detailName(path: string): string | null {
  const m = /^\/(?:IframePageContent\/)?(CloudInsideIframePage|ProductInsideIframePage)\/?$/.exec(path);
  return m ? m[1]! : null;
}

/** The first routed page below a directory entry, depth first. */
function firstPage(item: MenuItem): MenuItem | null {
  for (const child of routedItems(item.children ?? [])) {
    if (child.hidden || child.meta.internalOrExternal) continue;
    if (child.children?.length) {
      const found = firstPage(child);
      if (found) return found;
    } else return child;
  }
  return null;
}

/** An absolute http(s) address, or null: menus and links never get to run `javascript:` or `data:`. */
export function httpUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function pageOf(item: MenuItem, ctx: PageContext): Page {
  const url = item.meta.url ? resolveUrl(item.meta.url, ctx.workbenchCode) : null;
  const kind: PageKind = item.meta.internalOrExternal
    ? 'external'
    : item.meta.serviceType === 1 || (url && item.component !== 'DragPageView')
      ? 'iframe'
      : item.component === 'DragPageView'
        ? 'drag'
        : 'view';
  return {
    kind,
    key: item.name || menuPath(item),
    title: item.meta.title,
    titleKey: null,
    keepAlive: item.meta.keepAlive === true,
    item,
    url: kind === 'iframe' || kind === 'external' ? httpUrl(url) : null,
  };
}

/**
 * The page at `path` (no query, no base), a redirect (a directory goes to its own redirect or its
 * first page; the target is followed until it is a page, so redirects cannot loop), or null for
 * an address the user may not open (shown as /404).
 */
export function resolvePage(path: string, menu: MenuItem[], ctx: PageContext, hops = 0): Resolved {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (clean === HOME_PATH) return { page: fixed('home', HOME_KEY, 'shell.home') };
  if (clean === '/home') return { redirect: HOME_PATH };
  if (clean === '/workStand') {
    return ctx.jzh && ctx.appCode === WORKBENCH_APP
      ? { page: fixed('workbench', '#workStand', 'shell.workbench') }
      : null;
  }
  const detail = detailName(path);
  if (detail) return { page: fixed('detail', `#${detail}`, DETAILS[detail]!) };

  const found = findByPath(menu, clean);
  if (!found) return null;
  const { item } = found;
  if (item.component === 'RouteView' || (item.children?.length ?? 0) > 0) {
    const first = firstPage(item);
    for (const candidate of [item.redirect, first ? menuPath(first) : null]) {
      const to = safeRedirect(candidate);
      if (!to || hops >= 4) continue;
      const target = to.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
      if (target === clean) continue;
      const next = resolvePage(target, menu, ctx, hops + 1);
      if (next && 'page' in next) return { redirect: to };
      if (next) return next;
    }
    return null;
  }
  return { page: pageOf(item, ctx) };
}

/**
 * The address a detail tab may frame (its `url` query parameter): http(s) only, and only at an
 * origin one of the user's embedded menu entries already uses, so a link cannot dress a foreign
 * page in the portal's frame.
 */
export function detailUrl(search: string, menu: MenuItem[]): string | null {
  const href = httpUrl(new URLSearchParams(search).get('url'));
  if (!href) return null;
  const origins = new Set<string>();
  const collect = (items: MenuItem[]) => {
    for (const i of items) {
      const own = i.meta.internalOrExternal ? null : httpUrl(i.meta.url?.replaceAll('{workbenchCoding}', ''));
      if (own) origins.add(new URL(own).origin);
      if (i.children) collect(i.children);
    }
  };
  collect(routedItems(menu));
  return origins.has(new URL(href).origin) ? href : null;
}

/** The tab a page opens (visit action), for the address it was opened at. */
export function tabOf(page: Page, path: string, search: string, keepAliveOn: boolean): Omit<Tab, 'version'> {
  return {
    key: page.key,
    path,
    search,
    title: page.title,
    titleKey: page.titleKey,
    keepAlive: keepAliveOn && page.keepAlive,
  };
}
