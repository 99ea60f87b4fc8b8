import { beforeEach, describe, expect, it } from 'vitest';
import { storage } from '../../../lib/storage';
import { clearTabs, dispatchTabs, ensureOwner, useTabs } from './store';
import { HOME_KEY } from './tabs';

const tab = (key: string) => ({ key, path: `/${key}`, search: '', title: key, titleKey: null, keepAlive: true });

describe('tab store', () => {
  beforeEach(() => {
    localStorage.clear();
    useTabs.setState({ owner: null });
    clearTabs();
  });

  it("keeps the owner's tabs for a reload and restores them for that owner only", () => {
    ensureOwner('demo:1');
    dispatchTabs({ type: 'visit', tab: tab('a') });
    dispatchTabs({ type: 'visit', tab: tab('b') });
    dispatchTabs({ type: 'visit', tab: tab('a') });

    // A reload: a fresh store reads storage.
    useTabs.setState({ owner: null, state: { tabs: [], active: '' } });
    ensureOwner('demo:1');
    expect(useTabs.getState().state.tabs.map((t) => t.key)).toEqual([HOME_KEY, 'a', 'b']);
    expect(useTabs.getState().state.active).toBe('a');

    // Someone else on the same browser starts afresh, and their first visit replaces the stored tabs.
    useTabs.setState({ owner: null });
    ensureOwner('demo:2');
    expect(useTabs.getState().state.tabs.map((t) => t.key)).toEqual([HOME_KEY]);
    dispatchTabs({ type: 'visit', tab: tab('c') });
    expect(storage.get<{ owner: string }>('tabs')?.owner).toBe('demo:2');
  });

  it('tracks the most recently used tabs without closed ones', () => {
    ensureOwner('demo:1');
    for (const k of ['a', 'b', 'c']) dispatchTabs({ type: 'visit', tab: tab(k) });
    dispatchTabs({ type: 'visit', tab: tab('a') });
    expect(useTabs.getState().recent).toEqual([HOME_KEY, 'b', 'c', 'a']);
    dispatchTabs({ type: 'close', key: 'b' });
    expect(useTabs.getState().recent).toEqual([HOME_KEY, 'c', 'a']);
  });

  it('saves tabs without iframe=1, which belongs to the window that asked for it', () => {
    ensureOwner('demo:1');
    dispatchTabs({ type: 'visit', tab: { ...tab('a'), search: '?iframe=1&tc=x' } });
    dispatchTabs({ type: 'visit', tab: { ...tab('b'), search: '?iframe=1' } });
    expect(useTabs.getState().state.tabs[1]!.search).toBe('?iframe=1&tc=x');
    const saved = storage.get<{ state: { tabs: { search: string }[] } }>('tabs')!;
    expect(saved.state.tabs.map((t) => t.search)).toEqual(['', '?tc=x', '']);
  });

  it('forgets every tab on clearTabs (enterprise switch)', () => {
    ensureOwner('demo:1');
    dispatchTabs({ type: 'visit', tab: tab('a') });
    clearTabs();
    expect(storage.get('tabs')).toBeNull();
    expect(useTabs.getState().state.tabs.map((t) => t.key)).toEqual([HOME_KEY]);
  });
});
