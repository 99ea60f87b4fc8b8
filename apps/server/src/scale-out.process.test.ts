/**
 * Scale-out (ADR 030): two instances of the built server (`node apps/server/dist/programs/server/main.js`, so
 * `npm run build` first) on one PostgreSQL database, behind Debian's nginx configured by
 * docs/deploy/nginx.conf (test/nginx.ts), with TLS terminated by nginx (a throwaway self-signed
 * certificate the instances trust through NODE_EXTRA_CA_CERTS, for the sign-on validations they
 * make through the public address).
 *
 * Every request goes through nginx, whose round robin alternates between the two instances; a
 * test-only answer header names the instance that answered, so each flow checks that both served
 * it, and the steps that must cross instances (a captcha and the login that spends it, a ticket
 * and its validation, a stream and the notice it announces, a logout and the next request, an
 * OpenID authorization code and its exchange, a refresh token rotated and offered again) check
 * that they did. The OpenID relying party is openid-client, whose requests go through nginx too. The client connects from 127.0.0.2, so the address the instances see can only
 * have come from nginx's X-Forwarded-For.
 *
 * Without /usr/sbin/nginx the file is skipped outside CI (with a message) and fails in CI.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { constants, publicEncrypt, randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from './db/client.js';
import { freePort } from './db/embedded.js';
import { ensureDatabase } from './db/open.js';
import { sha256Hex } from './platform/hash.js';
import { loadSecrets, type Secrets } from './platform/secrets.js';
import { DEMO_PASSWORD, databaseUrl } from './test/harness.js';
import { NGINX, UPSTREAM_HEADER, startNginx, type RunningNginx } from './test/nginx.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/dist/programs/server/main.js');
/** The client's own address: distinct from nginx's (127.0.0.1), as a real client's is. */
const CLIENT_IP = '127.0.0.2';
/**
 * Logouts checked on the other instance at once. Before the bus waited for every instance's
 * confirmation, about one in seven such next requests was still answered from the other
 * instance's cache on this 2-core machine.
 */
const LOGOUT_ROUNDS = 20;

const haveNginx = existsSync(NGINX);
if (!haveNginx && !process.env.CI) {
  console.warn(`scale-out.process.test.ts skipped: ${NGINX} is missing (apt-get install nginx; .ci/run installs it)`);
}

type Name = 'A' | 'B';
interface Instance {
  name: Name;
  port: number;
  child: ChildProcess;
  output(): string;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** The instance nginx sent the request to (null: nginx answered itself). */
  via: Name | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

interface Options {
  method?: string;
  /** A JSON body (signed with the path under /api). */
  body?: Record<string, unknown>;
  form?: Record<string, string>;
  raw?: { type: string; data: Buffer };
  token?: string;
  headers?: Record<string, string>;
  /** The status the step must answer (else it is a failure); default 200; null: any (the caller judges). */
  expect?: number | null;
}

let work: string;
let certPem: string;
let db: Db;
let secrets: Secrets;
let nginx: RunningNginx | undefined;
const instances: Instance[] = [];
let edge: string;
let plainPort: number;
let edgeAgent: HttpsAgent;
let plainAgent: HttpAgent;
/** Every request of the test through nginx, in order. */
const trips: { path: string; status: number; via: Name | null }[] = [];
const failures: string[] = [];
const timings: Record<string, string> = {};

function encrypt(password: string): string {
  return publicEncrypt(
    { key: secrets.rsaPublicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(password, 'utf8'),
  ).toString('base64');
}

const viaOf = (headers: IncomingHttpHeaders): Name | null => {
  const upstream = headers[UPSTREAM_HEADER];
  if (typeof upstream !== 'string') return null;
  const port = Number(upstream.split(':').pop());
  return instances.find((i) => i.port === port)?.name ?? null;
};

function read(res: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(Buffer.concat(chunks)));
    res.on('error', fail);
  });
}

