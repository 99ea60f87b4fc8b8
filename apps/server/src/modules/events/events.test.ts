/**
 * Live streams end with their sessions, on every instance: two instances of the app on one database,
 * a stream open on B, and on A each change that ends a session (a disable, a password set, a role or
 * an enterprise taken away, a logout, a switch, a disabled tenant). The stream on B ends within a
 * second, and no event is written to a stream whose session is no longer live.
 */
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';

let a: TestContext;
let b: TestContext;
let operator: string;
let memberId: string;

const ENV = { LOGIN_RATE_PER_MINUTE: '100000' };
const statusOf = (res: { json(): unknown }) => (res.json() as { status: number }).status;

beforeAll(async () => {
  a = await createTestContext(ENV);
  b = await createTestContext(ENV, { databaseUrl: a.url });
  operator = await a.asRole(await a.login('admin'), 'park_operator');
  memberId = await idOf(sql`SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id
    WHERE t.code = 'demo' AND u.username = 'member'`);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

async function idOf(query: ReturnType<typeof sql>): Promise<string> {
  const { rows } = await a.db.execute<{ id: string }>(query);
  return String(rows[0]!.id);
}

async function ids(query: ReturnType<typeof sql>): Promise<string[]> {
  const { rows } = await a.db.execute<{ id: string }>(query);
  return rows.map((r) => String(r.id));
}

interface OpenStream {
  /** Everything received so far. */
  text(): string;
  /** When the server ended it (performance.now()), once it has. */
  ended: Promise<number>;
  /** Lets it go from the client's side. */
  stop(): void;
}

/** Opens the live stream of `token` on an instance and keeps reading it; resolves once `hello` came. */
async function openStream(on: TestContext, token: string): Promise<OpenStream> {
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
  let hello: () => void = () => {};
  const greeted = new Promise<void>((resolve) => (hello = resolve));
  const ended = new Promise<number>((resolve) => {
    stream.on('end', () => resolve(performance.now()));
    stream.on('close', () => resolve(performance.now()));
    stream.on('error', () => resolve(performance.now()));
  });
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.includes('event: hello')) hello();
  });
  await Promise.race([greeted, ended]);
  expect(text).toContain('event: hello');
  return { text: () => text, ended, stop: () => stream.destroy() };
}

/** Publishes a notice to the demo member, on instance A. */
async function noticeToMember(title: string) {
  const res = await a.call({
    url: '/api/admin/notices',
    body: { title, remark: '<p>请阅知。</p>', replyWay: 0, audience: { kind: 'users', ids: [Number(memberId)] } },
    token: operator,
  });
  expect(statusOf(res), res.body).toBe(200);
}

/**
 * Runs `act` on instance A while the member's stream is open on B: the stream ends within a second
 * of its answer, and no notice published after it reaches the stream.
 */
async function endsWithin(act: (token: string) => Promise<{ json(): unknown; body: string }>, title: string) {
  const token = await a.login('member');
  const stream = await openStream(b, token);
  try {
    const res = await act(token);
    const answered = performance.now();
    expect(statusOf(res), res.body).toBe(200);
    await noticeToMember(title);
    const ended = await Promise.race([stream.ended, new Promise<null>((r) => setTimeout(() => r(null), 3000))]);
    expect(ended, `the stream was still open 3 s after: ${title}`).not.toBeNull();
    expect(ended! - answered).toBeLessThan(1000);
    expect(stream.text()).not.toContain('event: notice');
  } finally {
    stream.stop();
  }
}

