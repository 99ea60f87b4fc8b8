import { describe, expect, it } from 'vitest';
import { createLocalCache } from './local-cache.js';

function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('local cache', () => {
  it('serves a value until its TTL, then forgets it', () => {
    const c = clock();
    const cache = createLocalCache<string>({ ttlMs: 100, max: 10, now: c.now });
    cache.set('a', 'A');
    c.advance(99);
    expect(cache.get('a')).toBe('A');
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never keeps a value longer than the cache TTL, and keeps it shorter when asked', () => {
    const c = clock();
    const cache = createLocalCache<string>({ ttlMs: 100, max: 10, now: c.now });
    cache.set('long', 'L', { ttlMs: 10_000 });
    cache.set('short', 'S', { ttlMs: 10 });
    c.advance(10);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe('L');
    c.advance(90);
    expect(cache.get('long')).toBeUndefined();
  });

  it('keeps nothing with a TTL of 0 or an already past expiry', () => {
    const off = createLocalCache<string>({ ttlMs: 0, max: 10 });
    off.set('a', 'A');
    expect(off.get('a')).toBeUndefined();
    const on = createLocalCache<string>({ ttlMs: 100, max: 10 });
    on.set('a', 'A', { ttlMs: -5 });
    expect(on.get('a')).toBeUndefined();
  });

  it('evicts the least recently stored entry beyond max', () => {
    const cache = createLocalCache<number>({ ttlMs: 1_000, max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3); // stored again: now the newest
    cache.set('c', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([3, undefined, 4]);
  });

  it('drops a value loaded before an invalidation that happened while it was loading', () => {
    const cache = createLocalCache<string>({ ttlMs: 1_000, max: 10 });
    const before = cache.version;
    cache.deleteWhere(() => true); // e.g. a logout announced while the session was being read
    cache.set('token', 'stale session', { version: before });
    expect(cache.get('token')).toBeUndefined();
    cache.set('token', 'fresh session', { version: cache.version });
    expect(cache.get('token')).toBe('fresh session');
  });

  it('deletes by value and clears', () => {
    const cache = createLocalCache<{ id: number }>({ ttlMs: 1_000, max: 10 });
    cache.set('t1', { id: 1 });
    cache.set('t2', { id: 1 });
    cache.set('t3', { id: 2 });
    cache.deleteWhere((v) => v.id === 1);
    expect([cache.get('t1'), cache.get('t2'), cache.get('t3')]).toEqual([undefined, undefined, { id: 2 }]);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
