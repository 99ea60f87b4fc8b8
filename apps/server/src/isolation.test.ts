/**
 * Tenant isolation, swept from the route table: a second park (tenant B) with everything the demo
 * has; every route that takes a session is called with tenant A's session and, in each field that
 * names an object (found from the route's schemas by name), tenant B's objects of that kind. The
 * answer must be the one an unknown id gets: B's objects are invisible to A, not forbidden. A new
 * route is swept without anyone listing it; a new id-like field must be given its kind below.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from './db/demo/seed.js';
import { hashPassword } from './platform/passwords.js';
import type { RouteEntry } from './platform/route-table.js';
import { seededRng, validValue } from './test/fuzz.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from './test/harness.js';

type Kind =
  | 'user'
  | 'role'
  | 'roleCode'
  | 'application'
  | 'applicationCode'
  | 'workbench'
  | 'workbenchCode'
  | 'enterprise'
  | 'page'
  | 'system'
  | 'invitation'
  | 'notice'
  | 'tenant'
  | 'microApp'
  | 'room'
  | 'repair'
  | 'booking'
  | 'device'
  | 'credential'
  | 'alert'
  | 'menu'
  | 'permission'
  | 'ssoService'
  | 'oidcClient'
  | 'signIn'
  | 'passkey'
  | 'factor';

/** What each id-like field names; `path:field` where a name means different things on different routes. */
const KINDS: Record<string, Kind> = {
  userId: 'user',
  roleId: 'role',
  defaultRoleId: 'role',
  serviceRoleId: 'role',
  fastRoleCode: 'roleCode',
  applyId: 'application',
  defaultApplyId: 'application',
  fastAppCode: 'applicationCode',
  appCodes: 'applicationCode',
  serviceCode: 'applicationCode',
  workbenchId: 'workbench',
  defaultWorkbenchCode: 'workbenchCode',
  wbCode: 'workbenchCode',
  benchCode: 'workbenchCode',
  targetWb: 'workbenchCode',
  partWb: 'workbenchCode',
  entId: 'enterprise',
  sysCode: 'system',
  '/api/front/member/getAppNameByCode/:code:code': 'applicationCode',
  '/api/front/page/definition/:code:code': 'page',
  '/api/admin/pages/:code:code': 'page',
  '/api/admin/pages/:code/versions:code': 'page',
  '/api/admin/pages/:code/versions/:version:code': 'page',
  '/api/admin/pages/:code/publish:code': 'page',
  '/api/admin/pages/:code/restore:code': 'page',
  '/api/front/ent/invitations/revoke:id': 'invitation',
  '/api/front/letter/replyInfo/:id:id': 'notice',
  '/api/front/letter/editAnswerStatus:id': 'notice',
  '/api/front/letter/reply:id': 'notice',
  '/api/admin/notices/:id:id': 'notice',
  '/api/admin/notices/:id/recipients:id': 'notice',
  '/api/admin/notices/:id/recipients/export:id': 'notice',
  '/api/admin/notices/:id/withdraw:id': 'notice',
  receiverId: 'user',
  tenantId: 'tenant',
  '/api/admin/micro-apps/:id/remove:id': 'microApp',
  roomId: 'room',
  '/api/front/park/repairs/:id:id': 'repair',
  '/api/front/park/repairs/:id/status:id': 'repair',
  '/api/front/park/bookings/:id/cancel:id': 'booking',
  '/api/admin/devices/:id/credentials:id': 'device',
  '/api/admin/device-credentials/:id/revoke:id': 'credential',
  '/api/front/device-alerts/:id/acknowledge:id': 'alert',
  '/api/front/device-alerts/:id/close:id': 'alert',
  roleIds: 'role',
  enterpriseIds: 'enterprise',
  permissionIds: 'permission',
  applicationId: 'application',
  '/api/admin/users/:id:id': 'user',
  '/api/admin/users/:id/disable:id': 'user',
  '/api/admin/users/:id/enable:id': 'user',
  '/api/admin/users/:id/password:id': 'user',
  '/api/admin/users/:id/unlock:id': 'user',
  '/api/admin/users/:id/factors/reset:id': 'user',
  '/api/admin/users/:id/roles:id': 'user',
  '/api/admin/users/:id/enterprises:id': 'user',
  '/api/admin/roles/:id:id': 'role',
  '/api/admin/roles/:id/permissions:id': 'role',
  '/api/admin/permissions/:id:id': 'permission',
  '/api/admin/applications/:id:id': 'application',
  '/api/admin/workbenches/:id:id': 'workbench',
  '/api/admin/enterprises/:id:id': 'enterprise',
  '/api/admin/enterprises/:id/review:id': 'enterprise',
  '/api/admin/sso-services/:id:id': 'ssoService',
  '/api/admin/oidc-clients/:id:id': 'oidcClient',
  '/api/admin/oidc-clients/:id/enable:id': 'oidcClient',
  '/api/admin/oidc-clients/:id/disable:id': 'oidcClient',
  '/api/admin/oidc-clients/:id/secret:id': 'oidcClient',
  '/api/admin/menus/:id:id': 'menu',
  '/api/admin/menus/:id/move:id': 'menu',
  '/api/admin/menus:parentId': 'menu',
  '/api/admin/menus/:id/move:parentId': 'menu',
  '/api/admin/tenants/:id:id': 'tenant',
  '/api/front/security/sessions/:id/end:id': 'signIn',
  '/api/admin/sign-ins/:id/end:id': 'signIn',
  '/api/admin/online-users/:id/end:id': 'user',
  '/api/front/security/passkeys/:id:id': 'passkey',
  '/api/front/security/factors/:id:id': 'factor',
};
/**
 * Fields the product's calls list that the server accepts and ignores (docs/product/calls.md#call-list: infoV2 and allPermissionV2
 * parameters the session already answers; getUserRolesNew's benchCode): any value gets the same
 * answer, so the sweep cannot tell A's objects from unknown ones there.
 */
