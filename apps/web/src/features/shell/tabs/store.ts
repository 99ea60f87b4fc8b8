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
}

interface StoredTabs {
  owner: string;
  state: TabsState;
}

export const useTabs = create<TabsStore>(() => ({ state: initialTabs(), recent: [HOME_KEY], owner: null }));

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
  useTabs.setState({ state, recent: [state.active], owner });
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
  const { state, recent, owner } = useTabs.getState();
  const next = tabsReducer(state, action);
  if (next === state) return state;
  useTabs.setState({ state: next, recent: touch(recent, next.active, next) });
  if (owner) storage.set<StoredTabs>('tabs', { owner, state: { ...next, tabs: next.tabs.map(withoutFrameMode) } });
  return next;
}

/** Forgets every tab (enterprise switch): only home stays. */
export function clearTabs(): void {
  storage.remove('tabs');
  useTabs.setState({ state: initialTabs(), recent: [HOME_KEY] });
}
