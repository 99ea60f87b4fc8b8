/**
 * The sign-on server against the CAS protocol 3.0 specification, one test per MUST that applies,
 * through the real app and PostgreSQL; then the portal as a CAS client over real HTTP, and single
 * logout reaching it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';
import { validateWithNpmClient } from '../../test/npm-cas-client.js';
import { sessionIndexOf } from '../../platform/cas-client.js';
import { findService, parseService, type RegisteredService } from './service-registry.js';
import { hashCookie, newTicket as issueTicketId, newTicketGrantingCookie } from './sso.service.js';

// The demo tenant registers the portal ({PORTAL} = PUBLIC_URL + /center/).
const PORTAL = 'http://portal.test/center/';
const SERVICE = `${PORTAL}login?redirect=%2Fent%2Fcolist&benchCode=B1`;

let ctx: TestContext;
beforeAll(async () => {
  // Many sign-ins from one address in this file: more than the per-address limit allows a minute.
  ctx = await createTestContext({ PUBLIC_URL: 'http://portal.test', LOGIN_RATE_PER_MINUTE: '1000' });
});
afterAll(async () => ctx?.close());

const cookieOf = (setCookie: string | string[] | undefined) => {
  const line = ([] as string[]).concat(setCookie ?? [])[0] ?? '';
  return { line, value: /CASTGC=([^;]*)/.exec(line)?.[1] ?? '' };
};

/** A form login at /cas/login, with the test-mode image captcha. */
async function casLogin(c: TestContext, form: Record<string, string> = {}, password = DEMO_PASSWORD, cookie?: string) {
  const captchaKey = randomBytes(8).toString('hex');
  await c.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  const body = new URLSearchParams({
    username: 'member',
    password: c.encrypt(password),
    imgvercode: '8888',
    captchaKey,
    service: SERVICE,
    tenantCode: 'demo',
    ...form,
  });
  return c.app.inject({
    method: 'POST',
    url: '/cas/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie: `CASTGC=${cookie}` } : {}) },
    payload: body.toString(),
  });
}

const ticketIn = (location: string | undefined) => new URL(location ?? 'http://x/').searchParams.get('ticket');

async function validate(query: Record<string, string>, path = '/cas/p3/serviceValidate') {
  const res = await ctx.app.inject({ url: `${path}?${new URLSearchParams(query)}` });
  return res;
}
const json = async (query: Record<string, string>) =>
  (await validate({ ...query, format: 'JSON' })).json().serviceResponse as {
    authenticationSuccess?: { user: string; attributes: Record<string, unknown> };
    authenticationFailure?: { code: string; description: string };
  };

/** A fresh ticket for SERVICE from a new login; the SSO cookie with it. */
async function newTicket(form: Record<string, string> = {}) {
  const res = await casLogin(ctx, form);
  expect(res.statusCode).toBe(303);
  return { ticket: ticketIn(res.headers.location)!, cookie: cookieOf(res.headers['set-cookie']).value };
}

describe('service registry (open redirects)', () => {
  const services: RegisteredService[] = [
    { id: 1, tenantId: 1, name: 'portal', pattern: '{PORTAL}', sysCode: null, logoutUrl: '{PORTAL_SLO}' },
    { id: 2, tenantId: 1, name: 'exact', pattern: 'https://apps.test/oa/login', sysCode: 'OA', logoutUrl: null },
  ];
  const portal = {
    base: 'https://portal.test/center/',
    slo: 'https://portal.test/sso/logout',
    server: 'https://portal.test',
  };
  const allowed = (s: string) => findService(s, services, portal) !== null;

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    '//evil.test/center/',
    'https://evil.test/center/',
    'https://portal.test/centerx',
    'https://portal.test/centerx/login',
    'https://portal.test.evil.test/center/',
    'https://portal.test@evil.test/center/',
    'https://evil.test@portal.test/center/',
    'https://portal.test/center/../admin/',
    'https://portal.test/center/%2E%2E/admin/',
    'https://portal.test/center/%2e%2e/admin/',
    'https://portal.test/center/%252E%252E/admin/',
    'https://portal.test/center/..%2Fadmin/',
    'https://portal.test\\@evil.test/center/',
    'https://portal.test/center/\t/x',
    'http://portal.test/center/',
    'https://portal.test:8443/center/',
    'HTTPS://EVIL.TEST/center/',
    'https://apps.test/oa/login/extra',
    'https://apps.test/oa/loginx',
    '',
    'center/',
  ])('refuses %s', (service) => {
    expect(allowed(service)).toBe(false);
  });

  it.each([
    'https://portal.test/center/',
    'https://portal.test/center/login?redirect=%2Fent%2Fcolist&benchCode=B1',
    'HTTPS://PORTAL.TEST/center/index',
    'https://apps.test/oa/login',
    'https://apps.test/oa/login?next=1',
  ])('accepts %s', (service) => {
    expect(allowed(service)).toBe(true);
  });

  it('keeps the address exactly as a browser will open it', () => {
    expect(parseService('https://portal.test/center/a b')).toBeNull();
    expect(parseService('https://portal.test/center/./x')).toBeNull();
    expect(parseService('https://portal.test/center/x?y=1')?.href).toBe('https://portal.test/center/x?y=1');
  });
});

