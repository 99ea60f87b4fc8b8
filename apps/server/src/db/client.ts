import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { withSessionLock } from './locks.js';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
/** A transaction of `Db`: what `db.transaction(async (tx) => …)` hands its callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../migrations');

// int8 → number: our identities stay far below 2^53, and the API speaks numbers/strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export function connect(url: string, max = 20): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', () => {
    // An idle client lost its connection (database restart); the pool replaces it on next use.
  });
  return drizzle(pool, { schema }) as Db;
}

/**
 * A small second pool on the same database whose commits don't wait for the disk, for short-lived
 * security state: request nonces, rate-limit windows, captchas, and the rows a login writes
 * (session, failure count, audit). A crash may lose the last few hundred milliseconds of those
 * (docs/decisions/005); what they protect stays consistent, since a commit is visible at once.
 * Logouts, revocations and business data go through the main pool and wait for the disk.
 */
export function connectRelaxed(db: Db, max = 8): pg.Pool {
  const pool = new pg.Pool({ ...db.$client.options, max, options: '-c synchronous_commit=off' });
  pool.on('error', () => {
    // as above
  });
  return pool;
}

export async function migrateDb(db: Db): Promise<void> {
  // Applying migrations from several instances at once is serialised by an advisory lock.
  const client = await db.$client.connect();
  try {
    await withSessionLock(client, 'migrations', () => migrate(db, { migrationsFolder: MIGRATIONS_DIR }));
  } finally {
    client.release();
  }
}
