/**
 * Every answer of the sign-on server that carries a name keeps its structure whatever the name
 * (ADR 032): CAS 1.0 answers `no` for a name it cannot write on one line; the XML answers
 * (serviceValidate, proxyValidate, their /p3 forms, samlValidate) and JSON answers carry names with
 * `<`, `&`, quotes and line breaks exactly, as independent parsers and clients read them; and the
 * example system shows them as text. The names are stored as an installation from before the
 * name grammar may hold them: written straight into the table (the API now refuses them).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../db/embedded.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';
import { validateWithNpmClient } from '../../test/npm-cas-client.js';

const SERVICE = 'http://oa.test/app/home';

let ctx: TestContext;
let base: string;
let port: number;
beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  ctx = await createTestContext({ PUBLIC_URL: base, SSO_URL: base, LOGIN_RATE_PER_MINUTE: '1000' });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  await ctx.db.execute(
    sql`INSERT INTO sso_services (tenant_id, name, pattern) SELECT id, 'OA', 'http://oa.test/app/' FROM tenants WHERE code = 'demo'`,
  );
});
afterAll(async () => ctx?.close());

/** A demo user with these names, stored as the table holds them (member's password and roles). */
async function storedUser(username: string, name: string): Promise<void> {
  await ctx.db.execute(sql`
    WITH m AS (SELECT u.* FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE t.code = 'demo' AND u.username = 'member'),
    u AS (INSERT INTO users (tenant_id, username, password_hash, name, default_role_id)
          SELECT tenant_id, ${username}, password_hash, ${name}, default_role_id FROM m RETURNING id)
    INSERT INTO user_roles (user_id, role_id) SELECT u.id, ur.role_id FROM u, user_roles ur, m WHERE ur.user_id = m.id`);
}