describe('CAS 3.0 §2.1 /login', () => {
  it('issues tickets prefixed ST- with at least 32 characters of randomness, for the service only', async () => {
    const res = await casLogin(ctx);
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location!);
    expect(location.href.startsWith(`${SERVICE}&ticket=`)).toBe(true);
    const ticket = location.searchParams.get('ticket')!;
    expect(ticket).toMatch(/^ST-[A-Za-z0-9]{43}$/);
    const { line } = cookieOf(res.headers['set-cookie']);
    expect(line).toMatch(/^CASTGC=TGC-[A-Za-z0-9]{43}; Max-Age=28800; Path=\/cas; HttpOnly; SameSite=Lax$/);
  });

  it('writes every ticket in the grammar of CAS 3.0 §3.7 (A-Z a-z 0-9 and -), with 256 bits of randomness', () => {
    const tickets = Array.from({ length: 2000 }, issueTicketId);
    for (const t of tickets) expect(t).toMatch(/^ST-[A-Za-z0-9-]+$/);
    for (const c of Array.from({ length: 200 }, newTicketGrantingCookie)) expect(c).toMatch(/^TGC-[A-Za-z0-9]{43}$/);
    // 43 characters of 62 carry 43·log2(62) ≈ 256 bits; all 62 appear, none far more often than the others.
    const counts = new Map<string, number>();
    for (const t of tickets) for (const ch of t.slice(3)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (2000 * 43) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.2);
    expect(new Set(tickets).size).toBe(tickets.length);
  });

  it('refuses an unregistered service with an error page: no redirect and no ticket', async () => {
    const before = await ctx.db.execute(sql`SELECT count(*)::int AS n FROM sso_tickets`);
    for (const service of ['https://evil.test/', 'http://portal.test/centerx']) {
      const get = await ctx.app.inject({ url: `/cas/login?${new URLSearchParams({ service })}` });
      expect(get.statusCode).toBe(400);
      expect(get.headers.location).toBeUndefined();
      expect(get.body).toContain('该应用未在统一认证中心登记');
      const post = await casLogin(ctx, { service });
      expect(post.statusCode).toBe(400);
      expect(post.headers.location).toBeUndefined();
    }
    const after = await ctx.db.execute(sql`SELECT count(*)::int AS n FROM sso_tickets`);
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('gives a ticket without credentials to a browser with a live SSO session (single sign-on)', async () => {
    const { cookie } = await newTicket();
    const res = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE })}`,
      headers: { cookie: `CASTGC=${cookie}` },
    });
    expect(res.statusCode).toBe(302);
    const ticket = ticketIn(res.headers.location)!;
    const ok = await json({ ticket, service: SERVICE });
    expect(ok.authenticationSuccess?.attributes.isFromNewLogin).toBe(false);
  });

  it('renew: ignores the SSO session and shows the form', async () => {
    const { cookie } = await newTicket();
    const res = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE, renew: 'true', gateway: 'true' })}`,
      headers: { cookie: `CASTGC=${cookie}` },
    });
    expect(res.headers.location).toBeUndefined();
    expect(res.statusCode).toBe(200); // the sign-on page (npm test builds the web app first)
    expect(res.body).toContain('<meta name="sso-tenant-code" content="demo">');
  });

  it('gateway: back to the service without a ticket when there is no SSO session, with one when there is', async () => {
    const none = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE, gateway: 'true' })}`,
    });
    expect(none.statusCode).toBe(302);
    expect(none.headers.location).toBe(new URL(SERVICE).href);
    const { cookie } = await newTicket();
    const some = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE, gateway: 'true' })}`,
      headers: { cookie: `CASTGC=${cookie}` },
    });
    expect(ticketIn(some.headers.location)).toMatch(/^ST-/);
  });

  it('refuses a login form posted from another site (login CSRF)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
      payload: new URLSearchParams({ username: 'member', password: 'x', service: SERVICE }).toString(),
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers.location).toBeUndefined();
  });

  it('tells a disabled account so only after its right password, as the portal login does, and sets no cookie', async () => {
    await ctx.db.execute(sql`UPDATE users SET disabled_at = now() WHERE username = 'member'`);
    try {
      const wrong = await casLogin(ctx, {}, 'Wrong@2026!');
      expect(wrong.headers.location).toContain('error=loginFailed');
      const right = await casLogin(ctx);
      expect(right.statusCode).toBe(303);
      expect(right.headers.location).toContain('error=accountDisabled');
      expect(right.headers['set-cookie']).toBeUndefined();
      const key = randomBytes(8).toString('hex');
      await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${key}` });
      const asJson = await ctx.app.inject({
        method: 'POST',
        url: '/cas/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        payload: new URLSearchParams({
          username: 'member',
          password: ctx.encrypt(DEMO_PASSWORD),
          imgvercode: '8888',
          captchaKey: key,
          service: SERVICE,
          tenantCode: 'demo',
        }).toString(),
      });
      expect(asJson.json()).toEqual({ status: 40304, message: '该账号已停用，请联系管理员', data: null });
      expect(asJson.headers['set-cookie']).toBeUndefined();
    } finally {
      await ctx.db.execute(
        sql`UPDATE users SET disabled_at = NULL, locked_until = NULL, failed_logins = 0 WHERE username = 'member'`,
      );
    }
  });

  it('refuses wrong credentials with the portal login message and sets no cookie', async () => {
    const res = await casLogin(ctx, {}, 'Wrong@2026!');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toContain('error=loginFailed');
    expect(res.headers['set-cookie']).toBeUndefined();
    const asJson = await ctx.app.inject({
      method: 'POST',
      url: '/cas/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: new URLSearchParams({ username: 'member', password: ctx.encrypt('x'), service: SERVICE }).toString(),
    });
    expect(asJson.json()).toEqual({ status: 40002, message: '用户名、密码或验证码错误', data: null });
    expect(asJson.headers['set-cookie']).toBeUndefined();
  });

  it("ends the browser's earlier SSO session when it signs in again", async () => {
    const first = await newTicket();
    const again = await casLogin(ctx, {}, DEMO_PASSWORD, first.cookie);
    expect(again.statusCode).toBe(303);
    const old = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE })}`,
      headers: { cookie: `CASTGC=${first.cookie}` },
    });
    expect(old.headers.location).toBeUndefined();
  });

  it('expires an idle SSO session', async () => {
    const { cookie } = await newTicket();
    await ctx.db.execute(
      sql`UPDATE sso_sessions SET last_used_at = now() - interval '121 minutes' WHERE cookie_hash = ${hashCookie(cookie)}`,
    );
    const res = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE })}`,
      headers: { cookie: `CASTGC=${cookie}` },
    });
    expect(res.headers.location).toBeUndefined();
  });
});

describe('CAS 3.0 §2.5 /serviceValidate and /p3/serviceValidate', () => {
  it('validates once: XML by default with attributes on p3, JSON on request', async () => {
    const { ticket } = await newTicket();
    const res = await validate({ ticket, service: SERVICE });
    expect(res.headers['content-type']).toContain('xml');
    const doc = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(res.body);
    expect(doc['cas:serviceResponse']['@_xmlns:cas']).toBe('http://www.yale.edu/tp/cas');
    const success = doc['cas:serviceResponse']['cas:authenticationSuccess'];
    expect(success['cas:user']).toBe('member');
    expect(success['cas:attributes']).toMatchObject({
      'cas:tenantCode': 'demo',
      'cas:isFromNewLogin': 'true',
      'cas:name': '张敏',
      'cas:userId': expect.stringMatching(/^\d+$/),
    });
    expect(Date.parse(success['cas:attributes']['cas:authenticationDate'])).not.toBeNaN();
    expect((await json({ ticket, service: SERVICE })).authenticationFailure?.code).toBe('INVALID_TICKET');
  });

  it('answers JSON with the user and attributes; /serviceValidate without attributes', async () => {
    const a = await newTicket();
    const ok = await json({ ticket: a.ticket, service: SERVICE });
    expect(ok.authenticationSuccess).toMatchObject({
      user: 'member',
      attributes: { tenantCode: 'demo', name: '张敏', isFromNewLogin: true },
    });
    const b = await newTicket();
    const plain = await validate({ ticket: b.ticket, service: SERVICE }, '/cas/serviceValidate');
    expect(plain.body).toContain('<cas:user>member</cas:user>');
    expect(plain.body).not.toContain('cas:attributes');
  });

  it('spends the one attempt on a failure: a wrong service is INVALID_SERVICE, the ticket is then gone', async () => {
    const { ticket } = await newTicket();
    expect((await json({ ticket, service: `${PORTAL}other` })).authenticationFailure?.code).toBe('INVALID_SERVICE');
    expect((await json({ ticket, service: SERVICE })).authenticationFailure?.code).toBe('INVALID_TICKET');
    // Not a validated ticket either: single logout will not call that service for it.
    const row = await ctx.db.execute(sql`SELECT validated FROM sso_tickets WHERE ticket = ${ticket}`);
    expect(row.rows).toEqual([{ validated: false }]);
    const good = await newTicket();
    await json({ ticket: good.ticket, service: SERVICE });
    const ok = await ctx.db.execute(sql`SELECT validated FROM sso_tickets WHERE ticket = ${good.ticket}`);
    expect(ok.rows).toEqual([{ validated: true }]);
  });

  it('lets exactly one of many simultaneous validations of a ticket succeed', async () => {
    const { ticket } = await newTicket();
    const answers = await Promise.all(Array.from({ length: 8 }, () => json({ ticket, service: SERVICE })));
    expect(answers.filter((a) => a.authenticationSuccess).length).toBe(1);
    expect(answers.filter((a) => a.authenticationFailure?.code === 'INVALID_TICKET').length).toBe(7);
  });

  it('/proxyValidate and /p3/proxyValidate accept service tickets too (§2.6), once', async () => {
    const a = await newTicket();
    const p3 = await validate({ ticket: a.ticket, service: SERVICE, format: 'JSON' }, '/cas/p3/proxyValidate');
    expect(p3.json().serviceResponse.authenticationSuccess).toMatchObject({
      user: 'member',
      attributes: { tenantCode: 'demo' },
    });
    const again = await validate({ ticket: a.ticket, service: SERVICE }, '/cas/proxyValidate');
    expect(again.body).toContain('<cas:authenticationFailure code="INVALID_TICKET">');
    const b = await newTicket();
    const plain = await validate({ ticket: b.ticket, service: SERVICE }, '/cas/proxyValidate');
    expect(plain.body).toContain('<cas:user>member</cas:user>');
    expect(plain.body).not.toContain('cas:attributes');
  });

  it('refuses an expired ticket (valid 10 s)', async () => {
    const { ticket } = await newTicket();
    await ctx.db.execute(sql`UPDATE sso_tickets SET expires_at = now() - interval '1 second' WHERE ticket = ${ticket}`);
    expect((await json({ ticket, service: SERVICE })).authenticationFailure?.code).toBe('INVALID_TICKET');
  });

  it('renew=true accepts only a ticket from a new login (INVALID_TICKET_SPEC otherwise)', async () => {
    const fresh = await newTicket();
    expect((await json({ ticket: fresh.ticket, service: SERVICE, renew: 'true' })).authenticationSuccess).toBeDefined();
    const sso = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE })}`,
      headers: { cookie: `CASTGC=${fresh.cookie}` },
    });
    const fromSso = ticketIn(sso.headers.location)!;
    const r = await json({ ticket: fromSso, service: SERVICE, renew: 'true' });
    expect(r.authenticationFailure?.code).toBe('INVALID_TICKET_SPEC');
  });

  it('INVALID_REQUEST without ticket or service; INVALID_TICKET for an unknown one; CAS 1.0 /validate', async () => {
    expect((await json({ service: SERVICE })).authenticationFailure?.code).toBe('INVALID_REQUEST');
    expect((await json({ ticket: 'ST-x' })).authenticationFailure?.code).toBe('INVALID_REQUEST');
    expect((await json({ ticket: 'ST-unknown', service: SERVICE })).authenticationFailure?.code).toBe('INVALID_TICKET');
    expect((await json({ ticket: 'PT-1', service: SERVICE })).authenticationFailure?.code).toBe('INVALID_TICKET');
    const { ticket } = await newTicket();
    expect((await validate({ ticket, service: SERVICE }, '/cas/validate')).body).toBe('yes\nmember\n');
    expect((await validate({ ticket, service: SERVICE }, '/cas/validate')).body).toBe('no\n');
  });
});