/** One request through nginx (HTTPS), signed as a client signs it when it goes to /api. */
async function call(path: string, o: Options = {}): Promise<Answer> {
  const payload = o.body
    ? { type: 'application/json', data: Buffer.from(JSON.stringify(o.body)) }
    : o.form
      ? { type: 'application/x-www-form-urlencoded', data: Buffer.from(new URLSearchParams(o.form).toString()) }
      : o.raw;
  const headers: Record<string, string> = {
    ...(path.startsWith('/api/') ? signRequest(secrets.signSecret, path, o.body) : {}),
    ...(o.token ? { authorization_front: o.token } : {}),
    ...(payload ? { 'content-type': payload.type, 'content-length': String(payload.data.length) } : {}),
    ...o.headers,
  };
  const method = o.method ?? (payload ? 'POST' : 'GET');
  const answer = await new Promise<Answer>((done, fail) => {
    const req = httpsRequest(`${edge}${path}`, { method, headers, agent: edgeAgent }, (res) => {
      read(res).then((body) => {
        const text = body.toString('utf8');
        done({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text,
          via: viaOf(res.headers),
          json: () => JSON.parse(text),
        });
      }, fail);
    });
    req.on('error', fail);
    req.end(payload?.data);
  });
  trips.push({ path: path.split('?')[0]!, status: answer.status, via: answer.via });
  if (o.expect === null) return answer;
  const want = o.expect ?? 200;
  const envelope = answer.headers['content-type']?.startsWith('application/json') && path.startsWith('/api/');
  const status = envelope ? (answer.json() as { status?: number }).status : undefined;
  if (answer.status !== want || (want === 200 && envelope && status !== 200)) {
    const failure = `${method} ${path} via ${answer.via}: HTTP ${answer.status} (wanted ${want}) ${answer.text.slice(0, 300)}`;
    failures.push(failure);
    throw new Error(failure);
  }
  return answer;
}

/** `promise`, or a failure naming `what` after `ms`. */
const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`${what}: not within ${ms} ms`)), ms).unref()),
  ]);

/** The instances that answered the trips from `from` on. */
const servedSince = (from: number) => new Set(trips.slice(from).map((t) => t.via));

/** An image captcha (answer 8888 in test mode) and a login that spends it: a token. */
async function login(username: string, password = DEMO_PASSWORD, headers: Record<string, string> = {}) {
  const captchaKey = randomBytes(8).toString('hex');
  const captcha = await call(`/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}`);
  const res = await call('/api/auth/jwt/front/token?tenantCode=demo', {
    body: { username, password: encrypt(password), imgvercode: '8888', captchaKey },
    headers,
  });
  // The captcha one instance made is checked by the other.
  expect(res.via).not.toBe(captcha.via);
  return { token: res.json().data as string, via: res.via };
}

const info = (token: string, expectStatus = 200) =>
  call('/api/front/member/front/infoV2', { token, expect: expectStatus });

const sessionOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti as string;

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  return (await db.execute(query)).rows[0] as T;
}

/** A live stream through nginx: its answer head, and what arrived when. */
function openStream(token: string) {
  const path = '/api/front/letter/events';
  let text = '';
  const waiters: { pattern: RegExp; done: (at: number) => void }[] = [];
  let close = () => {};
  let ended = () => {};
  const end = new Promise<void>((done) => (ended = done));
  const head = new Promise<{ status: number; headers: IncomingHttpHeaders; via: Name | null }>((done, fail) => {
    const req = httpsRequest(
      `${edge}${path}`,
      {
        headers: { ...signRequest(secrets.signSecret, path), authorization_front: token, 'accept-encoding': 'gzip' },
        agent: edgeAgent,
      },
      (res) => {
        trips.push({ path, status: res.statusCode ?? 0, via: viaOf(res.headers) });
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          const now = performance.now();
          for (const w of [...waiters]) {
            if (!w.pattern.test(text)) continue;
            waiters.splice(waiters.indexOf(w), 1);
            w.done(now);
          }
        });
        res.on('error', () => undefined);
        res.on('end', () => ended());
        done({ status: res.statusCode ?? 0, headers: res.headers, via: viaOf(res.headers) });
      },
    );
    req.on('error', fail);
    req.end();
    close = () => req.destroy();
  });
  return {
    head,
    /** The server ended the stream. */
    end,
    /** Resolves with the time `pattern` first matched what arrived. */
    waitFor: (pattern: RegExp, ms = 5000) =>
      new Promise<number>((done, fail) => {
        if (pattern.test(text)) return done(performance.now());
        const timer = setTimeout(() => fail(new Error(`stream: no ${pattern} within ${ms} ms; got:\n${text}`)), ms);
        waiters.push({
          pattern,
          done: (at) => {
            clearTimeout(timer);
            done(at);
          },
        });
      }),
    close: () => close(),
  };
}