/** A service ticket for `service` from a sign-on form login as `username`. */
async function ticketOf(username: string, service = SERVICE): Promise<string> {
  const captchaKey = randomBytes(8).toString('hex');
  await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${captchaKey}` });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/cas/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      username,
      password: ctx.encrypt(DEMO_PASSWORD),
      imgvercode: '8888',
      captchaKey,
      service,
      tenantCode: 'demo',
    }).toString(),
  });
  expect(res.statusCode, res.body).toBe(303);
  return new URL(res.headers.location as string).searchParams.get('ticket')!;
}

const get = (path: string, query: Record<string, string>) =>
  ctx.app.inject({ url: `${path}?${new URLSearchParams(query)}` });

/** An XML reader that decodes what XML defines and nothing else, keeping white space. */
const xml = new XMLParser({
  removeNSPrefix: true,
  parseTagValue: false,
  ignoreAttributes: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => ['authenticationSuccess', 'user', 'Attribute', 'NameIdentifier'].includes(name),
});

describe('CAS 1.0 /validate', () => {
  it.each([
    ['a line feed', 'admin\nzz'],
    ['a carriage return', 'admin\rzz'],
    ['a line separator', 'admin\u2028zz'],
    ['a paragraph separator', 'admin\u2029zz'],
    ['a next-line character', 'admin\u0085zz'],
    ['a right-to-left override', 'admin\u202ezz'],
    ['a zero-width space', 'admin\u200bzz'],
  ])('answers no for a stored name with %s, never a second line', async (_, username) => {
    await storedUser(username, '旧用户');
    const res = await get('/cas/validate', { ticket: await ticketOf(username), service: SERVICE });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('no\n');
  });

  it('answers yes and the name for a name on one line, markup and all', async () => {
    await storedUser('o\'<b>&"c', '旧用户');
    for (const username of ['member', '张敏', 'o\'<b>&"c']) {
      if (username === '张敏') await storedUser(username, '张敏');
      const res = await get('/cas/validate', { ticket: await ticketOf(username), service: SERVICE });
      expect(res.body).toBe(`yes\n${username}\n`);
      expect(res.body.split('\n')).toHaveLength(3);
    }
  });
});

describe('XML and JSON answers', () => {
  const username = 'x<y>&"z\'\nline';
  const name = 'A & B <i>"quoted"</i>\r\nsecond\tline';
  beforeAll(() => storedUser(username, name));

  it.each(['/cas/serviceValidate', '/cas/p3/serviceValidate', '/cas/proxyValidate', '/cas/p3/proxyValidate'])(
    '%s carries the names exactly in XML and in JSON',
    async (path) => {
      const res = await get(path, { ticket: await ticketOf(username), service: SERVICE });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('<i>');
      const answer = xml.parse(res.body).serviceResponse;
      expect(answer.authenticationSuccess).toHaveLength(1);
      expect(answer.authenticationSuccess[0].user).toEqual([username]);
      if (path.includes('/p3/')) expect(answer.authenticationSuccess[0].attributes.name).toBe(name);

      const json = await get(path, { ticket: await ticketOf(username), service: SERVICE, format: 'JSON' });
      const success = json.json().serviceResponse.authenticationSuccess;
      expect(success.user).toBe(username);
      if (path.includes('/p3/')) expect(success.attributes.name).toBe(name);
    },
  );

  it('samlValidate carries them exactly in the assertion', async () => {
    const ticket = await ticketOf(username);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/cas/samlValidate?TARGET=${encodeURIComponent(SERVICE)}`,
      headers: { 'content-type': 'text/xml' },
      payload: `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><samlp:Request xmlns:samlp="urn:oasis:names:tc:SAML:1.0:protocol" MajorVersion="1" MinorVersion="1" RequestID="_r1" IssueInstant="2026-01-01T00:00:00Z"><samlp:AssertionArtifact>${ticket}</samlp:AssertionArtifact></samlp:Request></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<i>');
    const assertion = xml.parse(res.body).Envelope.Body.Response.Assertion;
    const statements = assertion.AttributeStatement;
    expect(statements.Subject.NameIdentifier).toEqual([username]);
    expect(assertion.AuthenticationStatement.Subject.NameIdentifier).toEqual([username]);
    const attribute = statements.Attribute.find((a: Record<string, string>) => a['@_AttributeName'] === 'name');
    expect(attribute.AttributeValue).toBe(name);
  });

  it('is a failure in XML, not a document no client can parse, when a name holds what XML cannot', async () => {
    await storedUser('control-name', 'bell\u0007name');
    const res = await get('/cas/p3/serviceValidate', { ticket: await ticketOf('control-name'), service: SERVICE });
    expect(xml.parse(res.body).serviceResponse.authenticationFailure).toMatchObject({ '@_code': 'INTERNAL_ERROR' });
    expect(res.body).not.toContain('\u0007');
    const json = await get('/cas/p3/serviceValidate', {
      ticket: await ticketOf('control-name'),
      service: SERVICE,
      format: 'JSON',
    });
    expect(json.json().serviceResponse.authenticationSuccess.attributes.name).toBe('bell\u0007name');
  });

  it('reaches an independent CAS client from npm (cas-authentication, XML) as the same user', async () => {
    const markup = 'o\'<b>&"c2';
    await storedUser(markup, '<img src=x onerror=alert(1)>');
    const ticket = await ticketOf(markup);
    const session = await validateWithNpmClient(base, port, ticket);
    expect(session.cas_user).toBe(markup);
    expect(session.cas_info).toMatchObject({ name: '<img src=x onerror=alert(1)>' });
  });
});

describe('the CAS clients served here', () => {
  it('the example system shows a name with markup as text', async () => {
    await storedUser('markup-user', '<img src=x onerror=alert(1)>');
    const system = `${base}/example-system/`;
    const ticket = await ticketOf('markup-user', system);
    const back = await fetch(`${system}?ticket=${ticket}`, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const cookie = /EXAMPLE_SYSTEM=[^;]*/.exec(back.headers.get('set-cookie') ?? '')![0];
    const page = await (await fetch(system, { headers: { cookie } })).text();
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain('<img');
  });

  it('the portal opens no session for a user another CAS server names with a line break, rather than trim it into another', async () => {
    // Another CAS server (SSO_URL elsewhere) releasing a name its registrant chose: `member` and a
    // line break, raw or escaped, in JSON or XML.
    const answers: Record<string, [string, string]> = {
      'ST-1-json': [
        'application/json',
        JSON.stringify({
          serviceResponse: { authenticationSuccess: { user: 'member\n', attributes: { tenantCode: 'demo' } } },
        }),
      ],
      'ST-2-xml-raw': [
        'application/xml',
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>member\n</cas:user></cas:authenticationSuccess></cas:serviceResponse>`,
      ],
      'ST-3-xml-ref': [
        'application/xml',
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:authenticationSuccess><cas:user>&#32;member&#10;</cas:user></cas:authenticationSuccess></cas:serviceResponse>`,
      ],
      'ST-4-xml-ok': [
        'application/xml',
        `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">\n  <cas:authenticationSuccess>\n    <cas:user>member</cas:user>\n  </cas:authenticationSuccess>\n</cas:serviceResponse>`,
      ],
    };
    const foreign = createServer((req, res) => {
      const [type, body] = answers[new URL(req.url ?? '/', 'http://x').searchParams.get('ticket') ?? ''] ?? [
        'text/plain',
        '',
      ];
      res.setHeader('content-type', type);
      res.end(body);
    });
    const casPort = await freePort();
    await new Promise<void>((done) => foreign.listen(casPort, '127.0.0.1', done));
    const portal = await createTestContext(
      { PUBLIC_URL: base, SSO_URL: `http://127.0.0.1:${casPort}` },
      { databaseUrl: ctx.url },
    );
    try {
      const service = `${base}/center/login`;
      const exchange = (st: string) =>
        portal.call({ method: 'POST', url: `/api/auth/jwt/getTokenBySt?${new URLSearchParams({ st, service })}` });
      for (const st of ['ST-1-json', 'ST-2-xml-raw', 'ST-3-xml-ref']) {
        expect((await exchange(st)).json(), st).toMatchObject({ status: 40121, data: null });
      }
      // The same server's well-formed answer, pretty-printed, still signs member in.
      expect((await exchange('ST-4-xml-ok')).json()).toMatchObject({ status: 200 });
    } finally {
      await portal.close();
      await new Promise((done) => foreign.close(done));
    }
  });
});
