/**
 * The open tabs of the signed-in user, shared by the strip and the content area, kept in local
 * storage for their owner (tenant and user) so a reload restores them. Logout clears every stored
 * key; an enterprise switch calls `clearTabs`.
 */
import { create } from 'zustand';
import { storage } from '../../../lib/storage';
import { HOME_KEY, initialTabs, parseStored, tabsReducer, touch, type TabsAction, type TabsState } from './tabs';

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

/** Restores `owner`'s stored tabs (anyone else's are dropped), unless they are the current ones. */
export function ensureOwner(owner: string): void {
  if (useTabs.getState().owner === owner) return;
  const stored = storage.get<StoredTabs>('tabs');
  const state = (stored?.owner === owner ? parseStored(stored.state) : null) ?? initialTabs();
  useTabs.setState({ state, recent: [state.active], owner });
}

/** Applies `action`, remembers the result for a reload, and returns it. */
export function dispatchTabs(action: TabsAction): TabsState {
  const { state, recent, owner } = useTabs.getState();
  const next = tabsReducer(state, action);
  if (next === state) return state;
  useTabs.setState({ state: next, recent: touch(recent, next.active, next) });
  if (owner) storage.set<StoredTabs>('tabs', { owner, state: next });
  return next;
}

/** Forgets every tab (enterprise switch): only home stays. */
export function clearTabs(): void {
  storage.remove('tabs');
  useTabs.setState({ state: initialTabs(), recent: [HOME_KEY] });
}
