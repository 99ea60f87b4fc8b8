/**
 * The name grammar (ADR 032) at every door a name comes in by: registration (a member's user name,
 * a company's contact person), the operators' API (a user created, edited or renamed; a tenant's
 * first operator), a nickname, sign-in (read as a write reads it), and the admin CLI, which checks
 * before sending. Names stored before the grammar are reported by the API, at login of the CLI
 * and at start-up of the built server, and are never renamed.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as adminCli } from './programs/admin/main.js';
import { freePort } from './db/embedded.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from './test/harness.js';

const PASSWORD = 'Zq9#mVt2x';
const MEMBER = '/api/front/member/registerMember';
const COMPANY = '/api/front/member/registerMemberByGyszmf';

let ctx: TestContext;
let operator: string;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '100000' });
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
});
afterAll(async () => ctx?.close());

let mobiles = 0;
const nextMobile = () => `1371234${String(5000 + mobiles++).padStart(4, '0')}`;

/** Asks for a registration code for `phone` and reads it from the outbox, as its owner would. */
async function smsCode(phone: string): Promise<string> {
  const number = randomBytes(8).toString('hex');
  await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
  const res = await ctx.call({
    url: '/api/front/member/sendPhoneCode',
    body: { phone, type: 2, imageCode: '8888', number, tenantCode: 'demo' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const out = await ctx.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id DESC LIMIT 1`,
  );
  return /验证码是(\d{6})/.exec(out.rows[0]!.body)![1]!;
}

async function registerMember(username: string, query = '') {
  const mobile = nextMobile();
  return ctx.call({
    url: `${MEMBER}${query}`,
    body: { tenantCode: 'demo', username, password: ctx.encrypt(PASSWORD), mobile, smsCode: await smsCode(mobile) },
  });
}

const usersNamed = async (username: string) =>
  Number(
    (await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM users WHERE username = ${username}`)).rows[0]!.n,
  );

describe('registration', () => {
  it.each([
    ['admin\nzz', '用户名不能包含换行、控制字符或不可见字符'],
    ['a\rb', '用户名不能包含换行、控制字符或不可见字符'],
    ['a\u2028b', '用户名不能包含换行、控制字符或不可见字符'],
    ['a\u2029b', '用户名不能包含换行、控制字符或不可见字符'],
    ['\u202eadmin', '用户名不能包含换行、控制字符或不可见字符'],
    ['ad\u200bmin', '用户名不能包含换行、控制字符或不可见字符'],
    ['ad\u00a0min', '用户名不能包含换行、控制字符或不可见字符'],
    ['zhang  wei', '用户名不能包含连续的空格'],
    ['a<b>', '用户名只能包含文字、数字、空格和 . _ - @ + · 符号'],
    ['x', '用户名长度应为2到64个字符'],
  ])('refuses the user name %j with a 400 that says why, and writes no user', async (username, message) => {
    const res = await registerMember(username);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ status: 400, message, data: null });
    expect(await usersNamed(username)).toBe(0);
  });

  it('says it in English when asked', async () => {
    const res = await registerMember('admin\nzz', '?language=eng');
    expect(res.json().message).toBe(
      'A username cannot contain line breaks, control characters or invisible characters',
    );
  });

  it('takes Chinese and other scripts, and keeps the name in NFC; sign-in reads a typed name the same way', async () => {
    for (const username of ['王小明', 'José Álvarez', '买买提·艾力']) {
      expect((await registerMember(username)).json(), username).toMatchObject({ status: 200 });
      expect(await ctx.login(username, PASSWORD)).toMatch(/\./);
    }
    // Typed decomposed (e + combining acute), kept composed: one account whichever way it is typed.
    const decomposed = 'rene\u0301e';
    expect((await registerMember(` ${decomposed} `)).json()).toMatchObject({ status: 200 });
    expect(await usersNamed('ren\u00e9e')).toBe(1);
    expect(await usersNamed(decomposed)).toBe(0);
    expect(await ctx.login(decomposed, PASSWORD)).toMatch(/\./);
    expect(await ctx.login('ren\u00e9e', PASSWORD)).toMatch(/\./);
    // And the one-account rule sees them as one name.
    expect((await registerMember('Rene\u0301e')).json()).toMatchObject({ status: 409 });
  });

  it('is one account whatever width or compatibility form a name is typed in, and refuses letters that pass for another', async () => {
    // Full-width and mathematical forms are the plain letters: member's name is taken, and member
    // signs in typing it so.
    for (const twin of ['ｍｅｍｂｅｒ', '𝐦𝐞𝐦𝐛𝐞𝐫']) {
      expect((await registerMember(twin)).json(), twin).toMatchObject({ status: 409 });
    }
    expect(await ctx.login('ｍｅｍｂｅｒ', DEMO_PASSWORD)).toMatch(/\./);
    // ı and ß are read as i and ss by clients that ignore case (Java's equalsIgnoreCase), and
    // a dot on an i shows as an i: none can pass for admin.
    for (const twin of ['admın', 'admi\u0307n', 'maß']) {
      const res = await registerMember(twin);
      expect(res.json(), twin).toEqual({
        status: 400,
        message: '用户名不能包含易被当作英文字母的字符（如 ı、ß，或加在英文字母上的附加符号）',
        data: null,
      });
      expect(await usersNamed(twin)).toBe(0);
    }
  });

  it("refuses a company's contact person who is not one line of visible text", async () => {
    const mobile = nextMobile();
    const res = await ctx.call({
      url: COMPANY,
      body: {
        companyName: `名称规则${mobile}有限公司`,
        industryCode: '6513',
        country: '110101',
        contacts: '李\u2028雷',
        position: '总经理',
        tenantCode: 'demo',
        password: ctx.encrypt(PASSWORD),
        mobile,
        smsCode: await smsCode(mobile),
      },
    });
    expect(res.json()).toEqual({ status: 400, message: '名称不能包含换行、控制字符或不可见字符', data: null });
  });
});

