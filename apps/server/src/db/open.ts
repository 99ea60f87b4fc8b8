/**
 * Opens the database the configuration names: an external PostgreSQL through DATABASE_URL, or the
 * embedded one under DATA_DIR. Migrations are applied before anything else touches it.
 */
import pg from 'pg';
import { connect, migrateDb, type Db } from './client.js';
import { runningEmbeddedUrl, startEmbeddedPostgres } from './embedded.js';

export interface OpenedDatabase {
  db: Db;
  close(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
}

/** Creates `name` on the server behind `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '')}"`);
  } finally {
    await client.end();
  }
}

export async function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
  log: Logger;
}): Promise<OpenedDatabase> {
  let stopEmbedded: (() => Promise<void>) | null = null;
  let url = opts.databaseUrl;
  if (!url) {
    const embedded = await startEmbeddedPostgres(opts.dataDir, opts.log);
    stopEmbedded = embedded.stop;
    try {
      await ensureDatabase(embedded.url(), 'portal');
    } catch (err) {
      await embedded.stop();
      throw err;
    }
    url = embedded.url('portal');
  }
  const db = connect(url);
  try {
    await migrateDb(db);
  } catch (err) {
    await db.$client.end().catch(() => undefined);
    if (stopEmbedded) await stopEmbedded();
    throw err;
  }
  return {
    db,
    async close() {
      await db.$client.end();
      if (stopEmbedded) await stopEmbedded();
    },
  };
}

/**
 * The server's database for a command run beside it (`npm run import:industries`, `npm run admin --
 * bootstrap`), migrated: DATABASE_URL; else the embedded database under DATA_DIR, through the running
 * server when there is one, otherwise started for the command (and stopped by `close`). `say` tells
 * the person which it is; `log` gets the embedded database's own lines.
 */
export async function openCommandDatabase(
  config: { databaseUrl: string | null; dataDir: string },
  opts: { say: (line: string) => void; log: Logger },
): Promise<OpenedDatabase> {
  const running = config.databaseUrl ? null : runningEmbeddedUrl(config.dataDir);
  if (running) {
    opts.say('Using the embedded database the running server serves.');
    const db = connect(running, 2);
    try {
      await migrateDb(db);
    } catch (err) {
      await db.$client.end().catch(() => undefined);
      throw err;
    }
    return { db, close: () => db.$client.end() };
  }
  return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: opts.log });
}