describe('CAS 3.0 §2.7 /proxy and SAML 1.1 /samlValidate', () => {
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true });

  it('answers /proxy with a proxyFailure a client can parse (no proxy-granting tickets are issued)', async () => {
    const none = await ctx.app.inject({ url: '/cas/proxy' });
    expect(none.statusCode).toBe(200);
    expect(none.headers['content-type']).toMatch(/^application\/xml/);
    expect(xml.parse(none.body).serviceResponse.proxyFailure['@code']).toBe('INVALID_REQUEST');
    const some = await ctx.app.inject({ url: `/cas/proxy?pgt=PGT-1-abc&targetService=${encodeURIComponent(SERVICE)}` });
    expect(xml.parse(some.body).serviceResponse.proxyFailure['@code']).toBe('UNAUTHORIZED_SERVICE');
    const asJson = await ctx.app.inject({ url: '/cas/proxy?pgt=PGT-1&targetService=x&format=JSON' });
    expect(asJson.json().serviceResponse.proxyFailure.code).toBe('UNAUTHORIZED_SERVICE');
  });

  /** The SOAP request java-cas-client sends (default namespace, a request id, a comment first). */
  const javaClientRequest = (ticket: string) =>
    `<!-- licensed --><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header/><soap:Body>` +
    `<Request xmlns="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_abc123" IssueInstant="2026-11-24T10:00:00Z">` +
    `<AssertionArtifact>${ticket}</AssertionArtifact></Request></soap:Body></soap:Envelope>`;
  /** The one mod_auth_cas and phpCAS send (samlp: prefix, no request id). */
  const prefixedRequest = (ticket: string) =>
    `<?xml version="1.0" encoding="utf-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Header/><SOAP-ENV:Body>` +
    `<samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol"  MajorVersion="1" MinorVersion="1"><samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`;

  const samlValidate = (query: Record<string, string>, body: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/cas/samlValidate?${new URLSearchParams(query)}`,
      headers: { 'content-type': 'text/xml', soapaction: 'http://www.oasis-open.org/committees/security' },
      payload: body,
    });
  type Saml = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const responseOf = (body: string): Saml => xml.parse(body).Envelope.Body.Response as Saml;

  it('validates a ticket once and answers the assertion with the user and attributes, as Apereo CAS does', async () => {
    const { ticket } = await newTicket();
    const before = Date.now();
    const res = await samlValidate({ TARGET: SERVICE }, javaClientRequest(ticket));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    const r = responseOf(res.body);
    expect(r['@MajorVersion']).toBe('1');
    expect(r['@MinorVersion']).toBe('1');
    expect(r['@InResponseTo']).toBe('_abc123');
    expect(r.Status.StatusCode['@Value']).toBe('saml1p:Success');
    const a = r.Assertion;
    // java-cas-client accepts the assertion 1 s either side of its conditions.
    const notBefore = Date.parse(a.Conditions['@NotBefore']);
    const notAfter = Date.parse(a.Conditions['@NotOnOrAfter']);
    expect(notBefore).toBeLessThanOrEqual(before);
    expect(notAfter).toBeGreaterThan(Date.now());
    expect(a.Conditions.AudienceRestrictionCondition.Audience).toBe(SERVICE);
    expect(a.AuthenticationStatement['@AuthenticationMethod']).toBe('urn:oasis:names:tc:SAML:1.0:am:password');
    expect(a.AuthenticationStatement.Subject.NameIdentifier).toBe('member');
    expect(a.AuthenticationStatement.Subject.SubjectConfirmation.ConfirmationMethod).toBe(
      'urn:oasis:names:tc:SAML:1.0:cm:artifact',
    );
    const attrs = Object.fromEntries(
      ([] as Saml[]).concat(a.AttributeStatement.Attribute).map((x) => [x['@AttributeName'], String(x.AttributeValue)]),
    );
    expect(attrs).toMatchObject({ tenantCode: 'demo', name: '张敏', isFromNewLogin: 'true' });
    // Single use, whatever the protocol of the second attempt.
    const again = responseOf((await samlValidate({ TARGET: SERVICE }, prefixedRequest(ticket))).body);
    expect(again.Status.StatusCode['@Value']).toBe('saml1p:RequestDenied');
    expect(again.Status.StatusMessage).toContain('not recognized');
    expect(again.Assertion).toBeUndefined();
  });

  it('refuses another service, renew with a ticket from single sign-on, and a request without a ticket', async () => {
    const other = await newTicket();
    const wrong = responseOf((await samlValidate({ TARGET: `${PORTAL}other` }, prefixedRequest(other.ticket))).body);
    expect(wrong.Status.StatusCode['@Value']).toBe('saml1p:RequestDenied');
    expect(wrong['@InResponseTo']).toBe('portal.test');
    const fresh = await newTicket();
    const sso = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE })}`,
      headers: { cookie: `CASTGC=${fresh.cookie}` },
    });
    const renew = await samlValidate(
      { TARGET: SERVICE, renew: 'true' },
      prefixedRequest(ticketIn(sso.headers.location)!),
    );
    expect(responseOf(renew.body).Status.StatusCode['@Value']).toBe('saml1p:RequestDenied');
    const empty = await samlValidate({ TARGET: SERVICE }, '<soap:Envelope/>');
    expect(responseOf(empty.body).Status.StatusCode['@Value']).toBe('saml1p:RequestDenied');
  });
});

