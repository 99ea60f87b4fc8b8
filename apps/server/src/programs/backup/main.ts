/**
 * `npm run backup -- [--out FILE]` and `npm run restore -- FILE [--force]` (ADR 029, README "Backups").
 *
 * The database is the server's: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR, and the
 * uploads are FILES_DIR's (run with the same environment as the server). With the embedded database
 * the command connects to it when a server is running on it, and otherwise starts it for the
 * command and stops it again. A backup goes to DATA_DIR/backups/portal-<UTC time>.tar.gz unless
 * --out names a file. A restore refuses while anything else is connected to the database.
 *
 * Exit codes: 0 done, 1 failed (one line on stderr), 2 usage.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../../db/embedded.js';
import { ensureDatabase } from '../../db/open.js';
import { BackupError, createBackup, restoreBackup } from './backup.js';
import { ConfigError, loadConfig, type Config } from '../../platform/config.js';

const USAGE = 'usage: npm run backup -- [--out FILE]  |  npm run restore -- FILE [--force]';

type Command = { kind: 'backup'; out: string | null } | { kind: 'restore'; file: string; force: boolean };

function parseArgs(argv: string[]): Command | null {
  const [kind, ...args] = argv;
  if (kind === 'backup') {
    let out: string | null = null;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '--out' && args[i + 1] && out === null) out = args[++i]!;
      else if (arg.startsWith('--out=') && arg.length > 6 && out === null) out = arg.slice(6);
      else return null;
    }
    return { kind, out };
  }
  if (kind === 'restore') {
    const force = args.includes('--force');
    const rest = args.filter((a) => a !== '--force');
    if (rest.length !== 1 || rest[0]!.startsWith('-')) return null;
    return { kind, file: rest[0]!, force };
  }
  return null;
}

const verbose = process.env.LOG_LEVEL === 'debug';
const log = {
  info: (m: string) => verbose && process.stderr.write(`${m}\n`),
  warn: (m: string) => process.stderr.write(`${m}\n`),
  debug: (m: string) => verbose && process.stderr.write(`${m}\n`),
};

/** The server's database: DATABASE_URL, the running embedded one, or the embedded one started here. */
async function openDatabaseUrl(
  config: Config,
  kind: Command['kind'],
): Promise<{ url: string; close(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: async () => undefined };
  const running = runningEmbeddedUrl(config.dataDir);
  if (running) {
    process.stdout.write('Using the embedded database the running server serves.\n');
    return { url: running, close: async () => undefined };
  }
  const dir = join(resolve(config.dataDir), 'pg');
  if (kind === 'backup' && !existsSync(join(dir, 'PG_VERSION'))) {
    throw new BackupError(`there is no embedded database in ${dir}: run with the server's DATA_DIR or DATABASE_URL`);
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, log);
  try {
    await ensureDatabase(embedded.url(), 'portal');
  } catch (err) {
    await embedded.stop();
    throw err;
  }
  return { url: embedded.url('portal'), close: () => embedded.stop() };
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const command = parseArgs(process.argv.slice(2));
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new BackupError(`configuration error: ${err.message}`);
    throw err;
  }
  // npm runs scripts from the repository root; a relative FILE is where the command was typed.
  const here = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
  const started = performance.now();
  const database = await openDatabaseUrl(config, command.kind);
  try {
    if (command.kind === 'backup') {
      const now = new Date();
      const out = command.out ? here(command.out) : resolve(config.dataDir, 'backups', `portal-${stamp(now)}.tar.gz`);
      const done = await createBackup({
        url: database.url,
        filesDir: config.filesDir,
        out,
        warn: log.warn,
        now: () => now,
      });
      process.stdout.write(
        `Backed up ${done.tables} tables (${done.rows} rows, migration ${done.migration}) and ${done.files} files ` +
          `to ${done.file} (${mb(done.bytes)}) in ${seconds(started)}\n`,
      );
    } else {
      const file = here(command.file);
      const done = await restoreBackup({
        url: database.url,
        filesDir: config.filesDir,
        file,
        force: command.force,
        warn: log.warn,
      });
      const upgraded = done.upgradedBy > 0 ? `; then applied ${done.upgradedBy} newer migration(s)` : '';
      process.stdout.write(
        `Restored ${file} (made ${done.createdAt}, migration ${done.migration}): ${done.tables} tables, ` +
          `${done.rows} rows, ${done.files} files in ${seconds(started)}${upgraded}\n`,
      );
    }
  } finally {
    await database.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const what = process.argv[2] === 'restore' ? 'Restore' : 'Backup';
    const message = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
    if (verbose && err instanceof Error && !(err instanceof BackupError)) process.stderr.write(`${err.stack}\n`);
    process.stderr.write(`${what} failed: ${message}\n`);
    process.exit(1);
  },
);
