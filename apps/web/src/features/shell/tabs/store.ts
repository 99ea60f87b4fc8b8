/**
 * The open tabs of the signed-in user, shared by the strip and the content area, kept in local
 * storage for their owner (tenant and user) so a reload restores them. Logout clears every stored
 * key; an enterprise switch calls `clearTabs`.
 */
import { create } from 'zustand';
import { storage } from '../../../lib/storage';
import {
  HOME_KEY,
  HOME_TAB,
  initialTabs,
  parseStored,
  tabsReducer,
  touch,
  type Tab,
  type TabsAction,
  type TabsState,
} from './tabs';

interface TabsStore {
  state: TabsState;
  /** Tab keys, most recently active last: which hidden pages keep-alive keeps. */
  recent: string[];
  /** `tenantCode:userId` whose tabs these are; null until the layout names one. */
  owner: string | null;
  /** Paths of the pages shown lately, most recent first (my workbench's recently used). */
  visited: string[];
}

interface StoredTabs {
  owner: string;
  state: TabsState;
  visited?: string[];
}

/** How many recently shown pages are remembered. */
const VISITED_MAX = 12;

export const useTabs = create<TabsStore>(() => ({
  state: initialTabs(),
  recent: [HOME_KEY],
  owner: null,
  visited: [],
}));

/** `path` first in the recently shown pages. */
export const visit = (visited: string[], path: string): string[] =>
  [path, ...visited.filter((p) => p !== path)].slice(0, VISITED_MAX);

/**
 * Restores `owner`'s stored tabs (anyone else's are dropped), unless they are the current ones.
 * `check` gives each restored tab as it should be now, or null to drop it.
 */
export function ensureOwner(owner: string, check: (tab: Tab) => Omit<Tab, 'version'> | null = (t) => t): void {
  if (useTabs.getState().owner === owner) return;
  const stored = storage.get<StoredTabs>('tabs');
  const restored = stored?.owner === owner ? parseStored(stored.state) : null;
  let state = initialTabs();
  if (restored) {
    const tabs = [HOME_TAB];
    for (const t of restored.tabs.slice(1)) {
      const now = check(t);
      if (now && !tabs.some((x) => x.key === now.key)) {
        tabs.push({ ...now, ...(t.given === undefined ? {} : { given: t.given }), version: 0 });
      }
    }
    state = { tabs, active: tabs.some((t) => t.key === restored.active) ? restored.active : HOME_KEY };
  }
  const visited =
    stored?.owner === owner && Array.isArray(stored.visited) ? stored.visited.filter((p) => typeof p === 'string') : [];
  useTabs.setState({ state, recent: [state.active], owner, visited });
}

/** iframe=1 belongs to the window that asked for it (a host's frame), not to the saved tab. */
function withoutFrameMode(tab: Tab): Tab {
  if (!tab.search.includes('iframe=')) return tab;
  const q = new URLSearchParams(tab.search);
  q.delete('iframe');
  return { ...tab, search: q.size ? `?${q}` : '' };
}

/** Applies `action`, remembers the result for a reload, and returns it. */
export function dispatchTabs(action: TabsAction): TabsState {
  const { state, recent, owner, visited: before } = useTabs.getState();
  const next = tabsReducer(state, action);
  if (next === state) return state;
  const shown = next.tabs.find((t) => t.key === next.active);
  const visited = shown && shown.key !== HOME_KEY && next.active !== state.active ? visit(before, shown.path) : before;
  useTabs.setState({ state: next, recent: touch(recent, next.active, next), visited });
  if (owner) {
    storage.set<StoredTabs>('tabs', { owner, state: { ...next, tabs: next.tabs.map(withoutFrameMode) }, visited });
  }
  return next;
}

/** Forgets every tab (enterprise switch): only home stays. */
export function clearTabs(): void {
  storage.remove('tabs');
  useTabs.setState({ state: initialTabs(), recent: [HOME_KEY], visited: [] });
}