describe("the operators' API", () => {
  const create = (body: Record<string, unknown>, token = operator) =>
    ctx.call({
      url: '/api/admin/users',
      body: { name: '新用户', password: ctx.encrypt(PASSWORD), ...body },
      token,
    });

  it.each([
    [{ username: 'ops\nroot' }, '用户名不能包含换行、控制字符或不可见字符'],
    [{ username: 'ops\u2029root' }, '用户名不能包含换行、控制字符或不可见字符'],
    [{ username: 'o\u200dps' }, '用户名不能包含换行、控制字符或不可见字符'],
    [{ username: 'ops"root' }, '用户名只能包含文字、数字、空格和 . _ - @ + · 符号'],
    [{ username: 'newops', name: '\u202e新用户' }, '名称不能包含换行、控制字符或不可见字符'],
    [{ username: 'newops', name: '新\n用户' }, '名称不能包含换行、控制字符或不可见字符'],
    [{ username: 'newops', nameEn: 'New\u2028User' }, '名称不能包含换行、控制字符或不可见字符'],
  ])('refuses to create a user with %j', async (body, message) => {
    const res = await create(body);
    expect(res.json()).toEqual({ status: 400, message, data: null });
    expect(await usersNamed(String(body.username))).toBe(0);
  });

  it('refuses such names in an edit, and renames a user, who then signs in with the new name', async () => {
    const created = await create({ username: 'rename-me', roleIds: [] });
    expect(created.json()).toMatchObject({ status: 200 });
    const id = created.json().data as string;
    const patch = (body: Record<string, unknown>) =>
      ctx.call({ method: 'PATCH', url: `/api/admin/users/${id}`, body, token: operator });
    expect((await patch({ name: 'a\u2066b' })).json().message).toBe('名称不能包含换行、控制字符或不可见字符');
    expect((await patch({ username: 'admin\nzz' })).json().message).toBe('用户名不能包含换行、控制字符或不可见字符');
    expect((await patch({ username: 'ADMIN' })).json()).toMatchObject({ status: 409, message: '该用户名已被注册' });
    // Never their own sign-in name: another operator renames them.
    const me = (await ctx.call({ url: '/api/front/member/front/infoV2', token: operator })).json().data as {
      userId: string;
    };
    const self = await ctx.call({
      method: 'PATCH',
      url: `/api/admin/users/${me.userId}`,
      body: { username: 'admin2' },
      token: operator,
    });
    expect(self.json()).toMatchObject({ status: 400 });
    expect(await usersNamed('admin')).toBe(1);
    expect((await patch({ username: ' 改名后 ' })).json()).toMatchObject({ status: 200 });
    expect(await usersNamed('改名后')).toBe(1);
    expect(await ctx.login('改名后', PASSWORD)).toMatch(/\./);
  });

  it("refuses a new tenant's first operator with such a name", async () => {
    const platform = await ctx.asRole(await ctx.login('platform', DEMO_PASSWORD, 'platform'), 'park_operator');
    const res = await ctx.call({
      url: '/api/admin/tenants',
      body: {
        code: 'park9',
        name: '九号园区',
        operator: { username: 'ops\nadmin', name: '运营', password: ctx.encrypt(PASSWORD) },
      },
      token: platform,
    });
    expect(res.json()).toEqual({ status: 400, message: '用户名不能包含换行、控制字符或不可见字符', data: null });
    const tenants = await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM tenants WHERE code = 'park9'`);
    expect(Number(tenants.rows[0]!.n)).toBe(0);
  });

  it('refuses a nickname with a bidi control or a line break', async () => {
    const token = await ctx.login('member');
    const me = (await ctx.call({ url: '/api/front/member/front/infoV2', token })).json().data as { userId: string };
    for (const nickName of ['\u202e昵称', '昵\n称']) {
      const res = await ctx.call({
        url: '/api/front/member/updateNickName',
        body: { userId: me.userId, nickName },
        token,
      });
      expect(res.json(), nickName).toEqual({
        status: 400,
        message: '名称不能包含换行、控制字符或不可见字符',
        data: null,
      });
    }
  });
});

/** A user with names stored as an installation from before the grammar may hold them. */
async function storedUser(username: string, name: string): Promise<number> {
  const res = await ctx.db.execute<{ id: number }>(sql`
    INSERT INTO users (tenant_id, username, password_hash, name)
    SELECT t.id, ${username}, 'x', ${name} FROM tenants t WHERE t.code = 'demo' RETURNING id`);
  return Number(res.rows[0]!.id);
}

describe('names stored before the grammar', () => {
  let ids: number[];
  beforeAll(async () => {
    ids = [await storedUser('legacy\nadmin', '旧用户'), await storedUser('legacy-two', '旧\u202e用户')];
  });

  it("are listed for the tenant's operators, with what is wrong, and left as they are", async () => {
    const res = await ctx.call({ url: '/api/admin/users/name-issues', token: operator });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { total: number; records: Array<Record<string, unknown>> };
    expect(data.total).toBe(2);
    expect(data.records).toEqual([
      {
        id: String(ids[0]),
        username: 'legacy\nadmin',
        name: '旧用户',
        issues: [{ field: 'username', problem: 'lineBreak' }],
      },
      {
        id: String(ids[1]),
        username: 'legacy-two',
        name: '旧\u202e用户',
        issues: [{ field: 'name', problem: 'invisible' }],
      },
    ]);
    expect(await usersNamed('legacy\nadmin')).toBe(1);
    // Not a member's business.
    expect((await ctx.call({ url: '/api/admin/users/name-issues', token: await ctx.login('member') })).statusCode).toBe(
      403,
    );
  });

  it('are told to an operator at login of the admin CLI; a name the CLI sends is checked before it is sent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-names-cli-'));
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const server = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const run = async (args: string[]) => {
      let stdout = '';
      let stderr = '';
      const stdin = new PassThrough();
      stdin.end('');
      const code = await adminCli(args, {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
        stdin,
        env: {},
        cwd: dir,
        configPath: join(dir, 'session.json'),
      });
      return { code, stdout, stderr };
    };
    try {
      const login = await run([
        'login',
        '--server',
        server,
        '--tenant',
        'demo',
        '--user',
        'admin',
        '--password',
        DEMO_PASSWORD,
        '--captcha',
        '8888',
        '--role',
        'park_operator',
      ]);
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toContain(
        `Warning: 2 user(s) of this tenant have stored names that break the name rule (ADR 032): ids ${ids[0]}, ${ids[1]}.`,
      );
      const listed = await run(['get', 'users/name-issues']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject({ total: 2 });

      const before = Number((await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM audit_log`)).rows[0]!.n);
      const refused = await run([
        'create',
        'users',
        '-s',
        'username=ops\u2028root',
        '-s',
        'name=Ops',
        '-s',
        `password=${PASSWORD}`,
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^username "ops\\u2028root" holds a line break: not a user name/);
      const renamed = await run(['update', `users/${ids[0]}`, '-s', 'name=a\u200bb']);
      expect(renamed.code).toBe(2);
      expect(renamed.stderr).toMatch(/^name "a\\u200bb" holds an invisible or format character/);
      // Nothing reached the server: no change, no audit entry.
      const after = Number((await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM audit_log`)).rows[0]!.n);
      expect(after).toBe(before);
      // The rename that mends the name goes through.
      expect((await run(['update', `users/${ids[0]}`, '-s', 'username=legacy-admin'])).code).toBe(0);
      expect(await usersNamed('legacy-admin')).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the built server at start-up', () => {
  const MAIN = resolve(import.meta.dirname, '../dist/programs/server/main.js');

  it('warns of stored names that break the grammar, naming how many and which users, and renames none', async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" before this test`);
    const id = await storedUser('boot\u2028check', '启动检查');
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: ctx.url,
        PORTAL_TEST_CAPTCHA: '1',
        DEMO_PASSWORD,
        LOG_LEVEL: 'info',
        DATA_DIR: join(tmpdir(), `names-data-${randomBytes(4).toString('hex')}`),
        FILES_DIR: join(tmpdir(), `names-files-${randomBytes(4).toString('hex')}`),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const line = await new Promise<Record<string, unknown>>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no warning in 60 s:\n${output}`)), 60_000);
        child.stdout.on('data', () => {
          const found = output.split('\n').find((l) => l.includes('break the name rule'));
          if (!found) return;
          clearTimeout(timer);
          done(JSON.parse(found) as Record<string, unknown>);
        });
        child.once('exit', (code) => fail(new Error(`exited with ${code}:\n${output}`)));
      });
      expect(line).toMatchObject({ level: 40, users: 2, ids: [expect.any(Number), id] });
      expect(line.msg).toMatch(
        /^2 stored user name\(s\) break the name rule \(ADR 032\) and are kept as they are: user ids \d+, \d+\./,
      );
      expect(await usersNamed('boot\u2028check')).toBe(1);
    } finally {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  }, 90_000);
});