const IGNORED = new Set([
  '/api/front/member/front/infoV2:fastRoleCode',
  '/api/front/member/front/infoV2:roleId',
  '/api/front/member/front/infoV2:wbCode',
  '/api/front/member/front/infoV2:benchCode',
  '/api/front/member/front/allPermissionV2:fastRoleCode',
  '/api/front/member/front/allPermissionV2:targetWb',
  '/api/front/member/front/allPermissionV2:partWb',
  '/api/front/member/front/allPermissionV2:serviceCode',
  '/api/front/member/getUserRolesNew:benchCode',
  // Tenants are the platform operator's: a tenant operator is refused whatever the id (40303).
  '/api/admin/tenants/:id:id',
]);

/**
 * Id-like names that name no object of a tenant (`path:field` where only one route means so): a
 * registration's code is the key it is saved under in the caller's own tenant.
 */
const NOT_OBJECTS = new Set([
  'token',
  '/api/admin/micro-apps:code',
  '/api/admin/devices:code',
  // The code a new tenant, role, permission, application or workbench is to have.
  '/api/admin/tenants:code',
  '/api/admin/roles:code',
  '/api/admin/permissions:code',
  '/api/admin/applications:code',
  '/api/admin/workbenches:code',
  // An external system's code as a sign-on service is registered or edited.
  '/api/admin/sso-services:sysCode',
  '/api/admin/sso-services/:id:sysCode',
  // The code of a text message to the caller's own number.
  '/api/front/account/mobile/verify:smsCode',
  // The code of the caller's own authenticator (a new one's first, or one for step-up).
  '/api/front/security/factors/totp/confirm:code',
  '/api/front/security/step-up:code',
]);
const ID_LIKE = /(?:Id|Ids|Code|Codes|Wb)$|^(?:id|code)$/;

type Part = 'querystring' | 'params' | 'body';
interface Field {
  route: RouteEntry;
  part: Part;
  name: string;
  kind: Kind;
}

function idFields(route: RouteEntry): { fields: Field[]; unclassified: string[] } {
  const fields: Field[] = [];
  const unclassified: string[] = [];
  for (const part of ['querystring', 'params', 'body'] as const) {
    const props = ((route.schema as Record<string, { properties?: object }> | undefined)?.[part]?.properties ??
      {}) as Record<string, unknown>;
    for (const name of Object.keys(props)) {
      const kind = NOT_OBJECTS.has(`${route.url}:${name}`) ? undefined : (KINDS[`${route.url}:${name}`] ?? KINDS[name]);
      if (kind) fields.push({ route, part, name, kind });
      else if (ID_LIKE.test(name) && !NOT_OBJECTS.has(name) && !NOT_OBJECTS.has(`${route.url}:${name}`))
        unclassified.push(`${route.method} ${route.url} ${name}`);
    }
  }
  return { fields, unclassified };
}