/** openid-client's requests, through `call` (nginx, the client's address, the record of trips). */
const rpFetch: oidc.CustomFetch = async (url, init) => {
  const u = new URL(url);
  if (u.origin !== edge) throw new Error(`the relying party asked outside the edge: ${url}`);
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  const data = init.body == null ? undefined : Buffer.from(String(init.body));
  const res = await call(u.pathname + u.search, {
    method: init.method,
    headers,
    ...(data ? { raw: { type: headers['content-type'] ?? 'application/x-www-form-urlencoded', data } } : {}),
    expect: null,
  });
  const out = new Headers();
  for (const [k, v] of Object.entries(res.headers)) for (const one of [v ?? []].flat()) out.append(k, one);
  return new Response(res.status === 204 ? null : res.body, { status: res.status, headers: out });
};

/** The instance that answered the last request to `path`. */
const lastAt = (path: string) => trips.findLast((t) => t.path === path)!.via;

/** A browser's cookies by name and path (the sign-on server's and the provider's). */
class Jar {
  private cookies = new Map<string, string>();
  header(path: string) {
    return [...this.cookies.entries()]
      .filter(([key]) => path.startsWith(key.slice(key.indexOf('|') + 1)))
      .map(([key, value]) => `${key.slice(0, key.indexOf('|'))}=${value}`)
      .join('; ');
  }
  take(lines: string[] = []) {
    for (const line of lines) {
      const [pair = '', ...attrs] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const path = attrs.map((a) => /^\s*path=(.*)$/i.exec(a)?.[1]).find(Boolean) ?? '/';
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(`${name}|${path}`);
      else this.cookies.set(`${name}|${path}`, value);
    }
  }
  async go(url: string, o: Options = {}) {
    const u = new URL(url, edge);
    const cookie = this.header(u.pathname);
    const res = await call(u.pathname + u.search, {
      ...o,
      headers: { ...o.headers, ...(cookie ? { cookie } : {}) },
      expect: o.expect ?? null,
    });
    this.take(res.headers['set-cookie']);
    return res;
  }
  /** Follows redirects while they stay on the edge: the last answer, and where the browser is. */
  async follow(url: string) {
    let at = new URL(url, edge);
    for (let i = 0; i < 10; i++) {
      const res = await this.go(at.href);
      if (res.status < 300 || res.status >= 400 || !res.headers.location) return { res, url: at };
      at = new URL(res.headers.location, at);
      if (at.origin !== edge) return { res, url: at };
    }
    throw new Error(`too many redirects, at ${at.href}`);
  }
}

async function startInstance(name: Name, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last of what it printed, for a failure's message.
  let output = '';
  const keep = (c: Buffer) => (output = (output + c.toString()).slice(-20_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const instance: Instance = { name, port, child, output: () => output };
  instances.push(instance);
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`instance ${name} did not start in 60 s:\n${output}`)), 60_000);
    const onData = () => {
      if (!/"msg":"listening"/.test(output)) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      done();
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`instance ${name} exited with ${code}:\n${output}`)));
  });
  return instance;
}

const stopInstance = (i: Instance) =>
  new Promise<void>((done) => {
    if (i.child.exitCode !== null || i.child.signalCode !== null) return done();
    i.child.once('exit', () => done());
    i.child.kill('SIGTERM');
  });