describe('CAS 3.0 §2.3 /logout', () => {
  it('ends the SSO session and redirects only to a registered service', async () => {
    const { cookie } = await newTicket();
    const bad = await ctx.app.inject({
      url: `/cas/logout?${new URLSearchParams({ service: 'https://evil.test/' })}`,
      headers: { cookie: `CASTGC=${cookie}` },
    });
    expect(bad.statusCode).toBe(200);
    expect(bad.headers.location).toBeUndefined();
    expect(bad.body).toContain('您已退出统一认证中心');
    expect(cookieOf(bad.headers['set-cookie']).line).toContain('Max-Age=0');
    // The session is over: no ticket without credentials any more.
    const after = await ctx.app.inject({
      url: `/cas/login?${new URLSearchParams({ service: SERVICE })}`,
      headers: { cookie: `CASTGC=${cookie}` },
    });
    expect(after.headers.location).toBeUndefined();
    const good = await ctx.app.inject({
      url: `/cas/logout?${new URLSearchParams({ service: SERVICE, tenantCode: 'demo' })}`,
    });
    expect(good.statusCode).toBe(302);
    expect(good.headers.location).toBe(new URL(SERVICE).href);
  });
});

describe('the portal as a CAS client, and single logout', () => {
  it('exchanges a ticket for a session over HTTP; the sign-on logout ends that session (single logout)', async () => {
    // One instance is sign-on server and portal, as `npm start` runs it: SSO_URL is its own address.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const one = await createTestContext({ PUBLIC_URL: base, SSO_URL: base }, { databaseUrl: ctx.url });
    await one.app.listen({ port, host: '127.0.0.1' });
    try {
      const service = `${base}/center/login?redirect=%2Fent%2Fcolist`;
      const login = await casLogin(one, { service });
      const ticket = ticketIn(login.headers.location)!;
      const cookie = cookieOf(login.headers['set-cookie']).value;
      const exchange = (st: string, svc = service) =>
        one.call({ method: 'POST', url: `/api/auth/jwt/getTokenBySt?${new URLSearchParams({ st, service: svc })}` });

      const res = await exchange(ticket);
      expect(res.json()).toMatchObject({ status: 200 });
      const token = res.json().data as string;
      const info = () => one.call({ url: '/api/front/member/front/infoV2', token });
      expect((await info()).statusCode).toBe(200);

      // The ticket was spent by that validation: a second exchange is refused with 40121.
      const again = await exchange(ticket);
      expect(again.json()).toMatchObject({ status: 40121, message: '票据无效或已过期，请重新登录' });
      expect(again.statusCode).toBe(401);

      // Entering an external system from this SSO-born session: a ticket for it at once.
      await one.db.execute(
        sql`INSERT INTO sso_services (tenant_id, name, pattern, sys_code, entry_url)
            SELECT id, 'ERP', 'http://erp.test/', 'ERP', 'http://erp.test/sso/entry' FROM tenants WHERE code = 'demo'`,
      );
      const esa = await one.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'ERP' }, token });
      const entry = new URL(esa.json().data as string);
      expect(`${entry.origin}${entry.pathname}`).toBe('http://erp.test/sso/entry');
      const erpTicket = entry.searchParams.get('ticket')!;
      const erp = await one.app.inject({
        url: `/cas/p3/serviceValidate?${new URLSearchParams({ ticket: erpTicket, service: 'http://erp.test/sso/entry', format: 'JSON' })}`,
      });
      expect(erp.json().serviceResponse.authenticationSuccess).toMatchObject({
        user: 'member',
        attributes: { isFromNewLogin: false },
      });

      // A ticket some other system received cannot open a portal session here.
      const other = await one.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'ERP' }, token });
      const stolen = new URL(other.json().data as string).searchParams.get('ticket')!;
      expect((await exchange(stolen, 'http://erp.test/sso/entry')).json()).toMatchObject({ status: 40121 });

      // Logout at the sign-on server: its single-logout POST reaches /sso/logout and ends the session.
      const out = await one.app.inject({
        url: `/cas/logout?${new URLSearchParams({ service: `${base}/center/` })}`,
        headers: { cookie: `CASTGC=${cookie}` },
      });
      expect(out.statusCode).toBe(302);
      expect(out.headers.location).toBe(`${base}/center/`);
      expect((await info()).statusCode).toBe(401);
    } finally {
      await one.close();
    }
  });

  it('validates for an independent CAS client from npm (cas-authentication, CAS 3.0 XML)', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const one = await createTestContext({ PUBLIC_URL: base }, { databaseUrl: ctx.url });
    await one.app.listen({ port, host: '127.0.0.1' });
    try {
      // An application of the demo tenant, registered with the sign-on server.
      await one.db.execute(
        sql`INSERT INTO sso_services (tenant_id, name, pattern) SELECT id, 'OA', 'http://oa.test/app/' FROM tenants WHERE code = 'demo'`,
      );
      const login = await casLogin(one, { service: 'http://oa.test/app/home' });
      const ticket = ticketIn(login.headers.location)!;

      const session = await validateWithNpmClient(base, port, ticket);
      expect(session.cas_user).toBe('member');
      expect(session.cas_info).toMatchObject({ tenantcode: 'demo', name: '张敏', isfromnewlogin: 'true' });
    } finally {
      await one.close();
    }
  });

  it('sends a standalone session through the sign-on login to enter a system; refuses unknown systems', async () => {
    await ctx.db.execute(
      sql`INSERT INTO sso_services (tenant_id, name, pattern, sys_code)
          SELECT id, 'CRM', 'https://crm.test/app/', 'CRM' FROM tenants WHERE code = 'demo'
          ON CONFLICT DO NOTHING`,
    );
    const token = await ctx.login();
    const esa = await ctx.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'CRM' }, token });
    const url = new URL(esa.json().data as string);
    expect(`${url.origin}${url.pathname}`).toBe('http://portal.test/cas/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      loginType: '2',
      tenantCode: 'demo',
      service: 'https://crm.test/app/',
    });
    const unknown = await ctx.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'NOPE' }, token });
    expect(unknown.json()).toEqual({ status: 404, message: '该系统未登记或未启用单点登录', data: null });
    const anonymous = await ctx.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'CRM' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('ignores a single-logout request that names no known ticket', async () => {
    const token = await ctx.login();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/sso/logout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `logoutRequest=${encodeURIComponent('<samlp:LogoutRequest><samlp:SessionIndex>ST-abcdefghijklmnopqrstuvwxyz</samlp:SessionIndex></samlp:LogoutRequest>')}`,
    });
    expect(res.statusCode).toBe(200);
    expect((await ctx.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(200);
  });
});

