/**
 * Session control and the login history through the real app, on two instances of one database:
 * a person's sign-ins (listed, one ended: refused on the OTHER instance at its next request, its
 * live stream closed; all others ended), a sign-on session ended from "my sessions" reaching a CAS
 * client by single logout, operators' online users (their tenant only), and the history (every
 * outcome, search, export, retention, a new device told).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { insertDemo } from '../../db/demo/seed.js';
import { sessionIndexOf } from '../../platform/cas-client.js';
import { hashPassword } from '../../platform/passwords.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

let a: TestContext;
let b: TestContext;
let demoId: number;
let otherId: number;
const ENV = { LOGIN_RATE_PER_MINUTE: '100000', PUBLIC_URL: 'http://portal.test', TRUST_PROXY: 'true' };

beforeAll(async () => {
  a = await createTestContext(ENV);
  b = await createTestContext(ENV, { databaseUrl: a.url });
  otherId = await a.db.transaction(async (tx) =>
    insertDemo(tx, await hashPassword(DEMO_PASSWORD), { code: 'other', name: '另一园区' }),
  );
  demoId = Number((await a.db.execute<{ id: string }>(sql`SELECT id FROM tenants WHERE code = 'demo'`)).rows[0]!.id);
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const data = <T>(res: { json(): unknown }) => (res.json() as { data: T }).data;
const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;

/** A portal sign-in with a browser's user agent, on an instance. */
async function login(
  on: TestContext,
  opts: { username?: string; password?: string; tenant?: string; agent?: string; ip?: string } = {},
) {
  const captchaKey = randomBytes(8).toString('hex');
  await on.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  const res = await on.call({
    url: `/api/auth/jwt/front/token?tenantCode=${opts.tenant ?? 'demo'}`,
    body: {
      username: opts.username ?? 'member',
      password: on.encrypt(opts.password ?? DEMO_PASSWORD),
      imgvercode: '8888',
      captchaKey,
    },
    headers: { 'user-agent': opts.agent ?? CHROME_WIN, ...(opts.ip ? { 'x-forwarded-for': opts.ip } : {}) },
  });
  return res.json() as { status: number; data: string };
}

async function signedIn(on: TestContext, opts: Parameters<typeof login>[1] = {}) {
  const r = await login(on, opts);
  expect(r.status).toBe(200);
  return r.data;
}

interface SignInView {
  id: string;
  kind: string;
  current: boolean;
  device: { browser: string; os: string; mobile: boolean };
  systems: string[];
  user: { username: string };
  ip: string;
}
const mine = async (on: TestContext, token: string) =>
  data<SignInView[]>(await on.call({ url: '/api/front/security/sessions', token }));

async function openStream(on: TestContext, token: string) {
  const path = '/api/front/letter/events';
  const res = await on.app.inject({
    method: 'GET',
    url: path,
    headers: { authorization_front: token, ...signRequest(on.secrets.signSecret, path) },
    payloadAsStream: true,
  });
  expect(res.statusCode).toBe(200);
  const stream = res.stream();
  let text = '';
  const ended = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', resolve);
  });
  const hello = new Promise<void>((resolve) =>
    stream.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (text.includes('event: hello')) resolve();
    }),
  );
  await Promise.race([hello, ended]);
  expect(text).toContain('event: hello');
  return { ended, stop: () => stream.destroy() };
}

