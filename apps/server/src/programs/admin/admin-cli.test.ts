/**
 * `npm run admin` (ADR 031) against the real server on a real port: the CLI's main runs in this
 * process with its own stdin/stdout/stderr and session file, signs in as an operator, creates a
 * user who can then sign in, changes their password and roles, takes the menu out and back in,
 * reviews an enterprise, and answers each failure with the exit code a script relies on.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';
import { main } from './main.js';
import { encryptSecret, newTotpSecret, totpOf } from '../../modules/factors/secrets.js';

let ctx: TestContext;
let server: string;
let dir: string;
let session: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(args: string[], { stdin = '', config = session } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const input = new PassThrough();
  input.end(stdin);
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: input,
    env: {},
    cwd: dir,
    configPath: config,
  });
  return { code, stdout, stderr };
}

const json = <T>(r: Run): T => JSON.parse(r.stdout) as T;

const loginArgs = (user = 'admin', extra: string[] = []) => [
  'login',
  '--server',
  server,
  '--tenant',
  'demo',
  '--user',
  user,
  '--password',
  DEMO_PASSWORD,
  '--captcha',
  '8888',
  ...extra,
];

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'portal-cli-'));
  session = join(dir, 'session.json');
});
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('npm run admin', () => {
  it('says "not logged in" with exit code 3 before a login', async () => {
    const r = await run(['get', 'users']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^Not logged in/);
    expect(r.stdout).toBe('');
  });

  it('logs in as the park operator and keeps the session in a file only its owner reads', async () => {
    const r = await run(loginArgs('admin', ['--role', 'park_operator']));
    expect(r.stderr).toContain('Logged in');
    expect(r.code).toBe(0);
    expect((await stat(session)).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(await readFile(session, 'utf8')) as Record<string, string>;
    expect(saved).toMatchObject({ server, tenant: 'demo', username: 'admin', role: 'park_operator' });
    expect(saved.signSecret).toBe(ctx.secrets.signSecret);
    expect(Date.parse(saved.expiresAt!)).toBeGreaterThan(Date.now());
  });

  it('lists users as JSON, and picks fields into a table or CSV', async () => {
    const r = await run(['get', 'users', '-q', 'limit=100']);
    expect(r.code).toBe(0);
    const users = json<{ username: string; roles: { name: string }[] }[]>(r);
    expect(users.map((u) => u.username)).toContain('admin');

    const csv = await run(['get', 'users', '-q', 'q=admin', '--fields', 'username,roles.name', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('username,roles.name');
    expect(csv.stdout).toMatch(/^admin,".*园区运营.*"$/m);

    const table = await run(['get', 'roles', '--fields', 'id,code,title', '--format', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^id +code +title\n-+ +-+ +-+\n/);
    expect(table.stdout).toMatch(/park_operator +园区运营/);
  });

  it('gets one enterprise application by its own call, with what it registered', async () => {
    const queue = json<{ id: string; name: string }[]>(await run(['get', 'enterprises', '-q', 'estatus=0']));
    const ent = queue.find((e) => e.name === '蓝海智能制造有限公司')!;
    const r = await run(['get', `enterprises/${ent.id}`, '--fields', 'contacts,industry.code,registrant.username']);
    expect(r.code).toBe(0);
    expect(json(r)).toEqual({ contacts: '周建华', 'industry.code': '3911', 'registrant.username': 'admin' });
    const missing = await run(['get', 'enterprises/999999999']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/404/);
  });

  let userId = '';
  const roleIds: Record<string, string> = {};

  it('creates a user with roles by id (password sent encrypted), who can then sign in', async () => {
    for (const role of json<{ id: string; code: string }[]>(await run(['get', 'roles']))) roleIds[role.code] = role.id;
    const r = await run([
      'create',
      'users',
      '-s',
      'username=cli-user',
      '-s',
      'name=命令行用户',
      '-s',
      'password=Cli@2026!pw',
      '-s',
      `roleIds=["${roleIds.ent_member}"]`,
    ]);
    expect(r.stderr).toMatch(/^Created new user with id '\d+'$/m);
    expect(r.code).toBe(0);
    userId = r.stdout.trim();
    expect(userId).toMatch(/^\d+$/);
    await expect(ctx.login('cli-user', 'Cli@2026!pw')).resolves.toEqual(expect.any(String));

    const one = await run(['get', `users/${userId}`]);
    expect(one.code).toBe(0);
    expect(json<{ username: string; roles: { id: string }[] }>(one)).toMatchObject({
      username: 'cli-user',
      roles: [{ id: roleIds.ent_member }],
    });
    // The same name again: the server's 409, its message, exit 1.
    const again = await run([
      'create',
      'users',
      '-s',
      'username=cli-user',
      '-s',
      'name=x',
      '-s',
      'password=Cli@2026!pw',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error 409: \S/);
  });

  it('sets a password and adds roles to the ones the user holds', async () => {
    const pw = await run(['set-password', '--username', 'cli-user', '--new-password', 'Renew@2026!x']);
    expect(pw.stderr).toContain('Password of cli-user set');
    expect(pw.code).toBe(0);
    await expect(ctx.login('cli-user', 'Renew@2026!x')).resolves.toEqual(expect.any(String));
    await expect(ctx.login('cli-user', 'Cli@2026!pw')).rejects.toThrow(/login failed/);

    const add = await run(['add-roles', '--username', 'cli-user', '--rolename', 'ent_admin']);
    expect(add.code).toBe(0);
    const user = json<{ roles: { id: string }[] }>(await run(['get', `users/${userId}`]));
    expect(user.roles.map((r) => r.id).sort()).toEqual([roleIds.ent_admin, roleIds.ent_member].sort());

    const unknown = await run(['add-roles', '--username', 'cli-user', '--rolename', 'no_such_role']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no role 'no_such_role'/);
  });

  it('updates an item with PATCH and the settings with a merged PUT', async () => {
    expect((await run(['update', `users/${userId}`, '-s', 'name=改过的名字'])).code).toBe(0);
    expect(json<{ name: string }>(await run(['get', `users/${userId}`])).name).toBe('改过的名字');

    expect((await run(['update', 'settings', '-s', 'siteName=CLI 园区'])).code).toBe(0);
    expect((await run(['update', 'settings', '-s', 'noticeEnabled=false'])).code).toBe(0);
    const settings = json<{ settings: Record<string, unknown> }>(await run(['get', 'settings'])).settings;
    expect(settings).toMatchObject({ siteName: 'CLI 园区', noticeEnabled: false });
  });

  it("updates the tenant's security policy with a merged PUT, and resets a user's second factors", async () => {
    expect(
      (await run(['update', 'security-policy', '-s', 'passwordHistory=3', '-s', 'passwordNotCommon=true'])).code,
    ).toBe(0);
    const { policy } = json<{ policy: Record<string, unknown> }>(await run(['get', 'security-policy']));
    expect(policy).toMatchObject({ passwordHistory: 3, passwordNotCommon: true, passwordMinLength: 8 });
    const refused = await run(['update', 'security-policy', '-s', 'passwordMinLength=4']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('passwordMinLength');
    expect(
      (await run(['update', 'security-policy', '-s', 'passwordHistory=0', '-s', 'passwordNotCommon=false'])).code,
    ).toBe(0);
    expect((await run(['create', `users/${userId}/factors/reset`])).code).toBe(0);
  });

  it('round-trips the menu: export to a file, import it, export again → the same', async () => {
    const out = await run(['export-menus', '-o', 'menus.json']);
    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/^Exported \d+ menu entries to /);
    const exported = await readFile(join(dir, 'menus.json'), 'utf8');
    const tree = JSON.parse(exported) as { format: number; menus: unknown[] };
    expect(tree.format).toBe(1);
    expect(tree.menus.length).toBeGreaterThan(0);

    const imported = await run(['import-menus', '-f', 'menus.json']);
    expect(imported.code).toBe(0);
    expect(Number(imported.stdout)).toBeGreaterThanOrEqual(tree.menus.length);

    const again = await run(['export-menus']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(exported);

    const bad = await run(['import-menus', '-f', 'session-missing.json']);
    expect(bad.code).toBe(2);
  });

  it("reviews an enterprise: a rejection without a reason is the server's refusal (exit 1)", async () => {
    const pending = json<{ id: string; name: string }[]>(await run(['get', 'enterprises', '-q', 'estatus=0']));
    expect(pending.length).toBeGreaterThan(0);
    const { name } = pending[0]!;
    const refused = await run(['review-enterprise', '--name', name, '--reject']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Error 400: 请填写未通过的原因\n');

    const english = await run(['review-enterprise', '--name', name, '--reject', '--lang', 'en']);
    expect(english.stderr).toBe('Error 400: Please give the reason it did not pass\n');

    const rejected = await run(['review-enterprise', '--name', name, '--reject', '--reason', '材料不全']);
    expect(rejected.code).toBe(0);
    const after = json<{ estatus: number; reviewReason: string }[]>(
      await run(['get', 'enterprises', '-q', `q=${name}`]),
    );
    expect(after[0]).toMatchObject({ estatus: 2, reviewReason: '材料不全' });
  });

  it('publishes a notice from flags and from a file, reads it and its recipients, and withdraws it', async () => {
    const flags = await run([
      'create',
      'notices',
      '-s',
      'title=CLI 停水通知',
      '-s',
      'remark=<p>周五停水</p>',
      '-s',
      'replyWay=1',
      '-s',
      'audience.kind=tenant',
    ]);
    expect(flags.code, flags.stderr).toBe(0);
    const id = flags.stdout.trim();
    expect(flags.stderr).toMatch(new RegExp(`^Created new notice with id '${id}' \\(\\d+ recipients\\)\n$`));

    const [member] = json<{ id: string }[]>(await run(['get', 'users', '-q', 'q=member']));
    await writeFile(
      join(dir, 'notice.json'),
      JSON.stringify({
        title: 'CLI 文件通知',
        remark: '<p>见附件</p>',
        replyWay: 0,
        audience: { kind: 'users', ids: [Number(member!.id)] },
        translations: { en: { title: 'CLI notice from a file' } },
      }),
    );
    const file = await run(['create', 'notices', '-f', 'notice.json']);
    expect(file.code, file.stderr).toBe(0);
    expect(file.stderr).toMatch(/\(1 recipients\)/);
    const fileId = file.stdout.trim();

    const listed = json<{ id: string; title: string; recipients: number }[]>(
      await run(['get', 'notices', '-q', 'q=CLI', '--all']),
    );
    expect(listed.map((n) => n.id).sort()).toEqual([id, fileId].sort());
    const one = json<{ id: string; titleEn: string; remark: string }>(await run(['get', `notices/${fileId}`]));
    expect(one).toMatchObject({ id: fileId, titleEn: 'CLI notice from a file', remark: '<p>见附件</p>' });
    const who = await run(['get', `notices/${fileId}/recipients`, '--fields', 'username,state', '--format', 'csv']);
    expect(who.stdout).toBe('username,state\nmember,unread\n');

    const withdrawn = await run(['create', `notices/${fileId}/withdraw`]);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    const again = await run(['create', `notices/${fileId}/withdraw`, '--lang', 'en']);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('Error 409: This notice has been withdrawn already\n');
    const state = json<{ withdrawnBy: string | null }>(await run(['get', `notices/${fileId}`]));
    expect(state.withdrawnBy).toBe('系统管理员');
    expect((await run(['get', 'notices/987654321/recipients'])).stderr).toBe('Error 404: 通知不存在\n');
    expect((await run(['get', `notices/${fileId}/readers`])).code).toBe(2);
  });

  it('registers an OIDC client from a file, prints its secret once, replaces it, disables and deletes it', async () => {
    const file = join(dir, 'client.json');
    await writeFile(
      file,
      JSON.stringify({
        name: '命令行客户端',
        confidential: true,
        grantTypes: ['authorization_code', 'refresh_token'],
        redirectUris: ['https://cli.example.com/cb'],
        scopes: ['openid', 'profile'],
      }),
    );
    const made = await run(['create', 'oidc-clients', '-f', file, '-s', 'nameEn=CLI client']);
    expect(made.code, made.stderr).toBe(0);
    const [, id, clientId, secret] = made.stdout.match(
      /^id: (\d+)\nclient_id: ([A-Za-z0-9]+)\nclient_secret: ([A-Za-z0-9]{43})\n$/,
    )!;
    expect(made.stderr).toMatch(/Created new OIDC client with id '\d+'; the secret is shown this once/);
    const kept = await ctx.db.execute<{ h: string }>(
      sql`SELECT secret_hash AS h FROM oidc_clients WHERE id = ${Number(id)}`,
    );
    expect(kept.rows[0]!.h).toBe(createHash('sha256').update(secret!).digest('hex'));

    const one = await run(['get', `oidc-clients/${id}`, '--fields', 'clientId,nameEn,confidential']);
    expect(json(one)).toEqual({ clientId, nameEn: 'CLI client', confidential: true });
    expect(one.stdout).not.toContain(secret);
    const list = await run(['get', 'oidc-clients', '-q', 'q=命令行', '--fields', 'id,clientId', '--format', 'csv']);
    expect(list.stdout).toBe(`id,clientId\n${id},${clientId}\n`);

    const rotated = await run(['create', `oidc-clients/${id}/secret`]);
    expect(rotated.code).toBe(0);
    const next = rotated.stdout.match(/client_secret: ([A-Za-z0-9]{43})/)![1];
    expect(next).not.toBe(secret);
    expect(rotated.stderr).toMatch(/the one before no longer works/);

    const refused = await run(['update', `oidc-clients/${id}`, '-s', 'grantTypes=["refresh_token"]']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refresh_token/);
    expect((await run(['update', `oidc-clients/${id}`, '-s', 'firstParty=true'])).code).toBe(0);
    expect((await run(['create', `oidc-clients/${id}/disable`])).code).toBe(0);
    expect(json<{ enabled: boolean; firstParty: boolean }>(await run(['get', `oidc-clients/${id}`]))).toMatchObject({
      enabled: false,
      firstParty: true,
    });
    expect((await run(['delete', `oidc-clients/${id}`])).code).toBe(0);
    expect((await run(['get', `oidc-clients/${id}`])).stderr).toMatch(/404/);
  });

  it('answers usage errors with 2 and a message', async () => {
    const unknown = await run(['get', 'userz']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown resource 'userz'; resources: tenants, /);
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['get', 'users', '--bogus'])).code).toBe(2);
    expect((await run(['create', 'users', '-s', 'no-equals-sign'])).code).toBe(2);
    expect((await run(['delete', 'users/1'])).code).toBe(2);
    expect((await run(['review-enterprise', '--name', 'x'])).code).toBe(2);
    const help = await run(['get', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run -s admin -- get /);
  });

  it('answers 3 for a session the server ended, and 4 when the server cannot be reached', async () => {
    const copy = join(dir, 'copy.json');
    await copyFile(session, copy);
    const out = await run(['logout'], { config: copy });
    expect(out.code).toBe(0);
    const ended = await run(['get', 'users'], { config: copy });
    expect(ended.code).toBe(3);
    // The original file still holds the (now revoked) token.
    const revoked = await run(['get', 'users']);
    expect(revoked.code).toBe(3);
    expect(revoked.stderr).toMatch(/^Session ended \(401/);

    const port = await closedPort();
    const dead = await run(
      ['login', '--server', `http://127.0.0.1:${port}`, '--user', 'admin', '--password', 'x', '--captcha', '8888'],
      { config: join(dir, 'dead.json') },
    );
    expect(dead.code).toBe(4);
    expect(dead.stderr).toMatch(/^Cannot reach the server at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);

    const saved = JSON.parse(await readFile(session, 'utf8')) as Record<string, unknown>;
    await writeFile(join(dir, 'moved.json'), JSON.stringify({ ...saved, server: `http://127.0.0.1:${port}` }));
    expect((await run(['get', 'users'], { config: join(dir, 'moved.json') })).code).toBe(4);
  });

  it('asks for the password and the captcha on stdin when not given, and refuses a wrong captcha', async () => {
    const args = ['login', '--server', server, '--tenant', 'demo', '--user', 'admin'];
    const asked = await run(args, { stdin: `${DEMO_PASSWORD}\n8888\n` });
    expect(asked.stderr).toMatch(/Password for admin: /);
    expect(asked.stderr).toMatch(/The login captcha is in .*captcha\.png/);
    expect(asked.code).toBe(0);
    // Without --role the admin acts in their default role: the console is refused, and told why.
    const refused = await run(['get', 'users']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error 40303: .*log in with --role/);

    const wrong = await run([...loginArgs('admin').slice(0, -1), '1234']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^Error 40002: /);
  });

  it('lets a platform operator act on another tenant with --tenant', async () => {
    const platform = join(dir, 'platform.json');
    const login = await run(
      [
        'login',
        '--server',
        server,
        '--tenant',
        'platform',
        '--user',
        'platform',
        '--password',
        DEMO_PASSWORD,
        '--captcha',
        '8888',
      ],
      { config: platform },
    );
    expect(login.code).toBe(0);
    const users = await run(['get', 'users', '--tenant', 'demo', '-q', 'q=cli-user'], { config: platform });
    expect(users.code).toBe(0);
    expect(json<{ username: string }[]>(users).map((u) => u.username)).toEqual(['cli-user']);
  });

  const built = fileURLToPath(new URL('../../../dist/programs/admin/main.js', import.meta.url));
  it.skipIf(!existsSync(built))('runs as a program: the built file answers --help with 0', () => {
    const r = spawnSync(process.execPath, [built, '--help'], { encoding: 'utf8', timeout: 15_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run -s admin -- <command>/);
  });
});

describe('npm run admin login with a second factor', () => {
  it('takes the authenticator code with --otp (a wrong one refused, no session kept)', async () => {
    const username = `otp${Date.now() % 100000}`;
    await ctx.db.execute(sql`
      INSERT INTO users (tenant_id, username, password_hash, name)
      SELECT tenant_id, ${username}, password_hash, ${username} FROM users WHERE username = 'member'`);
    const secret = newTotpSecret();
    await ctx.db.execute(sql`
      INSERT INTO user_factors (tenant_id, user_id, kind, name, secret_cipher, confirmed_at)
      SELECT tenant_id, id, 'totp', 'Phone', ${encryptSecret(ctx.secrets.factorKey, secret)}, now()
      FROM users WHERE username = ${username}`);
    const own = join(dir, 'otp-session.json');
    const wrong = await run(loginArgs(username, ['--otp', '000000']), { config: own });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/40002/);
    const right = await run(loginArgs(username, ['--otp', totpOf(secret).generate()]), { config: own });
    expect(right.stderr).toMatch(/Logged in/);
    expect(right.code).toBe(0);
  });
});
