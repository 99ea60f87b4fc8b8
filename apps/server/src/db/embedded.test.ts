/**
 * Crash recovery of the embedded PostgreSQL with the real built server (`npm run build` first):
 * after `kill -9` of the server its postgres child keeps running; the next start on the same
 * DATA_DIR must find it through postmaster.pid, stop it and come up; SIGTERM then stops both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = join(ROOT, 'apps/server/dist/main.js');

interface LogLine {
  msg?: string;
  port?: number;
  level?: number;
}

interface Started {
  child: ChildProcess;
  port: number;
  logs: LogLine[];
  exited: Promise<number | null>;
}

let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" before this test`);
  await mkdir(join(ROOT, '.test-data'), { recursive: true });
  dataDir = await mkdtemp(join(ROOT, '.test-data', 'crash-'));
});

afterAll(async () => {
  // Whatever happened above, leave no process of ours and no data behind.
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (!dataDir) return;
  for (const pid of await postgresPids(dataDir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await waitFor(async () => (await postgresPids(dataDir)).length === 0, 10_000).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Pids of processes whose command line names the data directory (the postmaster: `postgres -D <dir>/pg`). */
async function postgresPids(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
      if (cmdline.some((arg) => arg.startsWith(join(dir, 'pg'))) && cmdline[0]?.endsWith('postgres'))
        pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

async function postmasterPid(dir: string): Promise<number> {
  const text = await readFile(join(dir, 'pg', 'postmaster.pid'), 'utf8');
  return Number.parseInt(text.split('\n')[0] ?? '', 10);
}

/** Starts the built server on DATA_DIR and resolves once it logs `listening`. */
function startServer(dir: string): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED_DEMO: '1',
    PORTAL_TEST_CAPTCHA: '1',
    NODE_ENV: 'test',
  };
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const logs: LogLine[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return new Promise<Started>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not log "listening" in 40 s\n${stderr}`)), 40_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening\n${stderr}`));
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      let entry: LogLine;
      try {
        entry = JSON.parse(line) as LogLine;
      } catch {
        return;
      }
      logs.push(entry);
      if (entry.msg === 'listening' && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolveStart({ child, port: entry.port, logs, exited });
      }
    });
  });
}

async function readyz(port: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return res.status;
}

it('recovers from kill -9 of the server and stops cleanly on SIGTERM', { timeout: 60_000 }, async () => {
  // First start: initialises the cluster and seeds the demo tenant.
  const first = await startServer(dataDir);
  expect(await readyz(first.port)).toBe(200);
  expect(first.logs.some((l) => l.msg === 'demo tenant "demo" seeded')).toBe(true);
  const orphan = await postmasterPid(dataDir);
  expect(isAlive(orphan)).toBe(true);

  // kill -9: no shutdown code runs, so the postgres child is left behind.
  first.child.kill('SIGKILL');
  await first.exited;
  await new Promise((r) => setTimeout(r, 200));
  expect(isAlive(orphan), 'postgres should survive kill -9 of its parent').toBe(true);

  // Second start on the same data: stops the orphan, starts afresh, keeps the data.
  const second = await startServer(dataDir);
  expect(await readyz(second.port)).toBe(200);
  expect(second.logs.some((l) => (l.msg ?? '').includes(`still running (pid ${orphan})`))).toBe(true);
  expect(second.logs.some((l) => l.msg === 'demo tenant "demo" seeded')).toBe(false);
  expect(isAlive(orphan)).toBe(false);
  const current = await postmasterPid(dataDir);
  expect(current).not.toBe(orphan);
  expect(await postgresPids(dataDir)).toEqual([current]);

  // SIGTERM: finishes, stops the database, exits 0.
  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.logs.some((l) => l.msg === 'stopped cleanly')).toBe(true);
  await waitFor(() => !isAlive(current), 10_000, `postgres ${current} to exit`);
  await waitFor(async () => (await postgresPids(dataDir)).length === 0, 10_000, 'no postgres for the data dir');
  expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
});