let ctx: TestContext;
let tenantB: number;
const objects: Record<'A' | 'B', Record<Kind, string[]>> = { A: {} as never, B: {} as never };

const UNKNOWN: Record<Kind, string> = {
  user: '987654321',
  role: '987654321',
  roleCode: 'NO_SUCH_ROLE',
  application: '987654321',
  applicationCode: 'NO_SUCH_APP',
  workbench: '987654321',
  workbenchCode: 'NO_SUCH_WB',
  enterprise: '987654321',
  page: 'no-such-page',
  system: 'NO_SUCH_SYSTEM',
  invitation: '987654321',
  notice: '987654321',
  tenant: '987654321',
  microApp: '987654321',
  room: '987654321',
  repair: '987654321',
  booking: '987654321',
  device: '987654321',
  credential: '987654321',
  alert: '987654321',
  menu: '987654321',
  permission: '987654321',
  ssoService: '987654321',
  oidcClient: '987654321',
  signIn: 'portal-00000000-0000-4000-8000-000000000000',
  passkey: '987654321',
  factor: '987654321',
};

async function objectsOf(tenantId: number): Promise<Record<Kind, string[]>> {
  const list = async (query: ReturnType<typeof sql>) =>
    (await ctx.db.execute<{ v: string }>(query)).rows.map((r) => String(r.v));
  return {
    user: await list(sql`SELECT id AS v FROM users WHERE tenant_id = ${tenantId} ORDER BY id`),
    role: await list(sql`SELECT id AS v FROM roles WHERE tenant_id = ${tenantId} ORDER BY id`),
    roleCode: await list(sql`SELECT code AS v FROM roles WHERE tenant_id = ${tenantId} ORDER BY id`),
    application: await list(sql`SELECT id AS v FROM applications WHERE tenant_id = ${tenantId} ORDER BY id`),
    applicationCode: await list(sql`SELECT code AS v FROM applications WHERE tenant_id = ${tenantId} ORDER BY id`),
    workbench: await list(sql`SELECT id AS v FROM workbenches WHERE tenant_id = ${tenantId} ORDER BY id`),
    workbenchCode: await list(sql`SELECT code AS v FROM workbenches WHERE tenant_id = ${tenantId} ORDER BY id`),
    enterprise: await list(sql`SELECT id AS v FROM enterprises WHERE tenant_id = ${tenantId} ORDER BY id`),
    page: await list(sql`SELECT code AS v FROM page_definitions WHERE tenant_id = ${tenantId} ORDER BY code`),
    system: await list(
      sql`SELECT sys_code AS v FROM sso_services WHERE tenant_id = ${tenantId} AND sys_code IS NOT NULL ORDER BY id`,
    ),
    invitation: await list(sql`SELECT id AS v FROM enterprise_invitations WHERE tenant_id = ${tenantId} ORDER BY id`),
    notice: await list(sql`SELECT id AS v FROM notices WHERE tenant_id = ${tenantId} ORDER BY id`),
    tenant: [String(tenantId)],
    microApp: await list(sql`SELECT id AS v FROM micro_apps WHERE tenant_id = ${tenantId} ORDER BY id`),
    room: await list(sql`SELECT id AS v FROM park_rooms WHERE tenant_id = ${tenantId} ORDER BY id`),
    repair: await list(sql`SELECT id AS v FROM park_repairs WHERE tenant_id = ${tenantId} ORDER BY id`),
    booking: await list(sql`SELECT id AS v FROM park_bookings WHERE tenant_id = ${tenantId} ORDER BY id`),
    device: await list(sql`SELECT id AS v FROM devices WHERE tenant_id = ${tenantId} ORDER BY id`),
    credential: await list(sql`SELECT id AS v FROM device_credentials WHERE tenant_id = ${tenantId} ORDER BY id`),
    menu: await list(sql`SELECT id AS v FROM menus WHERE tenant_id = ${tenantId} ORDER BY id`),
    permission: await list(sql`SELECT id AS v FROM permissions WHERE tenant_id = ${tenantId} ORDER BY id`),
    ssoService: await list(sql`SELECT id AS v FROM sso_services WHERE tenant_id = ${tenantId} ORDER BY id`),
    oidcClient: await list(sql`SELECT id AS v FROM oidc_clients WHERE tenant_id = ${tenantId} ORDER BY id`),
    // Live portal sign-ins, the admin's first (the sweep ends one of A's own for each field that names one).
    signIn: await list(sql`SELECT 'portal-' || s.chain_id AS v FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.tenant_id = ${tenantId} AND s.revoked_at IS NULL AND s.expires_at > now()
      GROUP BY s.chain_id, u.username ORDER BY u.username <> 'admin', min(s.created_at)`),
    passkey: await list(
      sql`SELECT id AS v FROM user_factors WHERE tenant_id = ${tenantId} AND kind = 'webauthn' ORDER BY id`,
    ),
    // The admin's own second factors (one person's: a person reaches only their own).
    factor: await list(
      sql`SELECT f.id AS v FROM user_factors f JOIN users u ON u.id = f.user_id
          WHERE f.tenant_id = ${tenantId} AND u.username = 'admin' ORDER BY f.id`,
    ),
    // Open ones first: the sweep tells A's own by an answer other than an unknown id's.
    alert: await list(
      sql`SELECT id AS v FROM device_alerts WHERE tenant_id = ${tenantId} ORDER BY state = 'open' DESC, id`,
    ),
  };
}

