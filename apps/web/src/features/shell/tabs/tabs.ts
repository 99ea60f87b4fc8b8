/**
 * The tab strip's state (docs/product/screens.md#menu-and-tabs): pure, so every rule is tested on its own. The
 * first tab is home, always there and never closed; each visited route adds one tab per name
 * (a route visited again updates its tab); closing the active tab moves to the tab that takes its
 * place, or to the last one when it was last.
 */

export interface Tab {
  /** Identity: the menu entry's name, else the path (no duplicates by name). */
  key: string;
  /** Path without query, inside the app (no base). */
  path: string;
  /** Query string of the last visit, with its `?`, or empty. */
  search: string;
  /** The menu entry's title, or null when `titleKey` names a fixed one. */
  title: string | null;
  /** Translation key of a fixed title (home, the iframe detail pages, the workbench). */
  titleKey: string | null;
  /**
   * The title the tab was opened with, shown instead of the page's own: a sub-application's page
   * outside the menu (`报修单 #12`), named by the navigation that opened it. Kept across visits.
   */
  given?: string;
  /** The entry asks to keep its page while hidden (meta keep-alive). */
  keepAlive: boolean;
  /** Raised by refresh: the page is built anew. */
  version: number;
}

export interface TabsState {
  tabs: Tab[];
  active: string;
}

/** Fixed routes' keys start with '#', so no menu entry's name can take their tab. */
export const HOME_KEY = '#home';
export const HOME_PATH = '/index';

export const HOME_TAB: Tab = {
  key: HOME_KEY,
  path: HOME_PATH,
  search: '',
  title: null,
  titleKey: 'shell.home',
  keepAlive: false,
  version: 0,
};

export const initialTabs = (): TabsState => ({ tabs: [HOME_TAB], active: HOME_KEY });

export type TabsAction =
  | { type: 'visit'; tab: Omit<Tab, 'version'> }
  | { type: 'close'; key: string }
  | { type: 'closeOthers'; key: string }
  | { type: 'closeLeft'; key: string }
  | { type: 'closeRight'; key: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; key: string };

/** Keeps the tabs `keep` says, home always; the active tab, if gone, becomes `fallback`. */
function keepOnly(state: TabsState, keep: (t: Tab, i: number) => boolean, fallback: string): TabsState {
  const tabs = state.tabs.filter((t, i) => t.key === HOME_KEY || keep(t, i));
  const active = tabs.some((t) => t.key === state.active) ? state.active : fallback;
  return { tabs, active };
}

export function tabsReducer(state: TabsState, action: TabsAction): TabsState {
  switch (action.type) {
    case 'visit': {
      const at = state.tabs.findIndex((t) => t.key === action.tab.key);
      if (at === -1) return { tabs: [...state.tabs, { ...action.tab, version: 0 }], active: action.tab.key };
      const old = state.tabs[at]!;
      const given = action.tab.given ?? old.given;
      const same =
        old.path === action.tab.path &&
        old.search === action.tab.search &&
        old.title === action.tab.title &&
        old.given === given &&
        old.keepAlive === action.tab.keepAlive;
      if (same && state.active === old.key) return state;
      const tabs = same
        ? state.tabs
        : state.tabs.map((t, i) =>
            i === at ? { ...action.tab, ...(given === undefined ? {} : { given }), version: t.version } : t,
          );
      return { tabs, active: old.key };
    }
    case 'close': {
      const at = state.tabs.findIndex((t) => t.key === action.key);
      if (at <= 0) return state; // unknown, or home
      const tabs = state.tabs.filter((_, i) => i !== at);
      if (state.active !== action.key) return { ...state, tabs };
      // The tab now at the closed one's place, or the last when the closed one was last.
      return { tabs, active: tabs[Math.min(at, tabs.length - 1)]!.key };
    }
    case 'closeOthers':
      return keepOnly(state, (t) => t.key === action.key, action.key);
    case 'closeLeft': {
      const at = state.tabs.findIndex((t) => t.key === action.key);
      return at === -1 ? state : keepOnly(state, (_, i) => i >= at, action.key);
    }
    case 'closeRight': {
      const at = state.tabs.findIndex((t) => t.key === action.key);
      return at === -1 ? state : keepOnly(state, (_, i) => i <= at, action.key);
    }
    case 'closeAll':
      return keepOnly(state, () => false, HOME_KEY);
    case 'refresh':
      return {
        ...state,
        tabs: state.tabs.map((t) => (t.key === action.key ? { ...t, version: t.version + 1 } : t)),
      };
  }
}

/** What a tab is called: the title it was given, its page's title, or its fixed title's key through `t`. */
export const tabTitle = (tab: Tab, t: (key: string) => string): string =>
  tab.given ?? tab.title ?? (tab.titleKey ? t(tab.titleKey) : tab.path);

/** The address a tab opens. */
export const tabHref = (t: Pick<Tab, 'path' | 'search'>) => `${t.path}${t.search}`;

/**
 * Which tabs keep their page: the active one, and the most recently used hidden ones that ask to
 * be kept, at most `max` of them. `recent` lists tab keys, most recently active last.
 */
export function aliveKeys(state: TabsState, recent: readonly string[], max: number): Set<string> {
  const open = new Map(state.tabs.map((t) => [t.key, t]));
  const alive = new Set([state.active]);
  let hidden = 0;
  for (let i = recent.length - 1; i >= 0 && hidden < max; i--) {
    const key = recent[i]!;
    if (alive.has(key) || !open.get(key)?.keepAlive) continue;
    alive.add(key);
    hidden++;
  }
  return alive;
}

/** `recent` after `key` became active (moved to the end), without closed tabs. */
export function touch(recent: readonly string[], key: string, state: TabsState): string[] {
  const open = new Set(state.tabs.map((t) => t.key));
  return [...recent.filter((k) => k !== key && open.has(k)), key];
}

/** A stored state, if it is one: what a reload restores (anything else starts afresh). */
export function parseStored(value: unknown): TabsState | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as { tabs?: unknown; active?: unknown };
  if (!Array.isArray(v.tabs) || typeof v.active !== 'string') return null;
  const tabs: Tab[] = [];
  for (const t of v.tabs as Partial<Tab>[]) {
    if (
      !t ||
      typeof t.key !== 'string' ||
      typeof t.path !== 'string' ||
      !t.path.startsWith('/') ||
      typeof t.search !== 'string' ||
      (t.search !== '' && !t.search.startsWith('?'))
    )
      return null;
    tabs.push({
      key: t.key,
      path: t.path,
      search: t.search,
      title: typeof t.title === 'string' ? t.title : null,
      titleKey: typeof t.titleKey === 'string' ? t.titleKey : null,
      ...(typeof t.given === 'string' ? { given: t.given.slice(0, 100) } : {}),
      keepAlive: t.keepAlive === true,
      version: 0,
    });
  }
  if (tabs[0]?.key !== HOME_KEY || new Set(tabs.map((t) => t.key)).size !== tabs.length) return null;
  return { tabs, active: tabs.some((t) => t.key === v.active) ? v.active : HOME_KEY };
}
