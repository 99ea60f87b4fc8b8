import { describe, expect, it } from 'vitest';
import {
  HOME_KEY,
  aliveKeys,
  initialTabs,
  parseStored,
  tabTitle,
  tabsReducer,
  touch,
  type TabsAction,
  type TabsState,
} from './tabs';

const visit = (key: string, extra: Partial<{ search: string; title: string; keepAlive: boolean }> = {}) =>
  ({
    type: 'visit',
    tab: {
      key,
      path: `/m/${key}`,
      search: extra.search ?? '',
      title: extra.title ?? key.toUpperCase(),
      titleKey: null,
      keepAlive: extra.keepAlive ?? false,
    },
  }) as const;

const run = (...actions: TabsAction[]) => actions.reduce(tabsReducer, initialTabs());
const keys = (s: TabsState) => s.tabs.map((t) => t.key);
const abcd = () => run(visit('a'), visit('b'), visit('c'), visit('d'));

describe('tab strip state', () => {
  it('starts with home, adds a tab per visited route and none twice by name', () => {
    expect(keys(initialTabs())).toEqual([HOME_KEY]);
    const s = run(visit('a'), visit('b'), visit('a', { search: '?x=1' }));
    expect(keys(s)).toEqual([HOME_KEY, 'a', 'b']);
    expect(s.active).toBe('a');
    expect(s.tabs[1]!.search).toBe('?x=1'); // the tab follows the last visit
  });

  it('returns the same state for a visit that changes nothing (no re-render loop)', () => {
    const s = run(visit('a'));
    expect(tabsReducer(s, visit('a'))).toBe(s);
  });

  it('closing the active tab moves to the tab at its place, or the last when it was last', () => {
    const middle = tabsReducer({ ...abcd(), active: 'b' }, { type: 'close', key: 'b' });
    expect(keys(middle)).toEqual([HOME_KEY, 'a', 'c', 'd']);
    expect(middle.active).toBe('c');
    const last = tabsReducer(abcd(), { type: 'close', key: 'd' });
    expect(last.active).toBe('c');
    const only = tabsReducer(run(visit('a')), { type: 'close', key: 'a' });
    expect(only).toEqual({ tabs: initialTabs().tabs, active: HOME_KEY });
  });

  it('closing another tab keeps the active one; home and unknown tabs are not closed', () => {
    const s = tabsReducer(abcd(), { type: 'close', key: 'a' });
    expect(s.active).toBe('d');
    expect(keys(s)).toEqual([HOME_KEY, 'b', 'c', 'd']);
    expect(tabsReducer(s, { type: 'close', key: HOME_KEY })).toBe(s);
    expect(tabsReducer(s, { type: 'close', key: 'zz' })).toBe(s);
  });

  it('closes others, left, right and all, keeping home', () => {
    const at = (active: string) => ({ ...abcd(), active });
    expect(tabsReducer(at('a'), { type: 'closeOthers', key: 'c' })).toMatchObject({ active: 'c' });
    expect(keys(tabsReducer(at('a'), { type: 'closeOthers', key: 'c' }))).toEqual([HOME_KEY, 'c']);
    const left = tabsReducer(at('a'), { type: 'closeLeft', key: 'c' });
    expect([keys(left), left.active]).toEqual([[HOME_KEY, 'c', 'd'], 'c']);
    const leftKeepsActive = tabsReducer(at('d'), { type: 'closeLeft', key: 'c' });
    expect(leftKeepsActive.active).toBe('d');
    const right = tabsReducer(at('d'), { type: 'closeRight', key: 'b' });
    expect([keys(right), right.active]).toEqual([[HOME_KEY, 'a', 'b'], 'b']);
    const all = tabsReducer(at('b'), { type: 'closeAll' });
    expect(all).toEqual(initialTabs());
  });

  it('keeps the title a navigation gave a tab across later visits that give none', () => {
    const given = { type: 'visit', tab: { ...visit('d').tab, given: '报修单 #12' } } as const;
    const s = run(visit('a'), given, visit('a'), visit('d'));
    const d = s.tabs.find((t) => t.key === 'd')!;
    expect(d.given).toBe('报修单 #12');
    expect(tabTitle(d, (k) => k)).toBe('报修单 #12');
    // Stored and restored with the tab.
    expect(parseStored(JSON.parse(JSON.stringify(s)))!.tabs.find((t) => t.key === 'd')!.given).toBe('报修单 #12');
    expect(
      tabTitle(
        s.tabs.find((t) => t.key === 'a')!,
        (k) => k,
      ),
    ).toBe('A');
    expect(tabTitle(initialTabs().tabs[0]!, (k) => `t:${k}`)).toBe('t:shell.home');
  });

  it('refresh raises the version of that tab only', () => {
    const s = tabsReducer(abcd(), { type: 'refresh', key: 'b' });
    expect(s.tabs.map((t) => t.version)).toEqual([0, 0, 1, 0, 0]);
  });
});

describe('keep-alive', () => {
  it('keeps the active page and the most recent hidden ones that ask, at most max', () => {
    const s = run(
      visit('a', { keepAlive: true }),
      visit('b'),
      visit('c', { keepAlive: true }),
      visit('d', { keepAlive: true }),
    );
    const recent = ['a', 'b', 'c', 'd'];
    expect(aliveKeys(s, recent, 10)).toEqual(new Set(['d', 'c', 'a'])); // b does not ask
    expect(aliveKeys(s, recent, 1)).toEqual(new Set(['d', 'c'])); // a, least recent, let go
    expect(aliveKeys(s, recent, 0)).toEqual(new Set(['d']));
  });

  it('forgets closed tabs and moves the active one to the end', () => {
    const s = tabsReducer(abcd(), { type: 'close', key: 'b' });
    expect(touch(['a', 'b', 'c', 'd'], 'a', s)).toEqual(['c', 'd', 'a']);
  });
});

describe('restoring after a reload', () => {
  it('takes a stored state back, with versions reset', () => {
    const s = tabsReducer(abcd(), { type: 'refresh', key: 'a' });
    const back = parseStored(JSON.parse(JSON.stringify(s)));
    expect(keys(back!)).toEqual(keys(s));
    expect(back!.active).toBe('d');
    expect(back!.tabs.every((t) => t.version === 0)).toBe(true);
  });

  it.each([
    null,
    'x',
    { tabs: [], active: HOME_KEY },
    { tabs: [{ key: 'a', path: '/a', search: '' }], active: 'a' }, // no home first
    { tabs: [{ key: HOME_KEY, path: 'javascript:alert(1)', search: '' }], active: HOME_KEY },
    { tabs: [{ key: HOME_KEY, path: '/index', search: 'x=1' }], active: HOME_KEY },
    {
      tabs: [
        { key: HOME_KEY, path: '/index', search: '' },
        { key: HOME_KEY, path: '/index', search: '' },
      ],
      active: HOME_KEY,
    },
  ])('refuses what is not a stored state: %j', (value) => {
    expect(parseStored(value)).toBeNull();
  });

  it('falls back to home when the stored active tab is not among them', () => {
    expect(parseStored({ tabs: [{ key: HOME_KEY, path: '/index', search: '' }], active: 'gone' })?.active).toBe(
      HOME_KEY,
    );
  });
});