beforeAll(async () => {
  // A login after every field: more than one address may make in a minute.
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '1000000' });
  const hash = await hashPassword(DEMO_PASSWORD);
  tenantB = await ctx.db.transaction((tx) => insertDemo(tx, hash, { code: 'other', name: '另一园区' }));
  // The seed gives every tenant the same codes; B's must differ from A's to tell them apart.
  await ctx.db.execute(sql`UPDATE applications SET code = 'B_' || code WHERE tenant_id = ${tenantB}`);
  await ctx.db.execute(sql`UPDATE workbenches SET code = 'B_' || code WHERE tenant_id = ${tenantB}`);
  await ctx.db.execute(sql`UPDATE roles SET code = 'b_' || code WHERE tenant_id = ${tenantB}`);
  await ctx.db.execute(sql`UPDATE page_definitions SET code = 'b-' || code WHERE tenant_id = ${tenantB}`);
  await ctx.db.execute(sql`UPDATE sso_services SET sys_code = 'B_' || sys_code WHERE tenant_id = ${tenantB}`);
  // Open invitations into each admin's own enterprise (the one an admin's session is in).
  await ctx.db.execute(sql`
    INSERT INTO enterprise_invitations (tenant_id, enterprise_id, mobile, invited_by, expires_at)
    SELECT u.tenant_id, u.default_enterprise_id, m.mobile, u.id, now() + interval '1 day'
    FROM users u, (VALUES ('13912349001'), ('13912349002')) AS m (mobile) WHERE u.username = 'admin'`);
  // A's admin may publish and manage applications, devices and pages in its current role, so the
  // operators' routes can tell A's objects.
  await ctx.db.execute(sql`
    INSERT INTO role_permissions (role_id, permission_id)
    SELECT r.id, p.id FROM roles r
    JOIN permissions p ON p.tenant_id = r.tenant_id
      AND p.code IN ('notice:publish', 'microapp:manage', 'device:manage', 'alert:handle', 'page:design', 'system:manage')
    JOIN tenants t ON t.id = r.tenant_id WHERE t.code = 'demo' AND r.code = 'ent_admin'`);
  // Each admin's repair requests and future bookings of the demo sub-application's services.
  await ctx.db.execute(sql`
    INSERT INTO park_repairs (tenant_id, user_id, title, location)
    SELECT tenant_id, id, '空调不制冷', 'A栋' FROM users WHERE username = 'admin'`);
  await ctx.db.execute(sql`
    INSERT INTO park_bookings (tenant_id, room_id, user_id, subject, starts_at, ends_at)
    SELECT r.tenant_id, r.id, u.id, '例会', now() + interval '2 days', now() + interval '2 days 1 hour'
    FROM park_rooms r JOIN users u ON u.tenant_id = r.tenant_id AND u.username = 'admin'`);
  // A credential of each tenant's every device (the seed makes them only for the demo's file).
  await ctx.db.execute(sql`
    INSERT INTO device_credentials (tenant_id, device_id, key_id, secret_hash)
    SELECT tenant_id, id, substr(md5(random()::text), 1, 12), md5(random()::text) FROM devices`);
  // An OIDC client of each tenant (the seed registers only the demo's example system, in the demo).
  await ctx.db.execute(sql`
    INSERT INTO oidc_clients (tenant_id, client_id, name, confidential, secret_hash, grant_types, redirect_uris, scopes)
    SELECT id, md5(random()::text), '客户端', true, md5(random()::text), '{authorization_code}',
      '{https://app.example.com/cb}', '{openid}' FROM tenants WHERE code IN ('demo', 'other')`);
  // The tenants allow no factor kind (read before the first sign-in, which keeps the policy a minute),
  // so that the admins, who get factors below, still sign in in one step.
  await ctx.db.execute(
    sql`UPDATE tenants SET security_policy = '{"allowedFactors": []}' WHERE code IN ('demo', 'other')`,
  );
  // Sign-ins of each tenant to end: several of A's admin (each field that names one ends one), B's member's.
  for (let i = 0; i < 4; i++) await ctx.login('admin');
  await ctx.login('member', DEMO_PASSWORD, 'other');
  // A passkey of each admin (the session the sweep uses is A's admin's).
  await ctx.db.execute(sql`
    INSERT INTO user_factors (tenant_id, user_id, kind, name, credential_id, public_key, sign_count, confirmed_at)
    SELECT tenant_id, id, 'webauthn', '通行密钥', md5(random()::text), md5(random()::text), 0, now()
    FROM users WHERE username = 'admin'`);
  // Four confirmed authenticators of each admin (one per route that names one, and spares).
  await ctx.db.execute(sql`
    INSERT INTO user_factors (tenant_id, user_id, kind, name, secret_cipher, confirmed_at)
    SELECT u.tenant_id, u.id, 'totp', '手机', 'v1.x.x.x', now() FROM users u, generate_series(1, 4)
    WHERE u.username = 'admin'`);
  const [a] = (await ctx.db.execute<{ id: number }>(sql`SELECT id FROM tenants WHERE code = 'demo'`)).rows;
  objects.A = await objectsOf(Number(a!.id));
  objects.B = await objectsOf(tenantB);
});
afterAll(async () => ctx?.close());

