/**
 * Crash recovery of the embedded PostgreSQL with the real built server (`npm run build` first):
 * after `kill -9` of the server its postgres child keeps running; the next start on the same
 * DATA_DIR must find it through postmaster.pid, stop it and come up; SIGTERM then answers the
 * requests in flight and stops both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { signRequest } from '@portal/contracts/node-signing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAlive } from './embedded.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = join(ROOT, 'apps/server/dist/programs/server/main.js');

interface LogLine {
  msg?: string;
  req?: { url?: string };
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

it(
  'recovers from kill -9 of the server and stops cleanly on SIGTERM, in-flight requests answered',
  { timeout: 60_000 },
  async () => {
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

    // SIGTERM with logins in flight (each spends an argon2 verification): every one of them is
    // answered, then the database stops and the process exits 0.
    const base = `http://127.0.0.1:${second.port}`;
    const secret = /"signSecret":"([^"]+)"/.exec(await (await fetch(`${base}/center/config.js`)).text())![1]!;
    const signedCall = async (url: string, body?: Record<string, unknown>) =>
      fetch(`${base}${url}`, {
        method: body ? 'POST' : 'GET',
        headers: { ...signRequest(secret, url, body), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const { data: key } = (await (await signedCall('/api/front/account/auth/publicKey')).json()) as {
      data: { publicKey: string };
    };
    const keys = Array.from({ length: 8 }, (_, i) => `inflight${i}`);
    for (const k of keys) await signedCall(`/api/auth/kaptcha/get?type=LOGIN&data=${k}`);
    const logins = keys.map((captchaKey) =>
      signedCall('/api/auth/jwt/front/token?tenantCode=demo', {
        username: 'member',
        password: publicEncrypt(
          { key: key.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          Buffer.from('Demo@2026!'),
        ).toString('base64'),
        imgvercode: '8888',
        captchaKey,
      }).then(async (r) => ((await r.json()) as { status: number }).status),
    );
    // In flight = the server has read them (it logs each request as it arrives).
    await waitFor(
      () =>
        second.logs.filter((l) => l.msg === 'incoming request' && l.req?.url?.includes('/jwt/front/token')).length ===
        8,
      10_000,
      'the logins to arrive',
    );
    second.child.kill('SIGTERM');
    expect(await Promise.all(logins)).toEqual(keys.map(() => 200));
    expect(await second.exited).toBe(0);
    expect(second.logs.some((l) => l.msg === 'stopped cleanly')).toBe(true);
    await waitFor(() => !isAlive(current), 10_000, `postgres ${current} to exit`);
    await waitFor(async () => (await postgresPids(dataDir)).length === 0, 10_000, 'no postgres for the data dir');
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  },
);