describe('a live stream ends with its session, on every instance', () => {
  it('when the user is disabled, and no notice published after reaches it', async () => {
    try {
      await endsWithin(
        () => a.call({ url: `/api/admin/users/${memberId}/disable`, body: {}, token: operator }),
        '停用之后的通知',
      );
    } finally {
      const enabled = await a.call({ url: `/api/admin/users/${memberId}/enable`, body: {}, token: operator });
      expect(statusOf(enabled)).toBe(200);
    }
  });

  it('when an operator sets the password', async () => {
    await endsWithin(
      () =>
        a.call({
          url: `/api/admin/users/${memberId}/password`,
          body: { password: a.encrypt(DEMO_PASSWORD), temporary: false },
          token: operator,
        }),
      '改密之后的通知',
    );
  });

  it('when the role or the enterprise the session is in is taken away', async () => {
    const roles = await ids(sql`SELECT role_id AS id FROM user_roles WHERE user_id = ${memberId} ORDER BY role_id`);
    const enterprises = await ids(
      sql`SELECT enterprise_id AS id FROM enterprise_members WHERE user_id = ${memberId} ORDER BY enterprise_id`,
    );
    /** The role or enterprise of the member's newest session: the stream's. */
    const sessionOf = (column: 'role_id' | 'enterprise_id') =>
      idOf(sql`SELECT ${sql.raw(column)} AS id FROM sessions
        WHERE user_id = ${memberId} AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`);
    expect(roles.length).toBeGreaterThan(1);
    expect(enterprises.length).toBeGreaterThan(1);
    try {
      await endsWithin(async () => {
        const role = await sessionOf('role_id');
        return a.call({
          method: 'PUT',
          url: `/api/admin/users/${memberId}/roles`,
          body: { roleIds: roles.filter((r) => r !== role) },
          token: operator,
        });
      }, '失去角色之后的通知');
      await endsWithin(async () => {
        const enterprise = await sessionOf('enterprise_id');
        return a.call({
          method: 'PUT',
          url: `/api/admin/users/${memberId}/enterprises`,
          body: { enterpriseIds: enterprises.filter((e) => e !== enterprise) },
          token: operator,
        });
      }, '失去企业之后的通知');
    } finally {
      for (const [url, body] of [
        [`/api/admin/users/${memberId}/roles`, { roleIds: roles }],
        [`/api/admin/users/${memberId}/enterprises`, { enterpriseIds: enterprises }],
      ] as const) {
        expect(statusOf(await a.call({ method: 'PUT', url, body, token: operator }))).toBe(200);
      }
    }
  });

  it('when the user logs out, or switches to another role', async () => {
    await endsWithin((token) => a.call({ url: '/api/auth/jwt/logout', body: {}, token }), '退出之后的通知');
    const other = await idOf(sql`SELECT role_id AS id FROM user_roles WHERE user_id = ${memberId}
      AND role_id <> (SELECT role_id FROM sessions WHERE user_id = ${memberId} ORDER BY created_at DESC LIMIT 1)
      LIMIT 1`);
    await endsWithin(
      (token) => a.call({ url: '/api/front/member/switchContext', body: { roleId: other }, token }),
      '切换之后的通知',
    );
  });

  it("when the user's tenant is disabled", async () => {
    const platform = await a.login('platform', DEMO_PASSWORD, 'platform');
    const created = await a.call({
      url: '/api/admin/tenants',
      body: {
        code: 'east-park',
        name: '东区园区',
        operator: { username: 'east', name: '东区运营', password: a.encrypt('Harbour#2026x'), temporary: false },
      },
      token: platform,
    });
    expect(statusOf(created)).toBe(200);
    const token = await a.login('east', 'Harbour#2026x', 'east-park');
    const stream = await openStream(b, token);
    try {
      const res = await a.call({
        method: 'PATCH',
        url: `/api/admin/tenants/${(created.json() as { data: string }).data}`,
        body: { disabled: true },
        token: platform,
      });
      const answered = performance.now();
      expect(statusOf(res)).toBe(200);
      const ended = await Promise.race([stream.ended, new Promise<null>((r) => setTimeout(() => r(null), 3000))]);
      expect(ended).not.toBeNull();
      expect(ended! - answered).toBeLessThan(1000);
    } finally {
      stream.stop();
    }
  });

  it('writes no event to a stream whose session ended before the bus said so', async () => {
    const token = await a.login('member');
    const stream = await openStream(b, token);
    try {
      // The session ends in the database alone: no instance has been told yet.
      await a.db.execute(
        sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${memberId} AND revoked_at IS NULL`,
      );
      await noticeToMember('无声结束之后的通知');
      const ended = await Promise.race([stream.ended, new Promise<null>((r) => setTimeout(() => r(null), 3000))]);
      expect(ended).not.toBeNull();
      expect(stream.text()).not.toContain('event: notice');
    } finally {
      stream.stop();
    }
  });

  it('still tells a live session at once, on the other instance', async () => {
    const token = await a.login('member');
    const stream = await openStream(b, token);
    try {
      await noticeToMember('仍然送达的通知');
      await expect.poll(() => stream.text(), { timeout: 3000 }).toContain('event: notice');
      // Another user's session ending leaves it open.
      await a.call({ url: '/api/auth/jwt/logout', body: {}, token: await a.login('admin') });
      await new Promise((r) => setTimeout(r, 300));
      const ended = await Promise.race([stream.ended, new Promise<null>((r) => setTimeout(() => r(null), 200))]);
      expect(ended).toBeNull();
    } finally {
      stream.stop();
    }
  });
});

describe("a tenant's menu changes", () => {
  it("tell its members' open streams, on every instance, and no other tenant's", async () => {
    const member = await openStream(b, await a.login('member'));
    // A user of another tenant (the platform's operator) hears nothing of the demo's menu.
    const other = await openStream(b, await a.login('platform', DEMO_PASSWORD, 'platform'));
    try {
      const [first, second] = await ids(sql`SELECT m.id FROM menus m JOIN tenants t ON t.id = m.tenant_id
        WHERE t.code = 'demo' AND m.parent_id IS NULL ORDER BY m.sort, m.id LIMIT 2`);
      expect(second).toBeDefined();
      const moved = await a.call({
        url: `/api/admin/menus/${first}/move`,
        body: { parentId: null, index: 1 },
        token: operator,
      });
      expect(statusOf(moved), moved.body).toBe(200);
      await expect.poll(() => member.text(), { timeout: 3000 }).toContain('event: menu');
      // Not a notice: nothing to replay after a reconnect, the unread count unchanged.
      expect(member.text()).toMatch(/event: menu\ndata: \{\}\n\n/);
      expect(member.text()).not.toMatch(/id: \d+\nevent: menu/);
      expect(other.text()).not.toContain('event: menu');
      // Back as it was.
      await a.call({ url: `/api/admin/menus/${first}/move`, body: { parentId: null, index: 0 }, token: operator });
    } finally {
      member.stop();
      other.stop();
    }
  });
});
