/**
 * Every PostgreSQL advisory lock the server takes, named in one place (ADR 039), and the helpers
 * that take them. A lock key is a number every instance must agree on: two uses that pick the same
 * key by accident wait for each other, and one that picks another key protects nothing. No file
 * but this one writes `pg_advisory…` or a key (`locks.test.ts` holds the server to it).
 *
 * Two kinds:
 * - **Fixed locks**, one number each, for what the whole installation does one at a time.
 * - **Keyed locks**, one per value (a tenant, a phone number): the kind's name and the value are
 *   hashed to a 64-bit key (`hashtextextended`), so that concurrent changes of the same thing run
 *   one after another and changes of different things don't wait for each other.
 *
 * Advisory locks are functions, not statements on a table: the query builder has no form for them,
 * so these are the raw `sql` the database rules allow for them (ADR 022).
 */
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';

export const FIXED_LOCKS = {
  /** Applying migrations (several instances starting at once), and a restore replacing the schema. */
  migrations: 7366001,
  /**
   * The installation's tenants as a start makes them: the demo's seed and the first platform
   * operator's bootstrap, so that no second demo or platform tenant is made meanwhile.
   */
  installation: 7366002,
  /** Registering a sign-on service: the check of every tenant's patterns and the write see the same rows. */
  ssoPatterns: 7366020,
} as const;

export type FixedLock = keyof typeof FIXED_LOCKS;

/** The kinds of keyed locks, and the text their key is hashed from (never change one in use). */
export const KEYED_LOCKS = {
  /** A tenant's menu tree (order and parents). */
  menus: 'menus',
  /** A tenant's roles (its default role, codes and permissions). */
  roles: 'roles',
  /** A tenant's registered sub-applications. */
  microApps: 'micro-apps',
  /** SMS codes sent to one phone for one purpose in one tenant (cooldown and caps). */
  sms: 'sms',
  /** SMS codes asked for from one client address (its cap). */
  smsIp: 'sms-ip',
  /** A tenant's OpenID Provider signing keys (made once, rotated by one instance at a time). */
  oidcKeys: 'oidc-keys',
} as const;

export type KeyedLock = keyof typeof KEYED_LOCKS;

/** Takes a fixed lock until the end of the transaction that runs this statement. */
export const transactionLock = (lock: FixedLock): SQL => sql`SELECT pg_advisory_xact_lock(${FIXED_LOCKS[lock]})`;

/** Takes the lock of one value of a keyed kind (`keyedLock('menus', tenantId)`) until the end of the transaction. */
export const keyedLock = (kind: KeyedLock, ...key: Array<string | number>): SQL =>
  sql`SELECT pg_advisory_xact_lock(hashtextextended(${[KEYED_LOCKS[kind], ...key].join(':')}, 0))`;

/** The same as `transactionLock`, on a plain `pg` client inside its own `BEGIN` (the restore's). */
export async function transactionLockOn(client: pg.ClientBase, lock: FixedLock): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [FIXED_LOCKS[lock]]);
}

/**
 * Runs `work` holding a fixed lock for the session of `client` (not a transaction: the migrator
 * opens its own), and lets it go whatever happens.
 */
export async function withSessionLock<T>(client: pg.ClientBase, lock: FixedLock, work: () => Promise<T>): Promise<T> {
  await client.query('SELECT pg_advisory_lock($1)', [FIXED_LOCKS[lock]]);
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [FIXED_LOCKS[lock]]).catch(() => undefined);
  }
}
