/**
 * The first run of a production installation (ADR 033), for real: the built server started as a
 * process on an empty database with NODE_ENV=production and nothing else, then
 * `npm run admin -- bootstrap` (the CLI's main in this process, on the same database), then the
 * server again, and the bootstrap operator's first sign-in over HTTP with the CLI: the password must
 * be changed before anything else, after which the console's API works.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../db/client.js';
import { ensureDatabase } from '../../db/open.js';
import { databaseUrl, freshDatabase } from '../../test/harness.js';
import { isPasswordOf } from '../../platform/passwords.js';
import { main } from './main.js';
import { PortalApi } from './api.js';

const MAIN = fileURLToPath(new URL('../../../dist/programs/server/main.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const FIRST = 'Harbour#2026x';
const OWN = 'Lantern#2026q';

let url: string;
let db: Db;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- …` in this process, with the server's environment and its own session file. */
async function admin(args: string[], { stdin = '', env = {} as Record<string, string> } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const input = new PassThrough();
  input.end(stdin);
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: input,
    env: { NODE_ENV: 'production', DATABASE_URL: url, ...env },
    cwd: dir,
    configPath: join(dir, 'session.json'),
  });
  return { code, stdout, stderr };
}

/**
 * The built server as a process: `listening` with its port, or `exited` with its code and output
 * (a start that refuses).
 */
function serve(
  env: Record<string, string>,
): Promise<
  | { kind: 'listening'; port: number; output: () => string; stop: () => Promise<void> }
  | { kind: 'exited'; code: number | null; output: string }