describe('tenants: named, found by the service, kept apart', () => {
  beforeAll(async () => {
    await ctx.db.execute(sql`INSERT INTO tenants (code, name) VALUES ('park2', '第二园区')`);
    await ctx.db.execute(sql`
      INSERT INTO sso_services (tenant_id, name, pattern, sys_code)
      SELECT id, 'P2 OA', 'https://oa.park2.test/', 'P2OA' FROM tenants WHERE code = 'park2'
      UNION ALL SELECT id, 'Shared', 'https://shared.test/', NULL FROM tenants WHERE code IN ('demo', 'park2')
      UNION ALL SELECT id, 'Demo OA', 'https://oa.demo.test/', NULL FROM tenants WHERE code = 'demo'`);
  });
  const page = (query: Record<string, string>, cookie?: string) =>
    ctx.app.inject({
      url: `/cas/login?${new URLSearchParams(query)}`,
      headers: cookie ? { cookie: `CASTGC=${cookie}` } : {},
    });
  const tenantOfPage = (body: string) => /<meta name="sso-tenant-code" content="([^"]*)">/.exec(body)?.[1];

  it('finds the tenant of a standard CAS client (no tenantCode) by the service it registered', async () => {
    const p2 = await page({ service: 'https://oa.park2.test/home' });
    expect(p2.statusCode).toBe(200);
    expect(tenantOfPage(p2.body)).toBe('park2');
    expect(p2.body).toContain('<meta name="sso-tenant-name" content="第二园区">');
    // Registered by several tenants: the default tenant.
    expect(tenantOfPage((await page({ service: 'https://shared.test/x' })).body)).toBe('demo');
    // A demo user signs in for a demo-only service without naming the tenant.
    const res = await casLogin(ctx, { service: 'https://oa.demo.test/app', tenantCode: '' });
    expect(res.statusCode).toBe(303);
    expect(ticketIn(res.headers.location)).toMatch(/^ST-/);
    // The same user is unknown in park2: its service signs in to park2, where the login is refused.
    const p2Login = await casLogin(ctx, { service: 'https://oa.park2.test/home', tenantCode: '' });
    expect(p2Login.headers.location).toContain('error=loginFailed');
  });

  it("gives no ticket for another tenant's service on a demo SSO session, and no entry to its systems", async () => {
    const { cookie } = await newTicket();
    const other = await page({ service: 'https://oa.park2.test/home', tenantCode: 'park2' }, cookie);
    expect(other.statusCode).toBe(200);
    expect(other.headers.location).toBeUndefined();
    expect(tenantOfPage(other.body)).toBe('park2'); // the form, for park2
    // A park2 service asked for under the demo tenant is not registered there.
    const wrong = await page({ service: 'https://oa.park2.test/home', tenantCode: 'demo' }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers.location).toBeUndefined();
    const token = await ctx.login();
    const esa = await ctx.call({ url: '/api/front/esa/external/system/sso', body: { sysCode: 'P2OA' }, token });
    expect(esa.json()).toMatchObject({ status: 404 });
  });

  it('says who is signed in when asked without a service, with a sign-out link', async () => {
    const { cookie } = await newTicket();
    const zh = await page({ tenantCode: 'demo' }, cookie);
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain('张敏，您已登录演示园区统一认证中心。');
    expect(zh.body).toContain('<a href="/cas/logout?tenantCode=demo">退出登录</a>');
    const en = await page({ tenantCode: 'demo', language: 'eng' }, cookie);
    expect(en.body).toContain('Zhang Min, you are signed in to the sign-on service of Demo Park.');
    expect(en.body).toContain('<a href="/cas/logout?tenantCode=demo&amp;language=eng">Sign out</a>');
    // Without a session, and for another tenant, the form.
    expect(tenantOfPage((await page({ tenantCode: 'demo' })).body)).toBe('demo');
    expect(tenantOfPage((await page({ tenantCode: 'park2' }, cookie)).body)).toBe('park2');
  });
});

