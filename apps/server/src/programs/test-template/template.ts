/**
 * For test runs only (nothing in the product calls it): one migrated, seeded database per run, built
 * once by the run's global setup; every test database (server tests and the e2e servers) is a copy
 * of it (`CREATE DATABASE … TEMPLATE`), which takes a fraction of the time that migrating and seeding
 * each one from scratch took. It is a program of its own (the test runner's), in the server's build
 * so that the e2e and test projects, which see the server through its declarations, can use it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect, migrateDb } from '../../db/client.js';
import { seedDemo } from '../../db/demo/seed.js';
import { hashPassword } from '../../platform/passwords.js';
import { seedIndustries } from '../../modules/catalog/industries-seed.js';

/** The password of every demo account in a test database. */
export const DEMO_PASSWORD = 'Demo@2026!';

/**
 * The environment variable that carries the template from the global setup to the tests: its name
 * and when it was seeded (`<name>@<epoch ms>`).
 */
export const TEMPLATE_VARIABLE = 'TEST_PG_TEMPLATE';

function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function quoted(name: string): string {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a test database name: ${name}`);
  return `"${name}"`;
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates the run's template database (migrations, industries, the demo); returns what TEMPLATE_VARIABLE carries. */
export async function buildTemplate(adminUrl: string): Promise<string> {
  const name = `template_${randomBytes(4).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${quoted(name)}`));
  const db = connect(withDatabase(adminUrl, name), 2);
  try {
    await migrateDb(db);
    await seedIndustries(db);
    await seedDemo(db, { passwordHash: await hashPassword(DEMO_PASSWORD) });
  } finally {
    await db.$client.end();
  }
  const seededAt = Date.now();
  // A template must have no connections while it is copied; no one connects to it again.
  await admin(adminUrl, (c) => c.query(`ALTER DATABASE ${quoted(name)} WITH ALLOW_CONNECTIONS false`));
  return `${name}@${seededAt}`;
}

/**
 * A new database `name` copied from the run's template, as if seeded now: every timestamp moves
 * forward by the template's age (the demo's devices were last seen a moment ago, its alerts were
 * raised minutes ago, and a copy made late in a run must say the same). Returns its URL.
 */
export async function copyTemplate(name: string): Promise<string> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  const [template, seededAt] = (process.env[TEMPLATE_VARIABLE] ?? '').split('@');
  if (!adminUrl || !template || !seededAt)
    throw new Error('no template database: run tests through vitest (test/global-setup.ts)');
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(template)}`));
  const url = withDatabase(adminUrl, name);
  await admin(url, async (c) => {
    const { rows } = await c.query<{ table: string; columns: string[] }>(
      `SELECT table_name AS table, array_agg(column_name::text) AS columns FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type LIKE 'timestamp%' GROUP BY table_name`,
    );
    const age = `${Date.now() - Number(seededAt)} milliseconds`;
    for (const { table, columns } of rows) {
      const set = columns.map((c, i) => `"${c}" = "${c}" + $${i + 1}::interval`).join(', ');
      await c.query(
        `UPDATE "${table}" SET ${set}`,
        columns.map(() => age),
      );
    }
  });
  return url;
}