> {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      FILES_DIR: join(dir, 'files'),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no start in 60 s:\n${output}`)), 60_000);
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const port = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      done({
        kind: 'listening',
        port: Number(port),
        output: () => output,
        stop: () =>
          new Promise<void>((stopped) => {
            if (child.exitCode !== null) return stopped();
            child.once('exit', () => stopped());
            child.kill('SIGTERM');
          }),
      });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ kind: 'exited', code, output });
    });
  });
}

const count = async (query: ReturnType<typeof sql>) => Number((await db.execute<{ n: number }>(query)).rows[0]!.n);

beforeAll(async () => {
  const name = `boot_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(process.env.TEST_PG_ADMIN_URL!, name);
  url = databaseUrl(name);
  db = connect(url, 2);
  dir = await mkdtemp(join(tmpdir(), 'portal-bootstrap-'));
});
afterAll(async () => {
  await db?.$client.end();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(MAIN))('a production first run', () => {
  it('refuses to start in production with no operator, names the bootstrap command, and seeds no demo', async () => {
    const start = await serve({ NODE_ENV: 'production' });
    expect(start.kind).toBe('exited');
    if (start.kind !== 'exited') return;
    expect(start.code).toBe(1);
    expect(start.output).toContain('No platform operator yet');
    expect(start.output).toContain('npm run admin -- bootstrap');
    // Migrated, with the reference data every installation needs, and no tenant at all.
    expect(await count(sql`SELECT count(*)::int AS n FROM tenants`)).toBe(0);
    expect(await count(sql`SELECT count(*)::int AS n FROM users`)).toBe(0);
  });

  it('refuses to start in production with SEED_DEMO=1 and the published password, naming DEMO_PASSWORD', async () => {
    const start = await serve({ NODE_ENV: 'production', SEED_DEMO: '1' });
    expect(start.kind).toBe('exited');
    if (start.kind !== 'exited') return;
    expect(start.code).toBe(1);
    expect(start.output).toMatch(/^Configuration error: SEED_DEMO=1 .*DEMO_PASSWORD/m);
  });

  it('refuses a password that breaks the rule, and two that differ, and creates nothing', async () => {
    await writeFile(join(dir, 'weak.txt'), 'password1\n', { mode: 0o600 });
    const weak = await admin(['bootstrap', '--user', 'ops', '--password-file', 'weak.txt']);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toMatch(/^The password does not follow the portal's password rule: .*Nothing was created/m);
    await writeFile(join(dir, 'named.txt'), 'Ops#Harbour2026\n', { mode: 0o600 });
    const named = await admin(['bootstrap', '--user', 'ops', '--password-file', 'named.txt']);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('it contains the username');
    const differ = await admin(['bootstrap', '--user', 'ops'], { stdin: `${FIRST}\nHarbour#2026y\n` });
    expect(differ.stderr).toContain('Password for the operator ops: ');
    expect(differ.code).toBe(1);
    expect(differ.stderr).toMatch(/The two passwords differ/);
    const usage = await admin(['bootstrap', '--user', 'ops', '--tenant', 'Not A Code'], { stdin: '' });
    expect(usage.code).toBe(2);
    // The name grammar (ADR 032): no line break, invisible character or markup in the operator's name.
    for (const user of ['ops\nroot', 'ops\u2028root', '\u202eops', 'ops<1>']) {
      const named = await admin(['bootstrap', '--user', user], { stdin: '' });
      expect(named.code, user).toBe(2);
      expect(named.stderr).toMatch(/^--user takes a user name: 2 to 64 letters/);
    }
    const invisible = await admin(['bootstrap', '--user', 'ops', '--name', '运维\u200b负责人'], { stdin: '' });
    expect(invisible.code).toBe(2);
    expect(await count(sql`SELECT count(*)::int AS n FROM tenants`)).toBe(0);
  });

  it('creates the platform tenant and its operator, with a temporary password from a file, audited', async () => {
    await writeFile(join(dir, 'first.txt'), `${FIRST}\n`, { mode: 0o600 });
    const r = await admin(['bootstrap', '--user', 'ops', '--name', '运维负责人', '--password-file', 'first.txt']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Created the platform tenant "platform" (平台运营中心) and its operator "ops".');
    expect(r.stdout).toContain('The password is temporary');
    const { rows } = await db.execute<{ code: string; platform: boolean; username: string; must: boolean }>(sql`
      SELECT t.code, t.platform, u.username, u.must_change_password AS must
      FROM users u JOIN tenants t ON t.id = u.tenant_id`);
    expect(rows).toEqual([{ code: 'platform', platform: true, username: 'ops', must: true }]);
    expect(await count(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = 'bootstrap.operator'`)).toBe(1);
  });

  it('says what exists when run again, asks for no password, and changes nothing', async () => {
    const before = (await db.execute<{ h: string }>(sql`SELECT password_hash AS h FROM users`)).rows;
    const again = await admin(['bootstrap', '--user', 'someone'], { stdin: `${OWN}\n${OWN}\n` });
    expect(again.code).toBe(1);
    expect(again.stderr).not.toContain('Password for');
    expect(again.stderr).toMatch(
      /^Nothing done: the platform tenant "platform" \(平台运营中心\) has its operator already: ops \(since \d{4}-\d\d-\d\d, temporary password\)\. The bootstrap never makes a second platform tenant or changes a password/,
    );
    expect((await db.execute<{ h: string }>(sql`SELECT password_hash AS h FROM users`)).rows).toEqual(before);
    expect(await count(sql`SELECT count(*)::int AS n FROM tenants`)).toBe(1);
  });

  it('starts in production after the bootstrap, with no demo', async () => {
    const start = await serve({ NODE_ENV: 'production' });
    expect(start.kind, start.kind === 'exited' ? start.output : '').toBe('listening');
    if (start.kind !== 'listening') return;
    try {
      expect(start.output()).not.toContain('Demo accounts');
      expect(await count(sql`SELECT count(*)::int AS n FROM tenants WHERE code = 'demo'`)).toBe(0);
      const health = await fetch(`http://127.0.0.1:${start.port}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await start.stop();
    }
  });

  it('signs the operator in over HTTP: nothing but the password change until it is done, then the console works', async () => {
    // Test mode for the captcha (production refuses it); the operator's rules are the same.
    const start = await serve({ NODE_ENV: 'test', PORTAL_TEST_CAPTCHA: '1', SEED_DEMO: '0' });
    expect(start.kind, start.kind === 'exited' ? start.output : '').toBe('listening');
    if (start.kind !== 'listening') return;
    const server = `http://127.0.0.1:${start.port}`;
    const login = (extra: string[] = [], password = FIRST) =>
      admin(['login', '--server', server, '--tenant', 'platform', '--user', 'ops', '--password', password, ...extra], {
        stdin: '',
      });
    try {
      // The session a sign-in gives can do nothing else: 40305 with a message, on the console's API too.
      const api = new PortalApi({ server, publicPath: '/center/', tenant: 'platform' });
      const captchaKey = randomBytes(8).toString('hex');
      await api.request('GET', '/api/auth/kaptcha/get', {
        query: [
          ['type', 'LOGIN'],
          ['data', captchaKey],
        ],
      });
      const encrypt = await api.encryptor();
      api.conn.token = await api.request<string>('POST', '/api/auth/jwt/front/token', {
        query: [['tenantCode', 'platform']],
        body: { username: 'ops', password: encrypt(FIRST), imgvercode: '8888', captchaKey },
        auth: false,
      });
      await expect(api.request('GET', '/api/admin/tenants')).rejects.toThrow(
        /^Error 40305: 当前密码为他人设置的临时密码或已过期，请先修改密码$/,
      );

      // The CLI's login says what to do when it cannot ask, and leaves no session behind.
      const told = await login(['--captcha', '8888']);
      expect(told.code).toBe(1);
      expect(told.stderr).toContain('The password of ops is temporary (someone else set it)');
      expect(told.stderr).toMatch(/log in again with --new-password \(or PORTAL_NEW_PASSWORD\), or sign in once at/);
      expect(existsSync(join(dir, 'session.json'))).toBe(false);

      // The same password again is no change; a new one is, and the session goes on.
      const same = await login(['--captcha', '8888', '--new-password', FIRST]);
      expect(same.code).toBe(1);
      expect(same.stderr).toMatch(/Error 400: 新密码不能与当前密码相同/);
      const changed = await login(['--captcha', '8888', '--new-password', OWN]);
      expect(changed.stderr).toContain('Password of ops changed.');
      expect(changed.code).toBe(0);
      expect(changed.stderr).toMatch(/Logged in to .* as ops \(tenant platform\)/);

      // The console: the tenants, and a new tenant the operator creates.
      const tenants = await admin(['get', 'tenants', '--fields', 'code,platform', '--format', 'csv']);
      expect(tenants.code).toBe(0);
      expect(tenants.stdout).toBe('code,platform\nplatform,true\n');
      const created = await admin([
        'create',
        'tenants',
        '-s',
        'code=north-park',
        '-s',
        'name=北区园区',
        '-s',
        'operator.username=north',
        '-s',
        'operator.name=北区运营',
        '-s',
        'operator.password=Harbour#2026x',
      ]);
      expect(created.stderr, created.stderr).toMatch(/^Created new tenant with id '\d+'/m);
      expect(created.code).toBe(0);
      // The old password is gone; the first sign-in with the new one asks for nothing.
      expect((await login(['--captcha', '8888'])).code).toBe(1);
      const plain = await login(['--captcha', '8888'], OWN);
      expect(plain.code).toBe(0);
      expect(plain.stderr).not.toContain('temporary');
      expect(await count(sql`SELECT count(*)::int AS n FROM users WHERE must_change_password`)).toBe(1);
    } finally {
      await start.stop();
    }
  });
});

describe.skipIf(!existsSync(MAIN))('a production start on a database an earlier npm start seeded', () => {
  it("refuses while the demo's accounts sign in with the published password; SEED_DEMO=1 gives them DEMO_PASSWORD", async () => {
    const seeded = await freshDatabase('demoprod');
    const refused = await serve({ NODE_ENV: 'production', DATABASE_URL: seeded });
    expect(refused.kind).toBe('exited');
    if (refused.kind !== 'exited') return;
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('demo/admin, demo/member, platform/platform sign in with the published password');
    expect(refused.output).toContain('SEED_DEMO=1');

    const rekeyed = await serve({ NODE_ENV: 'production', DATABASE_URL: seeded, SEED_DEMO: '1', DEMO_PASSWORD: OWN });
    expect(rekeyed.kind).toBe('listening');
    if (rekeyed.kind === 'listening') await rekeyed.stop();
    const other = connect(seeded, 1);
    try {
      const { rows } = await other.execute<{ hash: string }>(
        sql`SELECT password_hash AS hash FROM users WHERE username IN ('admin', 'member', 'platform')`,
      );
      expect(rows).toHaveLength(3);
      for (const { hash } of rows) {
        expect(await isPasswordOf(hash, OWN)).toBe(true);
        expect(await isPasswordOf(hash, 'Demo@2026!')).toBe(false);
      }
    } finally {
      await other.$client.end();
    }
  }, 90_000);
});
