/**
 * One transaction around a whole piece of work, without handing it down through every call: inside
 * `inOneTransaction(db, work)`, every repository built over `scopedDb(db)` runs its statements in
 * that transaction (its own `transaction()` calls become savepoints), and what must only happen
 * once the change is visible to others — telling every instance through the invalidation bus — is
 * queued with `afterCommit` and done after the commit, in order, before `inOneTransaction` returns.
 * Outside such a scope nothing changes: statements go to the pool, `afterCommit` runs at once.
 *
 * The operators' API uses it so that a change and its audit row commit together or not at all
 * (ADR 037). Named statements that take the pool itself (`db.$client`) are outside the scope by
 * design: they are the hot paths of sign-in, sign-on and nonces, which no operator change runs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Tx } from './client.js';

interface Scope {
  tx: Tx;
  afterCommit: Array<() => Promise<void>>;
}

const storage = new AsyncLocalStorage<Scope>();

/** `db`, whose every use inside `inOneTransaction` goes to that transaction instead. */
export function scopedDb(db: Db): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const scope = storage.getStore();
      if (!scope || prop === '$client') return Reflect.get(target, prop, receiver) as unknown;
      const value = Reflect.get(scope.tx, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(scope.tx) : value;
    },
  });
}

/**
 * Runs `work` in one transaction of `db` (or in the one already open around it); after the commit,
 * the tasks it queued with `afterCommit`. A throw rolls everything back and drops the tasks.
 */
export async function inOneTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const open = storage.getStore();
  if (open) return work(open.tx);
  const afterCommit: Scope['afterCommit'] = [];
  const result = await db.transaction((tx) => storage.run({ tx, afterCommit }, () => work(tx)));
  for (const task of afterCommit) await task();
  return result;
}

/** Does `task` once the surrounding transaction has committed, or now when there is none. */
export function afterCommit(task: () => Promise<void>): Promise<void> {
  const scope = storage.getStore();
  if (!scope) return task();
  scope.afterCommit.push(task);
  return Promise.resolve();
}
