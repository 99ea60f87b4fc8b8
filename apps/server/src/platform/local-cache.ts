/**
 * A small in-process cache in front of PostgreSQL for what every request reads (the session a token
 * names, the signed-in user's profile). The database stays the source of truth: entries live a few
 * seconds at most, and changes are announced to every instance through the invalidation bus
 * (invalidation.ts), so a logout or revocation is seen everywhere at once (docs/decisions/005).
 */
export interface LocalCache<V> {
  get(key: string): V | undefined;
  /**
   * Stores `value` for at most the cache's TTL. Pass the `version` read before the value was
   * loaded: if anything was invalidated meanwhile, the value may be stale and is not kept.
   */
  set(key: string, value: V, opts?: { ttlMs?: number; version?: number }): void;
  /** Changes whenever something is deleted or cleared. */
  readonly version: number;
  delete(key: string): void;
  /** Drops every entry whose value matches, e.g. all tokens of one session. */
  deleteWhere(match: (value: V) => boolean): void;
  clear(): void;
  readonly size: number;
}

export function createLocalCache<V>(opts: { ttlMs: number; max: number; now?: () => number }): LocalCache<V> {
  const now = opts.now ?? Date.now;
  // A Map keeps insertion order: re-inserting on set makes the first key the least recently set.
  const entries = new Map<string, { value: V; until: number }>();
  let version = 0;
  return {
    get(key) {
      const e = entries.get(key);
      if (!e) return undefined;
      if (e.until <= now()) {
        entries.delete(key);
        return undefined;
      }
      return e.value;
    },
    set(key, value, { ttlMs = opts.ttlMs, version: seen } = {}) {
      if (opts.ttlMs <= 0 || ttlMs <= 0 || (seen !== undefined && seen !== version)) return;
      entries.delete(key);
      entries.set(key, { value, until: now() + Math.min(ttlMs, opts.ttlMs) });
      if (entries.size > opts.max) entries.delete(entries.keys().next().value!);
    },
    delete(key) {
      version++;
      entries.delete(key);
    },
    deleteWhere(match) {
      version++;
      for (const [key, e] of entries) if (match(e.value)) entries.delete(key);
    },
    clear() {
      version++;
      entries.clear();
    },
    get version() {
      return version;
    },
    get size() {
      return entries.size;
    },
  };
}