describe('the portal against another CAS server (SSO_URL elsewhere)', () => {
  // Apereo CAS style: tickets with the host name, XML even when JSON is asked for, attributes as
  // lists, no tenantCode. A test double of the external server, speaking the protocol.
  const XML_TICKET = 'ST-1-aB3dE5fG7hJ9kL1mN3pQ-cas01.example.org';
  const JSON_TICKET = 'ST-2-zY8xW6vU4tS2rQ0pO8nM-cas01.example.org';

  it('signs in with its XML or JSON answer, tenant from the attribute or the default, and takes its single logout', async () => {
    const publicPort = await freePort();
    const base = `http://127.0.0.1:${publicPort}`;
    const service = `${base}/center/login?redirect=%2Fhome`;
    const asked: string[] = [];
    let tenantOfJson = 'park2';
    const foreign = createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      asked.push(`${new URL(req.url ?? '/', 'http://x').pathname} ${q.get('ticket')}`);
      if (q.get('ticket') === JSON_TICKET && q.get('service') === service) {
        res.setHeader('content-type', 'application/json');
        return res.end(
          JSON.stringify({
            serviceResponse: {
              authenticationSuccess: {
                user: 'member',
                attributes: { tenantCode: [tenantOfJson], memberOf: ['a', 'b'] },
              },
            },
          }),
        );
      }
      if (q.get('ticket')?.startsWith('ST-4-')) {
        res.statusCode = 502;
        return res.end('<html><body>Bad gateway</body></html>');
      }
      res.setHeader('content-type', 'application/xml');
      res.end(
        q.get('ticket') === XML_TICKET && q.get('service') === service
          ? `<cas:serviceResponse xmlns:cas='http://www.yale.edu/tp/cas'>
  <cas:authenticationSuccess>
    <cas:user>member</cas:user>
    <cas:attributes><cas:memberOf>a</cas:memberOf><cas:memberOf>b</cas:memberOf></cas:attributes>
  </cas:authenticationSuccess>
</cas:serviceResponse>`
          : `<cas:serviceResponse xmlns:cas='http://www.yale.edu/tp/cas'><cas:authenticationFailure code="INVALID_TICKET">not recognized</cas:authenticationFailure></cas:serviceResponse>`,
      );
    });
    const casPort = await freePort();
    await new Promise<void>((done) => foreign.listen(casPort, '127.0.0.1', done));
    const one = await createTestContext(
      { PUBLIC_URL: base, SSO_URL: `http://127.0.0.1:${casPort}/` },
      { databaseUrl: ctx.url },
    );
    try {
      const exchange = (st: string) =>
        one.call({ method: 'POST', url: `/api/auth/jwt/getTokenBySt?${new URLSearchParams({ st, service })}` });
      const viaXml = await exchange(XML_TICKET);
      expect(viaXml.json()).toMatchObject({ status: 200 });
      // The attribute (a list) decides the tenant: 'member' is no user of park2.
      expect((await exchange(JSON_TICKET)).json()).toMatchObject({ status: 40121 });
      tenantOfJson = 'demo';
      expect((await exchange(JSON_TICKET)).json()).toMatchObject({ status: 200 });
      tenantOfJson = '';
      expect((await exchange(JSON_TICKET)).json()).toMatchObject({ status: 40121 }); // present but empty
      expect(asked).toEqual(
        [XML_TICKET, JSON_TICKET, JSON_TICKET, JSON_TICKET].map((t) => `/cas/p3/serviceValidate ${t}`),
      );
      const token = viaXml.json().data as string;
      const info = await one.call({ url: '/api/front/member/front/infoV2', token });
      expect(info.json().data).toMatchObject({ username: 'member', tenantCode: 'demo' });
      // Refused by that server: 40121; an error page from it: unavailable, not a refused ticket.
      expect((await exchange('ST-3-unknown.cas01.example.org')).json()).toMatchObject({ status: 40121 });
      expect((await exchange('ST-4-broken.cas01.example.org')).json()).toMatchObject({
        message: '统一认证中心暂不可用，请稍后再试',
      });

      // Its single logout names the dotted ticket.
      const slo = await one.app.inject({
        method: 'POST',
        url: '/sso/logout',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `logoutRequest=${encodeURIComponent(`<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><samlp:SessionIndex>${XML_TICKET}</samlp:SessionIndex></samlp:LogoutRequest>`)}`,
      });
      expect(slo.statusCode).toBe(200);
      expect((await one.call({ url: '/api/front/member/front/infoV2', token })).statusCode).toBe(401);
    } finally {
      await one.close();
      await new Promise((done) => foreign.close(done));
    }
  });

  it('reads a session index only when it is a service ticket', () => {
    const lr = (index: string) =>
      `<samlp:LogoutRequest><samlp:SessionIndex> ${index} </samlp:SessionIndex></samlp:LogoutRequest>`;
    expect(sessionIndexOf(lr(XML_TICKET))).toBe(XML_TICKET);
    expect(sessionIndexOf(lr('PT-1-abc'))).toBeNull();
    expect(sessionIndexOf(lr('ST-<x>'))).toBeNull();
    expect(sessionIndexOf(lr(`ST-${'a'.repeat(254)}`))).toBeNull();
  });
});

