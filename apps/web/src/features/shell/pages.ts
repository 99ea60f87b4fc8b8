/**
 * Which page an address inside the layout shows (docs/product/screens.md#fixed-routes): the fixed
 * routes, then the routed entries of the user's menu. Pure, so every rule is tested on its own;
 * the tab strip and the content area both read it.
 */
import type { MenuItem, MicroApp } from '@portal/contracts';
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
  /**
   * A page of a sub-application (docs/product/overview.md#who): its menu entries carry the app's code as their module;
   * the micro-app layer shows it and keeps the app alive while any of its tabs is open.
   */
  | 'micro'
  /** /workStand: my workbench (JZH theme with the ENT_WORKBENCH application). */
  | 'workbench'
  /** /account/security: 账户安全, the person's sign-ins, history and factors (every signed-in person). */
  | 'security';

export interface Page {
  kind: PageKind;
  /** The tab's identity: the entry's name, else the fixed route's name. */
  key: string;
  title: string | null;
  titleKey: string | null;
  keepAlive: boolean;
  item: MenuItem | null;
  /** The frame's or window's address, workbench code substituted; null when it may not be framed. */
  url: string | null;
  /** A frame's origin that is not on the tenant's allow-list (its registered origins), refused. */
  refused: string | null;
  /** A sub-application's page: the app, and the route inside it. */
  sub: SubPage | null;
}

export interface SubPage {
  code: string;
  entry: string;
  name: string;
  /** The route inside the sub-application: the page's path after `/{code}`. */
  route: string;
}

/**
 * The page at an address, a redirect, or `elsewhere`: a page of another application than the
 * current one (its code), which the shell names and offers to switch to instead of a bare 404.
 */
export type Resolved = { page: Page } | { redirect: string } | { elsewhere: string } | null;

export interface PageContext {
  /** The layout is the JZH flyout one. */
  jzh: boolean;
  /** The current application's code (stored, else the user's default). */
  appCode: string | null;
  workbenchCode: string | null;
  /** The tenant's registered applications: sub-applications (type 0) and framed services (type 1). */
  microApps: readonly MicroApp[];
  /** The portal's own origin: its own pages may be framed as well. */
  origin: string;
}

export const WORKBENCH_APP = 'ENT_WORKBENCH';

/** 账户安全: a fixed page of every signed-in person, opened from the user drop-down. */
export const ACCOUNT_SECURITY_PATH = '/account/security';

/** Where an address the user may not open goes (docs/product/screens.md#open-routes); signed in, it is shown inside the shell. */
export const NOT_FOUND_PATH = '/404';

/** The detail tabs of docs/product/screens.md#fixed-routes, each reachable under its own path and under /IframePageContent. */
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
  refused: null,
  sub: null,
});

/** The registered sub-application with this code, if any. */
const subApp = (code: string, ctx: PageContext) =>
  ctx.microApps.find((a) => a.serviceType === 0 && a.code === code) ?? null;

/** The origins the tenant registered (its allow-list of frames), and the portal's own. */
function allowedOrigins(ctx: PageContext): Set<string> {
  const origins = new Set([ctx.origin]);
  for (const a of ctx.microApps) {
    const href = httpUrl(a.entry);
    if (href) origins.add(new URL(href).origin);
  }
  return origins;
}

/** A frame's address as the allow-list has it: framed, or refused with its origin; null when no http(s) address. */
function framed(raw: string | null, ctx: PageContext): Pick<Page, 'url' | 'refused'> {
  const href = httpUrl(raw);
  if (!href) return { url: null, refused: null };
  const { origin } = new URL(href);
  return allowedOrigins(ctx).has(origin) ? { url: href, refused: null } : { url: null, refused: origin };
}

/** Whether the menu has a page of the sub-application `code` (the user may use the app). */
function usesModule(items: MenuItem[], code: string): boolean {
  return routedItems(items).some((i) => i.meta.module === code || usesModule(i.children ?? [], code));
}

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
  const app = item.meta.module ? subApp(item.meta.module, ctx) : null;
  const kind: PageKind = item.meta.internalOrExternal
    ? 'external'
    : app
      ? 'micro'
      : item.meta.serviceType === 1 || (url && item.component !== 'DragPageView')
        ? 'iframe'
        : item.component === 'DragPageView'
          ? 'drag'
          : 'view';
  const path = menuPath(item);
  return {
    kind,
    key: item.name || path,
    title: item.meta.title,
    titleKey: null,
    keepAlive: item.meta.keepAlive === true,
    item,
    ...(kind === 'iframe' ? framed(url, ctx) : { url: kind === 'external' ? httpUrl(url) : null, refused: null }),
    sub: app ? { code: app.code, entry: app.entry, name: app.name, route: routeIn(app.code, path) } : null,
  };
}

/** The route inside sub-application `code` that a portal path shows. */
const routeIn = (code: string, path: string) => (path.startsWith(`/${code}/`) ? path.slice(code.length + 1) : path);

/**
 * A sub-application's page outside the menu (`/park-services/repair/12`, opened by the app through
 * the host): for users whose menu has a page of that app. Its tab is named by its address, and
 * titled by the app until the navigation that opened it gives a title.
 */
function deepSubPage(path: string, menu: MenuItem[], ctx: PageContext): Page | null {
  const m = /^\/([a-z][a-z0-9-]{1,39})(\/.+)$/.exec(path);
  const app = m ? subApp(m[1]!, ctx) : null;
  if (!app || !usesModule(menu, app.code)) return null;
  return {
    kind: 'micro',
    key: path,
    title: app.name,
    titleKey: null,
    keepAlive: true,
    item: null,
    url: null,
    refused: null,
    sub: { code: app.code, entry: app.entry, name: app.name, route: m![2]! },
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
  if (clean === ACCOUNT_SECURITY_PATH) return { page: fixed('security', '#accountSecurity', 'shell.accountSecurity') };
  if (clean === '/workStand') {
    if (!ctx.jzh) return null;
    return ctx.appCode === WORKBENCH_APP
      ? { page: fixed('workbench', '#workStand', 'shell.workbench') }
      : { elsewhere: WORKBENCH_APP };
  }
  const detail = detailName(path);
  if (detail) return { page: fixed('detail', `#${detail}`, DETAILS[detail]!) };

  const found = findByPath(menu, clean);
  if (!found) {
    const deep = deepSubPage(clean, menu, ctx);
    return deep ? { page: deep } : null;
  }
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
 * origin on the tenant's allow-list (its registered applications), so a link cannot dress a
 * foreign page in the portal's frame.
 */
export function detailUrl(search: string, ctx: PageContext): Pick<Page, 'url' | 'refused'> {
  return framed(new URLSearchParams(search).get('url'), ctx);
}

/**
 * The tab a page opens (visit action), for the address it was opened at, with the title the
 * navigation gave it. Frames are kept while their tab is open whatever the keep-alive switch says
 * (like sub-applications, whose layer keeps them): a reload of an embedded system loses its work.
 */
export function tabOf(
  page: Page,
  path: string,
  search: string,
  keepAliveOn: boolean,
  given?: string,
): Omit<Tab, 'version'> {
  const frame = page.kind === 'iframe' || page.kind === 'detail';
  return {
    key: page.key,
    path,
    search,
    title: page.title,
    titleKey: page.titleKey,
    ...(given ? { given } : {}),
    keepAlive: frame || (keepAliveOn && page.keepAlive),
  };
}