describe('my sessions', () => {
  it('lists each sign-in once across switches, says which is current, and ends the other on every instance', async () => {
    const desk = await signedIn(a, { username: 'admin', agent: CHROME_WIN });
    const phone = await signedIn(a, { username: 'admin', agent: SAFARI_IPHONE });
    // A switch opens a new session row in the same sign-in.
    const switched = await a.asRole(desk, 'park_operator');
    const list = await mine(a, switched);
    const portal = list.filter((s) => s.kind === 'portal');
    expect(portal.length).toBeGreaterThanOrEqual(2);
    const current = list.find((s) => s.current)!;
    expect(current.device).toEqual({ browser: 'Chrome', os: 'Windows', mobile: false });
    const other = list.find((s) => !s.current && s.device.os === 'iOS')!;
    expect(other.device).toEqual({ browser: 'Safari', os: 'iOS', mobile: true });
    expect(list.filter((s) => s.current)).toHaveLength(1);

    // The phone's live stream is on instance B; its token is fresh in B's cache.
    expect(statusOf(await b.call({ url: '/api/front/member/front/infoV2', token: phone }))).toBe(200);
    const stream = await openStream(b, phone);
    const end = await a.call({ url: `/api/front/security/sessions/${other.id}/end`, body: {}, token: switched });
    expect(statusOf(end)).toBe(200);
    await stream.ended;
    expect((await b.call({ url: '/api/front/member/front/infoV2', token: phone })).statusCode).toBe(401);
    // Ended once: again is an unknown sign-in, never another's.
    expect(
      statusOf(await a.call({ url: `/api/front/security/sessions/${other.id}/end`, body: {}, token: switched })),
    ).toBe(404);
    expect((await mine(a, switched)).some((s) => s.id === other.id)).toBe(false);
  });

  it('ends all other sign-ins and keeps the current one', async () => {
    const keep = await signedIn(a, { username: 'member' });
    const others = [await signedIn(b, { username: 'member' }), await signedIn(a, { username: 'member' })];
    const res = await a.call({ url: '/api/front/security/sessions/end-others', body: {}, token: keep });
    expect(data<{ ended: number }>(res).ended).toBeGreaterThanOrEqual(2);
    for (const t of others)
      expect((await b.call({ url: '/api/front/member/front/infoV2', token: t })).statusCode).toBe(401);
    expect(statusOf(await b.call({ url: '/api/front/member/front/infoV2', token: keep }))).toBe(200);
    expect((await mine(a, keep)).map((s) => s.current)).toEqual([true]);
  });

  it('keeps the chain across a switch and refuses someone else’s sign-in as unknown', async () => {
    const t = await signedIn(a, { username: 'member' });
    const before = await a.db.execute<{ chain: string }>(sql`SELECT chain_id::text AS chain FROM sessions
      WHERE user_id = (SELECT id FROM users WHERE username = 'member' AND tenant_id = ${demoId})
      ORDER BY created_at DESC LIMIT 1`);
    const adminToken = await signedIn(a, { username: 'admin' });
    const res = await a.call({
      url: `/api/front/security/sessions/portal-${before.rows[0]!.chain}/end`,
      body: {},
      token: adminToken,
    });
    expect(statusOf(res)).toBe(404);
    expect(statusOf(await a.call({ url: '/api/front/member/front/infoV2', token: t }))).toBe(200);
  });
});