/** One call: `field` set to `value`, every other required field filled the same way each time. */
function call(field: Field, value: string, token: string) {
  const { route } = field;
  const schema = (route.schema ?? {}) as Partial<
    Record<Part, { properties?: Record<string, object>; required?: string[] }>
  >;
  const parts: Record<Part, Record<string, unknown>> = { querystring: {}, params: {}, body: {} };
  const r = seededRng(7);
  for (const part of ['querystring', 'params', 'body'] as const) {
    for (const name of schema[part]?.required ?? []) {
      // Another object field is filled with A's own object of its kind, so that only `field` differs.
      const kind = KINDS[`${route.url}:${name}`] ?? KINDS[name];
      parts[part][name] = kind ? objects.A[kind][0] : validValue(schema[part]!.properties![name], r);
    }
  }
  // A PATCH must name a field it changes (the input rules refuse one that names none): its first.
  const changes = Object.keys(schema.body?.properties ?? {});
  if (route.method === 'PATCH' && Object.keys(parts.body).length === 0 && changes.length > 0) {
    parts.body[changes[0]!] = validValue(schema.body!.properties![changes[0]!], r);
  }
  const prop = schema[field.part]!.properties![field.name] as { type?: string; anyOf?: unknown[] };
  parts[field.part][field.name] = prop.type === 'integer' ? Number(value) : prop.type === 'array' ? [value] : value;
  const path = route.url.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(String(parts.params[p])));
  const qs = new URLSearchParams(Object.entries(parts.querystring).map(([k, v]) => [k, String(v)])).toString();
  const hasBody = route.method !== 'GET';
  return ctx.call({
    method: route.method as 'GET',
    url: qs ? `${path}?${qs}` : path,
    ...(hasBody ? { body: parts.body } : {}),
    token,
  });
}

