/**
 * Starts one embedded PostgreSQL for the whole test run, unless TEST_DATABASE_URL names a server to
 * use instead. Test files read TEST_PG_ADMIN_URL and create a database of their own on it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.js';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.TEST_PG_ADMIN_URL) return; // already started by another project's setup
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  // Under the system temp dir: as root, PostgreSQL runs as `postgres`, which must reach the data.
  const dir = await mkdtemp(join(tmpdir(), 'portal-test-pg-'));
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m), debug: () => {} };
  const pg = await startEmbeddedPostgres(dir, quiet);
  process.env.TEST_PG_ADMIN_URL = pg.url();
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