describe.skipIf(!haveNginx && !process.env.CI)('two instances behind nginx on one database', () => {
  beforeAll(async () => {
    if (!haveNginx) throw new Error(`${NGINX} is missing: apt-get install nginx (.ci/run installs it)`);
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" before this test`);
    const started = performance.now();
    work = mkdtempSync(join(tmpdir(), 'portal-scale-out-'));
    // A certificate for 127.0.0.1, which nginx presents and everyone here trusts.
    const cert = { cert: join(work, 'cert.pem'), key: join(work, 'key.pem') };
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        cert.key,
        '-out',
        cert.cert,
      ],
      { stdio: 'ignore' },
    );
    certPem = readFileSync(cert.cert, 'utf8');

    // An empty database: both instances start at once on it, as a first deployment does (the
    // migrations, the demo seed and the secrets are each settled by the database).
    const name = `scale_${randomBytes(5).toString('hex')}`;
    await ensureDatabase(process.env.TEST_PG_ADMIN_URL!, name);
    const url = databaseUrl(name);
    const [tlsPort, plain] = [await freePort(), await freePort()];
    plainPort = plain;
    edge = `https://127.0.0.1:${tlsPort}`;
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      DATA_DIR: join(work, 'data'),
      // Uploads: one directory both instances see.
      FILES_DIR: join(work, 'files'),
      PUBLIC_URL: edge,
      SSO_URL: edge,
      TRUST_PROXY: '1',
      NODE_EXTRA_CA_CERTS: cert.cert,
      PORTAL_TEST_CAPTCHA: '1',
      DEMO_PASSWORD,
      LOGIN_RATE_PER_MINUTE: '1000',
      LOG_LEVEL: 'info',
    };
    await Promise.all([startInstance('A', env), startInstance('B', env)]);
    timings.instances = `${Math.round(performance.now() - started)} ms`;
    db = connect(url, 2);
    secrets = await loadSecrets(db);

    const [a, b] = instances.sort((x, y) => x.name.localeCompare(y.name)) as [Instance, Instance];
    nginx = await startNginx({ tls: tlsPort, plain, upstreams: [a.port, b.port] }, cert);
    edgeAgent = new HttpsAgent({ ca: certPem, keepAlive: true, localAddress: CLIENT_IP, maxSockets: 4 });
    plainAgent = new HttpAgent({ localAddress: CLIENT_IP });
    timings.setup = `${Math.round(performance.now() - started)} ms`;
  });

  afterAll(async () => {
    // What the processes said, when something failed.
    if (failures.length > 0) {
      for (const i of instances) console.log(`instance ${i.name}:\n${i.output().slice(-4000)}`);
      console.log(`nginx:\n${nginx?.log().slice(-4000)}`);
    }
    edgeAgent?.destroy();
    plainAgent?.destroy();
    await nginx?.stop();
    await Promise.all(instances.map(stopInstance));
    await db?.$client.end();
    if (work) rmSync(work, { recursive: true, force: true });
    const by = (n: Name | null) => trips.filter((t) => t.via === n).length;
    const took = Object.entries(timings).map(([k, v]) => `${k} ${v}`);
    console.log(
      `scale-out: ${trips.length} requests through nginx (A ${by('A')}, B ${by('B')}, nginx itself ${by(null)}), ` +
        `${failures.length} failures; ${took.join('; ')}`,
    );
  });

  it('signs in with a captcha, each instance trusting what the other wrote; the client address comes from nginx', async () => {
    const from = trips.length;
    // A client's own X-Forwarded-For is replaced by nginx, never believed.
    const { token } = await login('member', DEMO_PASSWORD, { 'x-forwarded-for': '203.0.113.9' });
    await info(token);
    await info(token);
    expect(servedSince(from)).toEqual(new Set(['A', 'B']));
    const session = await one<{ ip: string }>(sql`SELECT ip FROM sessions WHERE id = ${sessionOf(token)}`);
    expect(session.ip).toBe(CLIENT_IP);
    // A wrong captcha answer is refused whichever instance checks it.
    const captchaKey = randomBytes(8).toString('hex');
    await call(`/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}`);
    const wrong = await call('/api/auth/jwt/front/token?tenantCode=demo', {
      body: { username: 'member', password: encrypt(DEMO_PASSWORD), imgvercode: '1234', captchaKey },
      expect: 400,
    });
    expect(wrong.json().status).toBe(40002);
  });

  it('signs on: the sign-on page, its ticket validated by the other instance, then single sign-on without a password', async () => {
    const from = trips.length;
    const service = `${edge}/center/login?redirect=%2Fhome`;
    const page = await call(`/cas/login?${new URLSearchParams({ service })}`);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const captchaKey = randomBytes(8).toString('hex');
    await call(`/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}`);
    const form = await call('/cas/login', {
      form: {
        username: 'member',
        password: encrypt(DEMO_PASSWORD),
        imgvercode: '8888',
        captchaKey,
        service,
        tenantCode: 'demo',
      },
      expect: 303,
    });
    const cookie = /CASTGC=([^;]+)/.exec(String(form.headers['set-cookie']))![1]!;
    // TLS ends at nginx: PUBLIC_URL is https, so the sign-on cookie is Secure.
    expect(String(form.headers['set-cookie'])).toContain('Secure');
    const ticket = new URL(form.headers.location!).searchParams.get('ticket')!;
    // The portal exchanges the ticket: that instance validates it at SSO_URL, through nginx.
    const exchange = (st: string) =>
      call(`/api/auth/jwt/getTokenBySt?${new URLSearchParams({ st, service })}`, { method: 'POST' });
    const first = await exchange(ticket);
    expect(first.via).not.toBe(form.via);
    const token = first.json().data as string;
    await info(token);
    await info(token);

    // Single sign-on: the cookie alone gets a new ticket, from whichever instance.
    const again = await call(`/cas/login?${new URLSearchParams({ service })}`, {
      headers: { cookie: `CASTGC=${cookie}` },
      expect: 302,
    });
    const second = await exchange(new URL(again.headers.location!).searchParams.get('ticket')!);
    expect(second.via).not.toBe(again.via);
    const token2 = second.json().data as string;
    await info(token2);
    await info(token2);
    expect(servedSince(from)).toEqual(new Set(['A', 'B']));

    // Logout at the sign-on server: its single-logout requests reach the portal through nginx,
    // and both sessions it opened are refused by both instances.
    await call(`/cas/logout?${new URLSearchParams({ service: `${edge}/center/` })}`, {
      headers: { cookie: `CASTGC=${cookie}` },
      expect: 302,
    });
    const refusedBy = new Set<Name | null>();
    for (const t of [token, token, token2, token2]) refusedBy.add((await info(t, 401)).via);
    expect(refusedBy).toEqual(new Set(['A', 'B']));
  });

  it('registers a company with an SMS code, and its member signs in', async () => {
    const from = trips.length;
    const mobile = `137${String(randomInt(1e8)).padStart(8, '0')}`;
    const number = randomBytes(8).toString('hex');
    await call(`/api/front/account/auth/kaptcha?number=${number}`);
    await call('/api/front/member/sendPhoneCode', {
      body: { phone: mobile, type: 2, imageCode: '8888', number, tenantCode: 'demo' },
    });
    const sms = await one<{ body: string }>(
      sql`SELECT body FROM sms_outbox WHERE phone = ${mobile} ORDER BY id DESC LIMIT 1`,
    );
    const smsCode = /验证码是(\d{6})/.exec(sms.body)![1]!;
    const password = 'Zq9#mVt2x';
    await call('/api/front/member/registerMemberByGyszmf', {
      body: {
        companyName: `扩展测试${mobile}有限公司`,
        industryCode: '6513',
        country: '110101',
        contacts: '李雷',
        position: '总经理',
        tenantCode: 'demo',
        password: encrypt(password),
        mobile,
        smsCode,
        hostUrl: `${edge}/center/user/register`,
      },
    });
    const { token } = await login(mobile, password);
    expect((await info(token)).json().data).toMatchObject({ username: mobile });
    expect(servedSince(from)).toEqual(new Set(['A', 'B']));
  });

  it('switches context: the new token works on both instances, the old one on neither', async () => {
    const from = trips.length;
    const { token: old } = await login('member');
    const role = await one<{ id: number }>(
      sql`SELECT r.id FROM roles r JOIN tenants t ON t.id = r.tenant_id WHERE t.code = 'demo' AND r.code = 'ent_admin'`,
    );
    const res = await call('/api/front/member/switchContext', { body: { roleId: String(role.id) }, token: old });
    const fresh = res.json().data as string;
    const refusedBy = new Set([(await info(old, 401)).via, (await info(old, 401)).via]);
    expect(refusedBy).toEqual(new Set(['A', 'B']));
    for (let i = 0; i < 2; i++) expect((await info(fresh)).json().data).toMatchObject({ roleId: String(role.id) });
    expect(servedSince(from)).toEqual(new Set(['A', 'B']));
  });

  it('publishes a notice on one instance; the stream open on the other tells it at once, through nginx', async () => {
    const from = trips.length;
    const { token: member } = await login('member');
    const { token: admin } = await login('admin');
    const operatorRole = await one<{ id: number }>(
      sql`SELECT r.id FROM roles r JOIN tenants t ON t.id = r.tenant_id WHERE t.code = 'demo' AND r.code = 'park_operator'`,
    );
    const operator = (
      await call('/api/front/member/switchContext', { body: { roleId: String(operatorRole.id) }, token: admin })
    ).json().data as string;
    const me = await one<{ id: number }>(sql`SELECT id FROM users WHERE username = 'member'`);

    const stream = openStream(member);
    const head = await stream.head;
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    // Asked with Accept-Encoding: gzip, and still not compressed (gzip would hold events back).
    expect(head.headers['content-encoding']).toBeUndefined();
    // The first event arrives while the stream stays open: nginx passes it on unbuffered.
    await stream.waitFor(/event: hello\n/);

    const published = await call('/api/admin/notices', {
      body: {
        title: '扩容演练通知',
        remark: '<p>两个实例，一个数据库</p>',
        replyWay: 2,
        audience: { kind: 'users', ids: [Number(me.id)] },
      },
      token: operator,
    });
    const answeredAt = performance.now();
    expect(published.via).not.toBe(head.via);
    const noticeId = published.json().data.id as string;
    const toldAt = await stream.waitFor(
      new RegExp(`event: notice\\ndata: \\{"unread":\\d+,"noticeId":"${noticeId}"\\}`),
    );
    timings['notice event after publish answer'] = `${(toldAt - answeredAt).toFixed(1)} ms`;

    // The member reads and answers it, with an attachment larger than nginx's default body limit.
    const listed = await call('/api/front/letter/replyPage', { body: { title: '扩容演练' }, token: member });
    expect(listed.json().data.rows.map((n: { id: string }) => n.id)).toEqual([noticeId]);
    await call(`/api/front/letter/replyInfo/${noticeId}`, { token: member });
    await call('/api/front/letter/editAnswerStatus', { body: { id: noticeId, action: 'read' }, token: member });
    const png = Buffer.concat([
      Buffer.from(
        '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
          '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
        'hex',
      ),
      Buffer.alloc(2 * 1024 * 1024),
    ]);
    const boundary = '----scale-out-boundary';
    const upload = await call('/api/front/letter/uploadReplyFile', {
      raw: {
        type: `multipart/form-data; boundary=${boundary}`,
        data: Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="plan.png"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
          ),
          png,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      },
      token: member,
    });
    const file = { addr: upload.json().data as string, fileName: 'plan.png' };
    const reply = await call('/api/front/letter/reply', {
      body: { id: noticeId, replyName: '张敏', content: '收到，两台都行', fileList: [file] },
      token: member,
    });
    expect(reply.via).not.toBe(upload.via);
    const detail = (await call(`/api/front/letter/replyInfo/${noticeId}`, { token: member })).json().data;
    expect(detail).toMatchObject({ readStatus: 1, answerStatus: 1, replyContent: '收到，两台都行' });
    // The file one instance stored is served by both (FILES_DIR is shared).
    const url = detail.replyFile[0].url as string;
    const downloads = [await call(url), await call(url)];
    expect(new Set(downloads.map((d) => d.via))).toEqual(new Set(['A', 'B']));
    for (const d of downloads) expect(d.body.equals(png)).toBe(true);
    const who = await call(`/api/admin/notices/${noticeId}/recipients`, { token: operator });
    expect(who.json().data.records).toEqual([
      expect.objectContaining({ username: 'member', readStatus: 1, answerStatus: 1 }),
    ]);

    // Logging the member out ends the stream, on whichever instance it is open.
    await call('/api/auth/jwt/logout', { method: 'POST', token: member });
    await within(stream.end, 3000, 'the end of the stream');
    stream.close();
    expect(servedSince(from)).toEqual(new Set(['A', 'B']));
  });

  it('refuses a token on the other instance at once after a logout', async () => {
    const from = trips.length;
    const latencies: number[] = [];
    const logouts: number[] = [];
    for (let round = 0; round < LOGOUT_ROUNDS; round++) {
      const { token } = await login('member');
      // Both instances have the session in memory now.
      const warm = [await info(token), await info(token)];
      expect(new Set(warm.map((w) => w.via))).toEqual(new Set(['A', 'B']));
      const asked = performance.now();
      const out = await call('/api/auth/jwt/logout', { method: 'POST', token });
      const loggedOutAt = performance.now();
      logouts.push(loggedOutAt - asked);
      // No wait: the very next request, which nginx sends to the other instance.
      const next = await info(token, 401);
      latencies.push(performance.now() - loggedOutAt);
      expect(next.via).not.toBe(out.via);
      expect((await info(token, 401)).via).toBe(out.via);
    }
    const spread = (list: number[]) => {
      const sorted = [...list].sort((x, y) => x - y);
      return `${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)} ms, median ${sorted[sorted.length >> 1]!.toFixed(1)}`;
    };
    timings['logout answered in'] = spread(logouts);
    timings['its token refused by the other instance'] =
      `on the first request each time (${LOGOUT_ROUNDS} rounds), answered ${spread(latencies)} after the logout's answer`;
    expect(servedSince(from)).toEqual(new Set(['A', 'B']));
  });

  it('OpenID Connect: one key set, a code made on one instance and spent on the other, refresh, userinfo, logout', async () => {
    const from = trips.length;
    // A relying party of the demo tenant, with a back-channel logout address of its own.
    const logoutTokens: string[] = [];
    const rpServer = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        logoutTokens.push(new URLSearchParams(body).get('logout_token') ?? '');
        res.writeHead(204).end();
      });
    });
    const rpPort = await freePort();
    await new Promise<void>((done) => rpServer.listen(rpPort, '127.0.0.1', done));
    try {
      const clientId = `scale_${randomBytes(6).toString('hex')}`;
      const secret = randomBytes(32).toString('base64url');
      const redirect = 'https://rp.test/callback';
      await db.execute(sql`
        INSERT INTO oidc_clients (tenant_id, client_id, name, translations, confidential, secret_hash, secret_set_at,
          grant_types, redirect_uris, backchannel_logout_uri, scopes, first_party, id_token_alg, enabled)
        SELECT id, ${clientId}, '扩容测试应用', '{"en":{"name":"Scale-out app"}}'::jsonb, true, ${sha256Hex(secret)}, now(),
          '{authorization_code,refresh_token}', ${`{${redirect}}`}::text[], ${`http://127.0.0.1:${rpPort}/logout`},
          '{openid,profile,roles}', true, 'ES256', true
        FROM tenants WHERE code = 'demo'`);
      const issuer = `${edge}/oidc/demo`;

      // Both instances build the tenant's provider at the same moment: one set of signing keys.
      const jwks = await Promise.all([call('/oidc/demo/jwks'), call('/oidc/demo/jwks')]);
      expect(new Set(jwks.map((j) => j.via))).toEqual(new Set(['A', 'B']));
      expect(jwks[0].json()).toEqual(jwks[1].json());
      expect(
        jwks[0]
          .json()
          .keys.map((k: { alg: string }) => k.alg)
          .sort(),
      ).toEqual(['ES256', 'RS256']);

      const config = await oidc.discovery(new URL(issuer), clientId, secret, oidc.ClientSecretBasic(secret), {
        [oidc.customFetch]: rpFetch,
      });
      const jar = new Jar();
      const authorize = async () => {
        const verifier = oidc.randomPKCECodeVerifier();
        const checks = {
          pkceCodeVerifier: verifier,
          expectedState: oidc.randomState(),
          expectedNonce: oidc.randomNonce(),
        };
        const url = oidc.buildAuthorizationUrl(config, {
          redirect_uri: redirect,
          scope: 'openid profile roles',
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: checks.expectedState,
          nonce: checks.expectedNonce,
        });
        return { checks, end: await jar.follow(url.href) };
      };
      /** The code, from the instance that made it, spent at the token endpoint of the other. */
      const exchange = async (a: Awaited<ReturnType<typeof authorize>>) => {
        expect(a.end.url.href.startsWith(`${redirect}?`)).toBe(true);
        const tokens = await oidc.authorizationCodeGrant(config, a.end.url, a.checks);
        expect(lastAt('/oidc/demo/token')).not.toBe(a.end.res.via);
        return tokens;
      };

      // No sign-on session yet: the sign-on page, whose form returns to the interaction.
      const first = await authorize();
      expect(first.end.url.pathname).toBe('/cas/login');
      const service = first.end.url.searchParams.get('service')!;
      const captchaKey = randomBytes(8).toString('hex');
      await call(`/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}`);
      const form = await jar.go('/cas/login', {
        form: {
          username: 'member',
          password: encrypt(DEMO_PASSWORD),
          imgvercode: '8888',
          captchaKey,
          service,
          tenantCode: 'demo',
        },
        expect: 303,
      });
      expect(form.headers.location).toBe(service);
      const tokens = await exchange({ ...first, end: await jar.follow(service) });
      const sub = tokens.claims()!.sub;
      const exchangedVia = lastAt('/oidc/demo/token');

      // Refresh on the other instance; userinfo on both.
      const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      const rotatedVia = lastAt('/oidc/demo/token');
      expect(rotatedVia).not.toBe(exchangedVia);
      expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
      const userinfoBy = new Set<Name | null>();
      for (let i = 0; i < 2; i++) {
        const info = await oidc.fetchUserInfo(config, rotated.access_token, sub);
        expect(info).toMatchObject({ sub, tenant: 'demo', preferred_username: 'member' });
        userinfoBy.add(lastAt('/oidc/demo/me'));
      }
      expect(userinfoBy).toEqual(new Set(['A', 'B']));
      // The spent refresh token, offered to the instance that did not rotate it: refused, and the
      // grant revoked (its new refresh token and access token refused too).
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect(lastAt('/oidc/demo/token')).not.toBe(rotatedVia);
      await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(oidc.fetchUserInfo(config, rotated.access_token, sub)).rejects.toMatchObject({ status: 401 });

      // The live sign-on session signs in again without a form, whichever instance asks.
      const again = await exchange(await authorize());
      await oidc.fetchUserInfo(config, again.access_token, sub);

      // A logout at the sign-on server: back-channel logout to the client (a logout token signed
      // with the shared keys), and the very next request, on the other instance, refuses the
      // access token; the refresh token is refused too.
      const out = await jar.go(`/cas/logout?${new URLSearchParams({ service: `${edge}/center/` })}`, { expect: 302 });
      expect(logoutTokens).toHaveLength(1);
      const { payload } = await jwtVerify(logoutTokens[0]!, createLocalJWKSet(jwks[0].json()), {
        issuer,
        audience: clientId,
      });
      expect(payload).toMatchObject({ sub, sid: again.claims()!.sid });
      await expect(oidc.fetchUserInfo(config, again.access_token, sub)).rejects.toMatchObject({ status: 401 });
      expect(lastAt('/oidc/demo/me')).not.toBe(out.via);
      await expect(oidc.refreshTokenGrant(config, again.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect(lastAt('/oidc/demo/token')).toBe(out.via);
      expect(servedSince(from)).toEqual(new Set(['A', 'B']));
    } finally {
      await new Promise((done) => rpServer.close(done));
    }
  });

  it('keeps health, readiness and metrics private, redirects plain HTTP, limits bodies, compresses JSON', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/healthz?x=1', '/%68ealthz']) {
      const res = await call(path, { expect: 403 });
      expect(res.via, path).toBeNull();
    }
    // The instances themselves answer them (for a load balancer's checks on the private side).
    for (const i of instances) {
      const res = await fetch(`http://127.0.0.1:${i.port}/readyz`);
      expect(res.status).toBe(200);
    }
    const redirect = await new Promise<IncomingMessage>((done, fail) =>
      httpRequest(`http://127.0.0.1:${plainPort}/center/?tc=demo`, { agent: plainAgent }, done).on('error', fail).end(),
    );
    redirect.resume();
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('https://127.0.0.1/center/?tc=demo');
    // A large JSON body stops at nginx; the upload route above took 2 MiB.
    const big = await call('/api/front/letter/replyPage', {
      body: { title: 'x'.repeat(2 * 1024 * 1024) },
      expect: 413,
    });
    expect(big.via).toBeNull();
    const doc = await call('/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(doc.body).toString()).openapi).toMatch(/^3\./);
    const tls = await call('/center/config.js');
    expect(tls.headers['strict-transport-security']).toBe('max-age=63072000');
  });

  it('answered every request of every flow: no failures, both instances served', () => {
    expect(failures).toEqual([]);
    expect(trips.filter((t) => t.status >= 500)).toEqual([]);
    const by = (n: Name) => trips.filter((t) => t.via === n).length;
    // Round robin: within a few requests of an even split (the instances' own validations
    // through nginx take turns too).
    expect(Math.abs(by('A') - by('B'))).toBeLessThanOrEqual(8);
  });
});