const answerOf = (res: LightMyRequestResponse) => ({ http: res.statusCode, body: res.json() as unknown });

describe('tenant isolation over the route table', () => {
  it("gives tenant A's session the answer of an unknown id for every object of tenant B", async () => {
    const sessionRoutes = ctx.app.routeTable.filter((r) => r.session && r.method !== 'HEAD');
    const found = sessionRoutes.map(idFields);
    expect(
      found.flatMap((f) => f.unclassified),
      'id-like fields without a kind in KINDS',
    ).toEqual([]);
    const fields = found.flatMap((f) => f.fields);

    let token = await ctx.login('admin');
    const leaks: string[] = [];
    const blind: string[] = [];
    let calls = 0;
    let distinguishing = 0;
    const routes = new Set<string>();
    for (const field of fields) {
      const label = `${field.route.method} ${field.route.url} ${field.name}`;
      expect(objects.B[field.kind].length, `tenant B has no ${field.kind}`).toBeGreaterThan(0);
      const unknown = answerOf(await call(field, UNKNOWN[field.kind], token));
      for (const id of objects.B[field.kind]) {
        const res = answerOf(await call(field, id, token));
        calls++;
        routes.add(`${field.route.method} ${field.route.url}`);
        if (JSON.stringify(res) !== JSON.stringify(unknown)) {
          leaks.push(`${label}=${id} (B): ${JSON.stringify(res)}; unknown: ${JSON.stringify(unknown)}`);
        }
      }
      // The sweep can tell: one of A's own objects gets another answer, unless the route ignores the field.
      let told = false;
      for (const own of objects.A[field.kind].slice(0, 4)) {
        const answer = answerOf(await call(field, own, token));
        if (JSON.stringify(answer) !== JSON.stringify(unknown)) {
          told = true;
          break;
        }
      }
      if (told) distinguishing++;
      else if (!IGNORED.has(`${field.route.url}:${field.name}`)) blind.push(label);
      // A switch or a new default may have ended the session or changed it: start again.
      token = await ctx.login('admin');
    }
    console.log(
      `isolation: ${routes.size} routes, ${fields.length} id fields, ${calls} calls with tenant B's ids, ` +
        `${distinguishing} fields where A's own id answers otherwise`,
    );
    expect(leaks).toEqual([]);
    expect(fields.length).toBeGreaterThanOrEqual(15);
    expect(blind, "fields where A's own object answers as an unknown one (the sweep could not tell)").toEqual([]);
  }, 300_000);

  // The OpenID Provider's routes take no session: each tenant's issuer is its own provider, which
  // knows only that tenant's clients (modules/oidc/oidc.test.ts runs the flows across tenants).
  it("knows tenant B's OpenID clients at B's issuer only", async () => {
    const secret = 'isolation-secret-0123456789abcdefghijklmnopqrstuv';
    await ctx.db.execute(sql`
      INSERT INTO oidc_clients (tenant_id, client_id, name, confidential, secret_hash, grant_types, scopes)
      VALUES (${tenantB}, 'b-machine', 'B', true, encode(sha256(${secret}::bytea), 'hex'),
              '{client_credentials}', '{openid}')`);
    const token = (code: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/oidc/${code}/token`,
        headers: {
          authorization: `Basic ${Buffer.from(`b-machine:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'grant_type=client_credentials',
      });
    const atA = await token('demo');
    expect(atA.statusCode).toBe(401);
    expect(atA.json()).toMatchObject({ error: 'invalid_client' });
    expect((await token('other')).statusCode).toBe(200);
  });

  it("refuses tenant A's session nothing of its own: the demo users still sign in to their tenants", async () => {
    expect(await ctx.login('member', DEMO_PASSWORD, 'other')).toMatch(/\./);
    expect(await ctx.login('member', DEMO_PASSWORD, 'demo')).toMatch(/\./);
  });
});
