/**
 * Starts the real, built portal (`node apps/server/dist/programs/server/main.js`) as a child process on a fresh
 * database of the run's PostgreSQL (a copy of the run's seeded template; an empty one when the demo
 * is not to be seeded), in test-captcha mode, on a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { freePort } from '../../apps/server/src/db/embedded.js';
import { ensureDatabase } from '../../apps/server/src/db/open.js';
import { copyTemplate } from '../../apps/server/src/programs/test-template/template.js';

export interface RunningServer {
  url: string;
  /** Its database, for a test that must put data in place (e.g. a registered service). */
  databaseUrl: string;
  /** Where it keeps uploads (a second instance on the same database shares it). */
  filesDir: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * `signOn`: the portal signs in through its own sign-on server (SSO_URL = its own address), as a
 * single-process deployment with SSO does. `localhost`: its public address names `localhost`
 * rather than 127.0.0.1 (WebAuthn takes a domain as the relying party, never an IP address).
 */
export async function startServer(
  env: Record<string, string> = {},
  { signOn = false, localhost = false }: { signOn?: boolean; localhost?: boolean } = {},
): Promise<RunningServer> {
  const admin = process.env.TEST_PG_ADMIN_URL;
  if (!admin) throw new Error('TEST_PG_ADMIN_URL is not set: run through vitest');
  const name = `e2e_${randomBytes(5).toString('hex')}`;
  const dbUrl = new URL(admin);
  dbUrl.pathname = `/${name}`;
  // A second instance names the first one's database in env.DATABASE_URL.
  if (!env.DATABASE_URL) {
    if (env.SEED_DEMO === '0') await ensureDatabase(admin, name);
    else await copyTemplate(name);
  }

  // The port is chosen first, so the server knows its own address (PUBLIC_URL, SSO_URL).
  const chosen = await freePort();
  const host = localhost ? 'localhost' : '127.0.0.1';
  const self = `http://${host}:${chosen}`;
  const filesDir = env.FILES_DIR ?? join(tmpdir(), name);
  const child = spawn(process.execPath, ['apps/server/dist/programs/server/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(chosen),
      HOST: '127.0.0.1',
      PUBLIC_URL: self,
      ...(signOn ? { SSO_URL: self } : {}),
      DATABASE_URL: dbUrl.toString(),
      // Uploads of this server go to a directory of its own (a second instance may share it).
      FILES_DIR: filesDir,
      PORTAL_TEST_CAPTCHA: '1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // What the server printed until it listened, for the message of a start that failed. Lines are
  // read as they complete and the reading stops once it listens: the server logs every request,
  // and parsing all it ever printed again on every chunk cost the test's own process seconds of
  // CPU per file (quadratic in the log's length).
  let output = '';
  let partial = '';
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === 'listening' && entry.port) {
            clearTimeout(timer);
            // Still drained (a full pipe would stop the server), no longer read.
            child.stdout!.off('data', onData);
            child.stdout!.resume();
            done(entry.port);
            return;
          }
        } catch {
          // not a log entry of the server's
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => fail(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://${host}:${port}`,
    databaseUrl: env.DATABASE_URL ?? dbUrl.toString(),
    filesDir,
    port,
    process: child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