describe('single logout through the outbound address rule, and its cap', () => {
  interface Seen {
    url: string;
    ticket: string | null;
  }
  /** A CAS client's single-logout receiver on loopback; `/moved…` answers a redirect to `elsewhere`. */
  async function receiver(elsewhere?: number) {
    const seen: Seen[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const xml = new URLSearchParams(body).get('logoutRequest') ?? '';
        seen.push({ url: req.url ?? '', ticket: sessionIndexOf(xml) });
        if (req.url?.startsWith('/moved') && elsewhere) {
          res.writeHead(302, { location: `http://127.0.0.1:${elsewhere}/followed-from${req.url}` }).end();
        } else res.writeHead(200).end('ok');
      });
    });
    const port = await freePort();
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
    const close = async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    };
    return { seen, port, close };
  }
  const sample = (text: string, name: string, labels: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  };
  async function register(pattern: string, logoutUrl: string | null = null) {
    await ctx.db.execute(
      sql`INSERT INTO sso_services (tenant_id, name, pattern, logout_url)
          SELECT id, 'Loopback app', ${pattern}, ${logoutUrl} FROM tenants WHERE code = 'demo'`,
    );
  }
  /** Signs in for `service` on `c`, has the ticket validated, and returns it with the SSO cookie. */
  async function validated(c: TestContext, service: string, cookie?: string) {
    const res = cookie
      ? await c.app.inject({
          url: `/cas/login?${new URLSearchParams({ service, tenantCode: 'demo' })}`,
          headers: { cookie: `CASTGC=${cookie}` },
        })
      : await casLogin(c, { service });
    const ticket = ticketIn(res.headers.location)!;
    const answer = await c.app.inject({
      url: `/cas/p3/serviceValidate?${new URLSearchParams({ ticket, service, format: 'JSON' })}`,
    });
    expect(answer.json().serviceResponse.authenticationSuccess?.user, service).toBe('member');
    return { ticket, cookie: cookie ?? cookieOf(res.headers['set-cookie']).value };
  }
  const logout = (c: TestContext, cookie: string) =>
    c.app.inject({ url: '/cas/logout', headers: { cookie: `CASTGC=${cookie}` } });

  it('sends nothing to a loopback address the installation does not list, and follows no redirect', async () => {
    const elsewhere = await receiver();
    const slo = await receiver(elsewhere.port);
    // The production rule (nothing but public addresses) on the same database.
    const strict = await createTestContext(
      { PUBLIC_URL: 'http://portal.test', LOGIN_RATE_PER_MINUTE: '1000', OUTBOUND_ALLOWED_CIDRS: 'none' },
      { databaseUrl: ctx.url },
    );
    try {
      // Registered before addresses were checked at registration, or a name that now resolves here.
      await register(`http://127.0.0.1:${slo.port}/app/`);
      await register(`http://127.0.0.1:${slo.port}/moving/`, `http://127.0.0.1:${slo.port}/moved/slo`);
      const first = await validated(strict, `http://127.0.0.1:${slo.port}/app/home`);
      await validated(strict, `http://127.0.0.1:${slo.port}/moving/home`, first.cookie);
      expect((await logout(strict, first.cookie)).statusCode).toBe(200);
      expect(slo.seen).toEqual([]);
      const text = await strict.app.metrics.registry.metrics();
      expect(sample(text, 'portal_outbound_refused_total', 'purpose="sso_logout",reason="loopback"')).toBe(2);

      // Test mode allows loopback: the receiver is told, and the redirect it answers is not followed.
      const second = await validated(ctx, `http://127.0.0.1:${slo.port}/app/home`);
      const moving = await validated(ctx, `http://127.0.0.1:${slo.port}/moving/home`, second.cookie);
      await logout(ctx, second.cookie);
      expect(slo.seen).toEqual(
        expect.arrayContaining([
          { url: '/app/home', ticket: second.ticket },
          { url: '/moved/slo', ticket: moving.ticket },
        ]),
      );
      expect(slo.seen).toHaveLength(2);
      expect(elsewhere.seen).toEqual([]);
    } finally {
      await strict.close();
      await slo.close();
      await elsewhere.close();
    }
  });

  it('sends at most 20 single-logout requests per logout, every service its newest tickets first', async () => {
    const slo = await receiver();
    try {
      await register(`http://127.0.0.1:${slo.port}/busy/`);
      await register(`http://127.0.0.1:${slo.port}/quiet/`);
      // The quiet service's ticket is the session's oldest; then 25 entries into the busy one.
      const { cookie, ticket: quiet } = await validated(ctx, `http://127.0.0.1:${slo.port}/quiet/`);
      const busy: string[] = [];
      for (let i = 0; i < 25; i++)
        busy.push((await validated(ctx, `http://127.0.0.1:${slo.port}/busy/`, cookie)).ticket);
      const before = await ctx.app.metrics.registry.metrics();
      await logout(ctx, cookie);
      expect(slo.seen).toHaveLength(20);
      expect(slo.seen.filter((s) => s.url === '/quiet/').map((s) => s.ticket)).toEqual([quiet]);
      expect(new Set(slo.seen.filter((s) => s.url === '/busy/').map((s) => s.ticket))).toEqual(
        new Set(busy.slice(-19)),
      );
      const after = await ctx.app.metrics.registry.metrics();
      const dropped = (text: string) =>
        sample(text, 'portal_outbound_requests_total', 'purpose="sso_logout",result="dropped"');
      expect(dropped(after) - dropped(before)).toBe(6);
    } finally {
      await slo.close();
    }
  });

  it('matches a service by its canonical host: a trailing dot or capitals are the same address, not another', async () => {
    // park2 registered https://oa.park2.test/ (above): the same host written differently finds it.
    for (const service of ['https://oa.park2.test./home', 'HTTPS://OA.PARK2.TEST./home']) {
      const res = await ctx.app.inject({ url: `/cas/login?${new URLSearchParams({ service })}` });
      expect(res.statusCode, service).toBe(200);
      expect(/<meta name="sso-tenant-code" content="([^"]*)">/.exec(res.body)?.[1], service).toBe('park2');
    }
    // A demo service asked for with a trailing dot: the ticket is for the canonical address, and
    // validating with either spelling is the same service.
    const res = await casLogin(ctx, { service: 'https://oa.demo.test./app', tenantCode: '' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^https:\/\/oa\.demo\.test\/app\?ticket=ST-/);
    const ticket = ticketIn(res.headers.location)!;
    expect((await json({ ticket, service: 'https://oa.demo.test./app' })).authenticationSuccess?.user).toBe('member');
    expect(parseService('https://oa.demo.test../app')).toBeNull();
  });
});
