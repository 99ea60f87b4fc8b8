/**
 * Devices and alerts over HTTP against the real database: the open views show only what a tenant
 * marks public and nothing of another tenant; handling alerts needs `alert:handle`; operators'
 * credentials (made, used, revoked → refused, hashed at rest); the ingest API's bounds, its
 * all-or-nothing storing, and its rate limit.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDemo } from '../../db/demo/seed.js';
import { createTestContext, DEMO_PASSWORD, type TestContext } from '../../test/harness.js';
import { hashPassword } from '../../platform/passwords.js';

let ctx: TestContext;
let operator: string;
let member: string;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.db.transaction(async (tx) =>
    insertDemo(tx, await hashPassword(DEMO_PASSWORD), { code: 'other', name: '另一园区' }),
  );
  // The other park's devices get codes of their own, so a leak would show.
  await ctx.db.execute(sql`
    UPDATE devices SET code = 'X-' || code, name = '另一园区' || name
    WHERE tenant_id = (SELECT id FROM tenants WHERE code = 'other')`);
  member = await ctx.login('member');
  operator = await ctx.asRole(await ctx.login('admin'), 'park_operator');
});
afterAll(async () => ctx?.close());

type Device = { id: string; code: string; name: string; status: string; latest: Record<string, number> };
type Alert = { id: string; deviceCode: string; severity: string; state: string; message: string };

const devices = async (query = '') =>
  (await ctx.call({ url: `/api/open/devices?tc=demo&limit=50${query}` })).json().data as {
    rows: Device[];
    total: number;
  };
const alerts = async (query = '') =>
  (await ctx.call({ url: `/api/open/device-alerts?tc=demo&limit=50${query}` })).json().data as {
    rows: Alert[];
    total: number;
  };
const ingest = (token: string | null, body: unknown) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/readings',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: body as Record<string, unknown>,
  });
async function credential(code: string): Promise<{ id: string; token: string; deviceId: string }> {
  const list = (await ctx.call({ url: '/api/admin/devices', token: operator })).json().data as Device[];
  const deviceId = list.find((d) => d.code === code)!.id;
  const made = await ctx.call({ url: `/api/admin/devices/${deviceId}/credentials`, body: {}, token: operator });
  expect(made.json().status, made.body).toBe(200);
  return { ...(made.json().data as { id: string; token: string }), deviceId };
}

describe('the open views', () => {
  it("show a tenant's public devices to anyone who names it, and nothing else", async () => {
    const { rows, total } = await devices();
    expect(total).toBe(8);
    expect(rows.map((d) => d.code)).not.toContain('EM-SUB-01');
    expect(rows.every((d) => !d.code.startsWith('X-'))).toBe(true);
    expect(rows.find((d) => d.code === 'TH-A3-01')).toMatchObject({
      name: 'A栋3楼温湿度',
      status: 'online',
      latest: { temperature: 23.5, humidity: 41 },
    });
    expect(rows.find((d) => d.code === 'CAM-E-01')!.status).toBe('offline');
    // Filters and search, in either language.
    expect((await devices('&type=meter')).rows.map((d) => d.code)).toEqual(['EM-A-01', 'WM-B-01']);
    expect((await devices('&status=offline')).rows.map((d) => d.code)).toEqual(['CAM-E-01']);
    expect((await devices('&q=%E7%94%B5%E6%A2%AF')).rows.map((d) => d.code)).toEqual(['LIFT-B-02']);
    const en = (await ctx.call({ url: '/api/open/devices?tc=demo&q=lift&language=eng' })).json().data;
    expect(en.rows).toMatchObject([{ code: 'LIFT-B-02', name: 'Building B lift 2' }]);
    // A search for pattern characters finds them literally.
    expect((await devices('&q=%25')).total).toBe(0);
  });

  it("show public devices' alerts only, newest first, filtered by severity and state", async () => {
    const { rows } = await alerts();
    expect(rows.map((a) => a.deviceCode)).toEqual(['LIFT-B-02', 'AQ-C1-01', 'AC-A-01', 'GATE-N-01']);
    expect((await alerts('&state=open')).rows.map((a) => a.severity)).toEqual(['critical', 'warning']);
    expect((await alerts('&severity=info')).rows[0]).toMatchObject({
      state: 'closed',
      message: '北门道闸每日自检完成',
    });
  });

  it('answer 租户不存在 for an unknown tenant, and the default tenant without one', async () => {
    const unknown = await ctx.call({ url: '/api/open/devices?tc=nosuch' });
    expect(unknown.json()).toMatchObject({ status: 400, message: '租户不存在' });
    expect((await ctx.call({ url: '/api/open/devices' })).json().data.total).toBe(8);
    const other = (await ctx.call({ url: '/api/open/devices?tc=other&limit=50' })).json().data;
    expect(other.rows.every((d: Device) => d.code.startsWith('X-'))).toBe(true);
  });
});

describe('handling alerts', () => {
  it("needs alert:handle; acknowledges once, closes once, and only alerts of the caller's tenant", async () => {
    const open = (await alerts('&state=open')).rows.find((a) => a.deviceCode === 'AC-A-01')!;
    const refused = await ctx.call({ url: `/api/front/device-alerts/${open.id}/acknowledge`, body: {}, token: member });
    expect(refused.json().status).toBe(40303);
    const ack = await ctx.call({ url: `/api/front/device-alerts/${open.id}/acknowledge`, body: {}, token: operator });
    expect(ack.json().status, ack.body).toBe(200);
    const again = await ctx.call({ url: `/api/front/device-alerts/${open.id}/acknowledge`, body: {}, token: operator });
    expect(again.json()).toMatchObject({ status: 409, message: '该告警已确认或已关闭' });
    expect(
      (await ctx.call({ url: `/api/front/device-alerts/${open.id}/close`, body: {}, token: operator })).json().status,
    ).toBe(200);
    expect((await alerts('&state=closed')).rows.map((a) => a.id)).toContain(open.id);

    const [foreign] = (
      await ctx.db.execute<{ id: string }>(sql`
        SELECT a.id FROM device_alerts a JOIN tenants t ON t.id = a.tenant_id WHERE t.code = 'other' LIMIT 1`)
    ).rows;
    const other = await ctx.call({ url: `/api/front/device-alerts/${foreign!.id}/close`, body: {}, token: operator });
    expect(other.json()).toMatchObject({ status: 404, message: '告警不存在' });
  });
});

describe('device credentials and the ingest API', () => {
  it('accepts a live credential, keeps only its hash, and refuses it once revoked', async () => {
    const cred = await credential('TH-A3-01');
    expect(cred.token).toMatch(/^[A-Za-z0-9]{12}\.[A-Za-z0-9]{43}$/);
    const stored = await ctx.db.execute<{ secret_hash: string }>(
      sql`SELECT secret_hash FROM device_credentials WHERE id = ${cred.id}`,
    );
    expect(stored.rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain(cred.token.split('.')[1]);

    const sent = await ingest(cred.token, {
      readings: [
        { metric: 'temperature', value: 25.1 },
        { metric: 'humidity', value: 44 },
      ],
      alerts: [{ severity: 'warning', message: 'A栋3楼温度偏高', messageEn: 'Floor 3 too warm' }],
    });
    expect(sent.json(), sent.body).toEqual({ status: 200, message: '成功', data: { readings: 2, alerts: 1 } });
    expect((await devices()).rows.find((d) => d.code === 'TH-A3-01')!.latest).toEqual({
      temperature: 25.1,
      humidity: 44,
    });
    expect((await alerts()).rows[0]).toMatchObject({ deviceCode: 'TH-A3-01', state: 'open' });

    const listed = (await ctx.call({ url: `/api/admin/devices/${cred.deviceId}/credentials`, token: operator })).json()
      .data as { id: string; lastUsedTime: string | null }[];
    expect(listed.find((c) => c.id === cred.id)!.lastUsedTime).not.toBeNull();
    const revoked = await ctx.call({
      url: `/api/admin/device-credentials/${cred.id}/revoke`,
      body: {},
      token: operator,
    });
    expect(revoked.json().status).toBe(200);
    const after = await ingest(cred.token, { readings: [{ metric: 'temperature', value: 26 }] });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ status: 401, message: '设备凭据无效或已吊销' });
  });

  it('refuses missing, malformed and wrong credentials alike', async () => {
    const cred = await credential('EM-A-01');
    const wrongSecret = `${cred.token.slice(0, 13)}${'A'.repeat(43)}`;
    for (const token of [null, 'nonsense', wrongSecret, `${'B'.repeat(12)}.${cred.token.slice(13)}`]) {
      const res = await ingest(token, { readings: [{ metric: 'power_kw', value: 1 }] });
      expect(res.json(), String(token)).toMatchObject({ status: 401, message: '设备凭据无效或已吊销' });
    }
  });

  it('checks the secret before it marks a credential used', async () => {
    const cred = await credential('AQ-C1-01');
    const lastUsed = async () =>
      (
        await ctx.db.execute<{ at: string | null }>(
          sql`SELECT last_used_at AS at FROM device_credentials WHERE id = ${cred.id}`,
        )
      ).rows[0]!.at;
    const wrong = `${cred.token.slice(0, 13)}${'A'.repeat(43)}`;
    expect((await ingest(wrong, { readings: [{ metric: 'pm25', value: 1 }] })).statusCode).toBe(401);
    expect(await lastUsed()).toBeNull();
    expect((await ingest(cred.token, { readings: [{ metric: 'pm25', value: 1 }] })).statusCode).toBe(200);
    expect(await lastUsed()).not.toBeNull();
  });

  it('keeps at most 64 metrics of a device: a post that would add more is refused whole', async () => {
    const cred = await credential('EM-SUB-01');
    const known = async () =>
      (
        await ctx.db.execute<{ n: number }>(
          sql`SELECT count(*)::int AS n FROM devices d, jsonb_object_keys(d.latest) WHERE d.code = 'EM-SUB-01'`,
        )
      ).rows[0]!.n;
    const readings = async () =>
      (await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM device_readings`)).rows[0]!.n;
    const room = 64 - (await known());
    const fill = await ingest(cred.token, {
      readings: Array.from({ length: room }, (_, i) => ({ metric: `m${i}`, value: i })),
    });
    expect(fill.json().status, fill.body).toBe(200);
    expect(await known()).toBe(64);
    const before = await readings();
    const more = await ingest(cred.token, {
      readings: [
        { metric: 'm0', value: 10 },
        { metric: 'one_too_many', value: 1 },
      ],
    });
    expect(more.statusCode).toBe(400);
    expect(more.json().message).toBe('每台设备最多上报 64 种指标，本次上报的新指标会超出这个数量');
    expect(await readings()).toBe(before);
    expect(await known()).toBe(64);
    // The metrics it has keep reporting.
    const again = await ingest(cred.token, { readings: [{ metric: 'm0', value: 11 }] });
    expect(again.json().status).toBe(200);
  });

  it('refuses bad payloads with a clear message and stores nothing of them', async () => {
    const cred = await credential('WM-B-01');
    const count = async () =>
      (await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM device_readings`)).rows[0]!.n;
    const before = await count();
    const old = new Date(Date.now() - 25 * 3_600_000).toISOString();
    const cases: [unknown, string][] = [
      [{}, '请至少上报一条读数或告警'],
      [
        {
          readings: [
            { metric: 'flow_m3h', value: 1 },
            { metric: 'flow_m3h', value: 2, at: old },
          ],
        },
        '第 2 条读数的时间须在过去 24 小时内，且不晚于当前时间 5 分钟',
      ],
      [{ readings: [{ metric: 'Flow', value: 1 }] }, ''],
      [{ readings: [{ metric: 'flow', value: 1e12 }] }, ''],
      [{ readings: Array.from({ length: 101 }, () => ({ metric: 'flow', value: 1 })) }, ''],
      [{ alerts: [{ severity: 'fatal', message: 'x' }] }, ''],
    ];
    for (const [body, message] of cases) {
      const res = await ingest(cred.token, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it('takes at most 60 posts a minute from one device', async () => {
    const cred = await credential('GATE-N-01');
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push((await ingest(cred.token, { readings: [{ metric: 'passes_today', value: 413 + i }] })).statusCode);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });

  it("is the operators' work: device:manage for the registry, another tenant's device as if absent", async () => {
    for (const call of [
      { url: '/api/admin/devices' },
      {
        url: '/api/admin/devices',
        body: { code: 'NEW-1', name: '新设备', type: 'sensor', location: '某处', isPublic: true },
      },
    ]) {
      expect((await ctx.call({ ...call, token: member })).json().status).toBe(40303);
    }
    const saved = await ctx.call({
      url: '/api/admin/devices',
      body: { code: 'NEW-1', name: '新设备', type: 'sensor', location: '某处', isPublic: false },
      token: operator,
    });
    expect(saved.json().status).toBe(200);
    expect((await devices()).rows.map((d) => d.code)).not.toContain('NEW-1');
    const [foreign] = (
      await ctx.db.execute<{ id: string }>(sql`
        SELECT d.id FROM devices d JOIN tenants t ON t.id = d.tenant_id WHERE t.code = 'other' LIMIT 1`)
    ).rows;
    const res = await ctx.call({ url: `/api/admin/devices/${foreign!.id}/credentials`, body: {}, token: operator });
    expect(res.json()).toMatchObject({ status: 404, message: '设备不存在' });
  });
});