describe('a sign-on session', () => {
  it('is one sign-in with where it came from, and ending it sends single logout to the CAS client and the OpenID client', async () => {
    const seen: (string | null)[] = [];
    const logoutTokens: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (req.url === '/bcl') logoutTokens.push(form.get('logout_token') ?? '');
        else seen.push(sessionIndexOf(form.get('logoutRequest') ?? ''));
        res.writeHead(200).end('ok');
      });
    });
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    try {
      await a.db.execute(sql`INSERT INTO sso_services (tenant_id, name, pattern)
        VALUES (${demoId}, '回环应用', ${`http://127.0.0.1:${port}/app/`})`);
      const service = `http://127.0.0.1:${port}/app/home`;
      const captchaKey = randomBytes(8).toString('hex');
      await a.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
      const form = new URLSearchParams({
        username: 'member',
        password: a.encrypt(DEMO_PASSWORD),
        imgvercode: '8888',
        captchaKey,
        service,
        tenantCode: 'demo',
      });
      const cas = await a.app.inject({
        method: 'POST',
        url: '/cas/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX_LINUX },
        payload: form.toString(),
      });
      expect(cas.statusCode).toBe(303);
      const ticket = new URL(cas.headers.location!).searchParams.get('ticket')!;
      const valid = await a.app.inject({
        url: `/cas/p3/serviceValidate?${new URLSearchParams({ ticket, service, format: 'JSON' })}`,
      });
      expect(valid.json().serviceResponse.authenticationSuccess.user).toBe('member');

      // An OpenID client signed into through the same sign-on session (the provider's session row, as it keeps it).
      const ssoId = (
        await a.db.execute<{ id: string }>(sql`SELECT id FROM sso_sessions WHERE ended_at IS NULL
          AND user_agent = ${FIREFOX_LINUX} ORDER BY created_at DESC LIMIT 1`)
      ).rows[0]!.id;
      await a.db.execute(sql`INSERT INTO oidc_clients (tenant_id, client_id, name, confidential, secret_hash,
          grant_types, redirect_uris, scopes, backchannel_logout_uri)
        VALUES (${demoId}, 'sessions-rp', '回环 OIDC', true, md5('x'), '{authorization_code}',
          '{https://rp.test/cb}', '{openid}', ${`http://127.0.0.1:${port}/bcl`})`);
      await a.db.execute(sql`INSERT INTO oidc_payloads (tenant_id, model, id, payload, sso_session_id, expires_at)
        VALUES (${demoId}, 'Session', 'sessions-test', ${JSON.stringify({
          accountId: 'member-subject',
          authorizations: { 'sessions-rp': { sid: 'sid-1' } },
        })}::jsonb, ${ssoId}, now() + interval '1 hour')`);

      const token = await signedIn(a, { username: 'member' });
      const sso = (await mine(a, token)).find((s) => s.kind === 'sso')!;
      expect(sso.device).toMatchObject({ browser: 'Firefox', os: 'Linux' });
      expect(sso.systems).toEqual(['回环应用']);
      expect(sso.ip).not.toBe('');
      expect(statusOf(await b.call({ url: `/api/front/security/sessions/${sso.id}/end`, body: {}, token }))).toBe(200);
      expect(seen).toEqual([ticket]);
      expect(logoutTokens).toHaveLength(1);
      const claims = JSON.parse(Buffer.from(logoutTokens[0]!.split('.')[1]!, 'base64url').toString()) as {
        sub: string;
        sid: string;
        aud: string;
      };
      expect(claims).toMatchObject({ sub: 'member-subject', sid: 'sid-1', aud: 'sessions-rp' });
      const ended = await a.db.execute(
        sql`SELECT 1 FROM sso_sessions WHERE id = ${sso.id.slice(4)}::uuid AND ended_at IS NOT NULL`,
      );
      expect(ended.rows).toHaveLength(1);
      // The history names the door.
      const history = data<{ records: { via: string; outcome: string }[] }>(
        await a.call({ url: '/api/front/security/login-history?limit=100', token }),
      );
      expect(history.records.some((r) => r.via === 'cas' && r.outcome === 'succeeded')).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

describe('online users', () => {
  it('shows an operator their tenant’s sign-ins only, filtered, and lets them end one or all of a user’s', async () => {
    const operator = await a.asRole(await signedIn(a, { username: 'admin' }), 'park_operator');
    const victim = await signedIn(b, { username: 'member', ip: '10.9.8.7' });
    await signedIn(a, { username: 'member', tenant: 'other' });
    const page = data<{ records: SignInView[]; total: number }>(
      await a.call({ url: '/api/admin/online-users?user=member&limit=100', token: operator }),
    );
    expect(page.records.length).toBeGreaterThan(0);
    expect(page.records.every((r) => r.user.username === 'member')).toBe(true);
    const ids = (
      await a.db.execute<{ chain: string }>(sql`SELECT 'portal-' || chain_id AS chain FROM sessions
      WHERE tenant_id = ${otherId} AND revoked_at IS NULL`)
    ).rows.map((r) => r.chain);
    expect(ids.length).toBeGreaterThan(0);
    expect(page.records.some((r) => ids.includes(r.id))).toBe(false);

    // Another tenant's operator: neither sees nor ends the demo's.
    const stranger = await a.asRole(await signedIn(a, { username: 'admin', tenant: 'other' }), 'park_operator');
    const theirs = data<{ records: SignInView[] }>(
      await a.call({ url: '/api/admin/online-users?limit=100', token: stranger }),
    );
    expect(theirs.records.every((r) => !page.records.some((p) => p.id === r.id))).toBe(true);
    const target = page.records[0]!;
    expect(statusOf(await a.call({ url: `/api/admin/sign-ins/${target.id}/end`, body: {}, token: stranger }))).toBe(
      404,
    );
    expect(
      statusOf(
        await a.call({ url: `/api/admin/online-users/${await memberOf(demoId)}/end`, body: {}, token: stranger }),
      ),
    ).toBe(404);

    const byIp = data<{ records: SignInView[] }>(
      await a.call({ url: '/api/admin/online-users?ip=10.9.8.', token: operator }),
    );
    expect(byIp.records.map((r) => r.ip)).toEqual(['10.9.8.7']);
    expect(
      statusOf(await a.call({ url: `/api/admin/sign-ins/${byIp.records[0]!.id}/end`, body: {}, token: operator })),
    ).toBe(200);
    expect((await b.call({ url: '/api/front/member/front/infoV2', token: victim })).statusCode).toBe(401);
    const audit = await a.db.execute<{
      action: string;
      name: string;
    }>(sql`SELECT action, detail->'subject'->>'name' AS name
      FROM audit_log WHERE action = 'signin.end' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0]?.name).toBeTruthy();

    const all = await a.call({
      url: `/api/admin/online-users/${await memberOf(demoId)}/end`,
      body: {},
      token: operator,
    });
    expect(statusOf(all)).toBe(200);
    const left = data<{ total: number }>(await a.call({ url: '/api/admin/online-users?user=member', token: operator }));
    expect(left.total).toBe(0);
  });
});

async function memberOf(tenantId: number) {
  const { rows } = await a.db.execute<{ id: string }>(
    sql`SELECT id::text AS id FROM users WHERE tenant_id = ${tenantId} AND username = 'member'`,
  );
  return rows[0]!.id;
}

describe('login history', () => {
  it('records every outcome of the portal login, unknown users by the name typed', async () => {
    const name = 'nobody-here';
    expect((await login(a, { username: name })).status).not.toBe(200);
    expect((await login(a, { username: 'manager', password: 'wrong-Passw0rd' })).status).not.toBe(200);
    await a.db.execute(sql`INSERT INTO users (tenant_id, username, name, password_hash, disabled_at)
      SELECT tenant_id, 'visitor', '访客', password_hash, now() FROM users WHERE username = 'member' AND tenant_id = ${demoId}`);
    await a.db.execute(sql`INSERT INTO users (tenant_id, username, name, password_hash)
      SELECT tenant_id, 'manager', '经理', password_hash FROM users WHERE username = 'member' AND tenant_id = ${demoId}`);
    expect((await login(a, { username: 'manager', password: 'wrong-Passw0rd' })).status).not.toBe(200);
    expect((await login(a, { username: 'visitor' })).status).not.toBe(200);
    // The admin CLI says so in its user agent: its sign-ins are the CLI's.
    await signedIn(a, { username: 'manager', agent: 'portal-admin-cli' });
    const captchaKey = randomBytes(8).toString('hex');
    await a.call({
      url: `/api/auth/jwt/front/token?tenantCode=demo`,
      body: { username: 'manager', password: a.encrypt(DEMO_PASSWORD), imgvercode: '0000', captchaKey },
    });
    const rows = await a.db.execute<{ username: string; userId: string | null; outcome: string; via: string }>(sql`
      SELECT username, user_id::text AS "userId", outcome, via FROM login_events
      WHERE tenant_id = ${demoId} AND username IN (${name}, 'manager', 'visitor') ORDER BY id`);
    expect(rows.rows).toEqual(
      expect.arrayContaining([
        { username: name, userId: null, outcome: 'wrong_password', via: 'portal' },
        { username: 'manager', userId: null, outcome: 'wrong_password', via: 'portal' },
        expect.objectContaining({ username: 'manager', outcome: 'wrong_password', userId: expect.any(String) }),
        expect.objectContaining({ username: 'visitor', outcome: 'disabled' }),
        expect.objectContaining({ username: 'manager', outcome: 'captcha_failed' }),
        expect.objectContaining({ username: 'manager', outcome: 'succeeded', via: 'cli' }),
      ]),
    );
  });

  it('searches by user, address, outcome and time for operators, and pages by the last row seen', async () => {
    const operator = await a.asRole(await signedIn(a, { username: 'admin' }), 'park_operator');
    const q = (query: string) =>
      a.call({ url: `/api/admin/login-history?${query}`, token: operator }).then(
        (r) =>
          r.json() as {
            status: number;
            data: { records: { id: string; username: string; outcome: string }[]; next: string | null };
          },
      );
    const wrong = await q('outcome=wrong_password&limit=1');
    expect(wrong.data.records).toHaveLength(1);
    expect(wrong.data.records[0]!.outcome).toBe('wrong_password');
    expect(wrong.data.next).toBe(wrong.data.records[0]!.id);
    const older = await q(`outcome=wrong_password&limit=1&before=${wrong.data.next}`);
    expect(older.data.records[0]!.id).not.toBe(wrong.data.records[0]!.id);
    expect((await q('user=MANAGER')).data.records.every((r) => r.username === 'manager')).toBe(true);
    expect((await q('from=2000-01-01&to=2000-01-02')).data.records).toEqual([]);
    expect((await q('from=2026-02-30')).status).toBe(400);
    // Another tenant's operator sees none of the demo's.
    const stranger = await a.asRole(await signedIn(a, { username: 'admin', tenant: 'other' }), 'park_operator');
    const theirs = await a.call({ url: '/api/admin/login-history?user=manager', token: stranger });
    expect(data<{ records: unknown[] }>(theirs).records).toEqual([]);
    // A person sees only their own.
    const member = await signedIn(a, { username: 'member' });
    const own = data<{ records: { username: string }[] }>(
      await a.call({ url: '/api/front/security/login-history?limit=100', token: member }),
    );
    expect(own.records.length).toBeGreaterThan(0);
    expect(own.records.every((r) => r.username === 'member')).toBe(true);
  });

  it('exports as CSV (audited) and is kept only the tenant’s retention', async () => {
    const operator = await a.asRole(await signedIn(a, { username: 'admin' }), 'park_operator');
    const res = await a.call({ url: '/api/admin/login-history/export?language=eng', token: operator });
    const file = data<{ csv: string; rows: number; truncated: boolean; fileName: string }>(res);
    expect(file.csv.split('\r\n')[0]).toContain('Time,Username');
    expect(file.rows).toBeGreaterThan(0);
    const audited = await a.db.execute(sql`SELECT 1 FROM audit_log WHERE action = 'login_history.export'`);
    expect(audited.rows.length).toBeGreaterThan(0);

    await a.db.execute(sql`UPDATE tenants SET security_policy = '{"loginHistoryDays": 10}' WHERE id = ${demoId}`);
    await a.db.execute(sql`INSERT INTO login_events (tenant_id, username, outcome, via, at)
      VALUES (${demoId}, 'old', 'succeeded', 'portal', now() - interval '11 days'),
             (${demoId}, 'recent', 'succeeded', 'portal', now() - interval '9 days'),
             (${otherId}, 'old-other', 'succeeded', 'portal', now() - interval '11 days')`);
    // As the policy's save announces it: every instance reads it again (once the bus has told B).
    await a.db.execute(
      sql`SELECT pg_notify('portal_invalidate', ${JSON.stringify({ kind: 'tenant', tenant: demoId })})`,
    );
    const task = b.app.housekeeping.find((t) => t.name.startsWith('login history'))!;
    const left = async () => {
      await task.run();
      const { rows } = await a.db.execute<{ username: string }>(
        sql`SELECT username FROM login_events WHERE username IN ('old', 'recent', 'old-other') ORDER BY username`,
      );
      return rows.map((r) => r.username);
    };
    await expect.poll(left).toEqual(['old-other', 'recent']);
  });

  it('tells a person of a new device, not of the first sign-in nor of a known one', async () => {
    const notices = async () =>
      (
        await a.db.execute<{
          title: string;
        }>(sql`SELECT n.title FROM notices n JOIN notice_recipients r ON r.notice_id = n.id
        JOIN users u ON u.id = r.user_id WHERE u.username = 'park' AND u.tenant_id = ${otherId} AND n.title = '新设备登录提醒'`)
      ).rows.length;
    await a.db.execute(sql`INSERT INTO users (tenant_id, username, name, password_hash)
      SELECT ${otherId}, 'park', '新人', password_hash FROM users WHERE username = 'member' AND tenant_id = ${otherId}`);
    await signedIn(a, { username: 'park', tenant: 'other', agent: CHROME_WIN });
    await signedIn(a, { username: 'park', tenant: 'other', agent: CHROME_WIN });
    await signedIn(a, { username: 'park', tenant: 'other', agent: SAFARI_IPHONE });
    // The first sign-in and the known browser told nothing: one notice, the new device's.
    await expect.poll(notices).toBe(1);
  });
});

describe('a tenant with a long history', () => {
  it('reads a page of 100 000 attempts by the (tenant, time) index, without counting them', async () => {
    await a.db.execute(sql`INSERT INTO login_events (tenant_id, username, outcome, via, ip, at)
      SELECT ${otherId}, 'bulk' || (i % 500), CASE WHEN i % 7 = 0 THEN 'wrong_password' ELSE 'succeeded' END, 'portal',
        '10.0.' || (i % 250) || '.1', now() - (i * interval '10 seconds')
      FROM generate_series(1, 100000) i`);
    await a.db.execute(sql`ANALYZE login_events`);
    const plan = await a.db.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT id FROM login_events e
      WHERE e.tenant_id = ${otherId} AND e.outcome = 'wrong_password' AND e.at >= now() - interval '30 days'
      ORDER BY e.at DESC, e.id DESC LIMIT 21`);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('login_events_tenant_at');
    const operator = await a.asRole(await signedIn(a, { username: 'admin', tenant: 'other' }), 'park_operator');
    const started = performance.now();
    const res = await a.call({ url: '/api/admin/login-history?outcome=wrong_password&ip=10.0.7', token: operator });
    const ms = performance.now() - started;
    const page = data<{ records: { outcome: string; ip: string }[]; next: string | null }>(res);
    expect(page.records).toHaveLength(20);
    expect(page.records.every((r) => r.outcome === 'wrong_password' && r.ip.startsWith('10.0.7'))).toBe(true);
    expect(page.next).not.toBeNull();
    console.log(`login history: a filtered page of a 100 000-row tenant in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1000);
  });
});
