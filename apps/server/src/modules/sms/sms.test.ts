/**
 * SMS codes against the real database: hashing, single use, expiry, attempts, purpose and tenant
 * binding, cooldown, daily caps per phone and per address, provider failure leaving nothing behind,
 * concurrent requests, and the webhook provider against a local HTTP listener.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { createAddressRule } from '../../platform/addresses.js';
import { createMetrics } from '../../platform/metrics.js';
import { createOutbound } from '../../platform/outbound.js';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { createOutboxProvider, createWebhookProvider, signWebhook, type SmsProvider } from './sms.providers.js';
import { createSmsRepository } from './sms.repository.js';
import { createSmsService, type SmsSettings } from './sms.service.js';

const SETTINGS: SmsSettings = {
  codeTtlSeconds: 300,
  resendSeconds: 60,
  maxAttempts: 5,
  dailyPerPhone: 10,
  dailyPerIp: 30,
};
const REG = 2;
const RESET = 3;
let ctx: TestContext;
let tenant: number;
let other: number;
let phoneSeq = 0;
const nextPhone = () => `1390000${String(++phoneSeq).padStart(4, '0')}`;
const metrics = createMetrics({ process: false });
/** How many codes `portal_sms_total` counted with `result`. */
const counted = async (result: string) =>
  (await metrics.registry.getSingleMetric('portal_sms_total')!.get()).values.find((v) => v.labels.result === result)
    ?.value ?? 0;

function service(provider?: SmsProvider, settings: Partial<SmsSettings> = {}) {
  const repo = createSmsRepository(ctx.db);
  return createSmsService({
    repo,
    metrics,
    provider: provider ?? createOutboxProvider(repo, pino({ level: 'silent' })),
    key: ctx.secrets.smsKey,
    settings: { ...SETTINGS, ...settings },
    signature: '演示园区',
  });
}

async function lastCode(phone: string): Promise<string> {
  const res = await ctx.db.execute<{ body: string }>(
    sql`SELECT body FROM sms_outbox WHERE phone = ${phone} ORDER BY id DESC LIMIT 1`,
  );
  return /(\d{6})/.exec(res.rows[0]!.body)![1]!;
}

async function refusal(p: Promise<unknown>): Promise<{ code: number; key: string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return { code: (err as AppError).code, key: (err as AppError).key };
}

/** Moves a phone's codes into the past, as if `seconds` had gone by. */
async function age(phone: string, seconds: number) {
  await ctx.db.execute(sql`
    UPDATE sms_codes SET created_at = created_at - make_interval(secs => ${seconds}),
      expires_at = expires_at - make_interval(secs => ${seconds})
    WHERE phone = ${phone}`);
}

beforeAll(async () => {
  ctx = await createTestContext();
  tenant = Number((await ctx.db.execute<{ id: number }>(sql`SELECT id FROM tenants WHERE code = 'demo'`)).rows[0]!.id);
  other = Number(
    (
      await ctx.db.execute<{ id: number }>(
        sql`INSERT INTO tenants (code, name) VALUES ('other', '其他园区') RETURNING id`,
      )
    ).rows[0]!.id,
  );
});
afterAll(async () => ctx?.close());
beforeEach(async () => {
  await ctx.db.execute(sql`DELETE FROM sms_codes`);
});

describe('SMS codes', () => {
  it('sends six random digits and keeps only a keyed hash; the right code works once', async () => {
    const sms = service();
    const phone = nextPhone();
    await sms.sendCode(tenant, phone, REG, '10.0.0.1');
    const code = await lastCode(phone);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await ctx.db.execute<{ code_hash: string }>(
      sql`SELECT code_hash FROM sms_codes WHERE phone = ${phone}`,
    );
    expect(stored.rows[0]!.code_hash).not.toContain(code);
    expect(stored.rows[0]!.code_hash.length).toBeGreaterThan(30);
    expect(await sms.checkCode(tenant, phone, REG, code)).toBe(true);
    expect(await sms.checkCode(tenant, phone, REG, code)).toBe(false);
  });

  it('binds a code to its phone, purpose and tenant', async () => {
    const sms = service();
    const phone = nextPhone();
    await sms.sendCode(tenant, phone, REG, '10.0.0.2');
    const code = await lastCode(phone);
    expect(await sms.checkCode(tenant, phone, RESET, code)).toBe(false);
    expect(await sms.checkCode(other, phone, REG, code)).toBe(false);
    expect(await sms.checkCode(tenant, nextPhone(), REG, code)).toBe(false);
    expect(await sms.checkCode(tenant, phone, REG, code)).toBe(true);
  });

  it('refuses an expired code', async () => {
    const sms = service();
    const phone = nextPhone();
    await sms.sendCode(tenant, phone, REG, '10.0.0.3');
    const code = await lastCode(phone);
    await age(phone, 301);
    expect(await sms.checkCode(tenant, phone, REG, code)).toBe(false);
  });

  it('voids a code after 5 wrong attempts; 4 wrong ones still leave it usable', async () => {
    const sms = service();
    const a = nextPhone();
    await sms.sendCode(tenant, a, REG, '10.0.0.4');
    const codeA = await lastCode(a);
    const wrong = codeA === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect(await sms.checkCode(tenant, a, REG, wrong)).toBe(false);
    expect(await sms.checkCode(tenant, a, REG, codeA)).toBe(true);

    const b = nextPhone();
    await sms.sendCode(tenant, b, REG, '10.0.0.4');
    const codeB = await lastCode(b);
    const wrongB = codeB === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect(await sms.checkCode(tenant, b, REG, wrongB)).toBe(false);
    expect(await sms.checkCode(tenant, b, REG, codeB)).toBe(false);
    // Malformed answers never count as attempts or match.
    expect(await sms.checkCode(tenant, b, REG, '12345')).toBe(false);
  });

  it('asks to wait 60 s before another code, then the new code replaces the old one', async () => {
    const sms = service();
    const phone = nextPhone();
    const [sent, refused] = [await counted('sent'), await counted('refused')];
    await sms.sendCode(tenant, phone, REG, '10.0.0.5');
    const first = await lastCode(phone);
    expect(await refusal(sms.sendCode(tenant, phone, REG, '10.0.0.5'))).toEqual({ code: 429, key: 'smsCooldown' });
    expect([(await counted('sent')) - sent, (await counted('refused')) - refused]).toEqual([1, 1]);
    await age(phone, 61);
    await sms.sendCode(tenant, phone, REG, '10.0.0.5');
    const second = await lastCode(phone);
    if (first !== second) expect(await sms.checkCode(tenant, phone, REG, first)).toBe(false);
    expect(await sms.checkCode(tenant, phone, REG, second)).toBe(true);
  });

  it('caps codes per phone and per address over a day', async () => {
    const sms = service(undefined, { dailyPerPhone: 3, dailyPerIp: 5 });
    const phone = nextPhone();
    for (let i = 0; i < 3; i++) {
      await sms.sendCode(tenant, phone, REG, '10.0.1.1');
      await age(phone, 61);
    }
    expect(await refusal(sms.sendCode(tenant, phone, REG, '10.0.1.2'))).toEqual({ code: 429, key: 'smsDailyCap' });
    // The address 10.0.1.1 has 3; two more phones, then the cap.
    await sms.sendCode(tenant, nextPhone(), REG, '10.0.1.1');
    await sms.sendCode(tenant, nextPhone(), REG, '10.0.1.1');
    expect(await refusal(sms.sendCode(tenant, nextPhone(), REG, '10.0.1.1'))).toEqual({
      code: 429,
      key: 'smsDailyCap',
    });
    // A day later the phone may ask again.
    await age(phone, 86_400);
    await sms.sendCode(tenant, phone, REG, '10.0.1.3');
  });

  it('keeps nothing when the provider refuses, so the user may retry at once', async () => {
    const failing: SmsProvider = {
      name: 'webhook',
      send: () => Promise.reject(new Error('gateway down')),
    };
    const phone = nextPhone();
    const failed = await counted('failed');
    expect(await refusal(service(failing).sendCode(tenant, phone, REG, '10.0.2.1'))).toEqual({
      code: 503,
      key: 'smsSendFailed',
    });
    expect((await counted('failed')) - failed).toBe(1);
    const rows = await ctx.db.execute(sql`SELECT 1 FROM sms_codes WHERE phone = ${phone}`);
    expect(rows.rows).toHaveLength(0);
    await service().sendCode(tenant, phone, REG, '10.0.2.1');
  });

  it('sends one code for eight requests at once', async () => {
    const sms = service();
    const phone = nextPhone();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => sms.sendCode(tenant, phone, REG, '10.0.3.1')),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rows = await ctx.db.execute(sql`SELECT 1 FROM sms_codes WHERE phone = ${phone}`);
    expect(rows.rows).toHaveLength(1);
  });
});

describe('webhook provider', () => {
  it('POSTs the message as signed JSON, and fails on a non-2xx answer or a timeout', async () => {
    const seen: { headers: IncomingMessage['headers']; body: string }[] = [];
    let answer = 200;
    let delayMs = 0;
    const listener = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        setTimeout(() => res.writeHead(answer).end('{}'), delayMs);
      });
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/sms`;
    const secret = 'a-shared-secret-of-some-length';
    // The gateway is the installation's own address: a private or loopback one is normal there.
    const outbound = createOutbound({ rule: createAddressRule([]), metrics: createMetrics({ process: false }) });
    const provider = createWebhookProvider({ url, secret, timeoutMs: 300, outbound });
    try {
      await provider.send({ tenantId: tenant, phone: '13900001111', purpose: REG, text: '验证码123456' });
      const got = seen[0]!;
      expect(JSON.parse(got.body)).toEqual({ phone: '13900001111', purpose: REG, text: '验证码123456' });
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-signature']).toBe(signWebhook(secret, String(got.headers['x-timestamp']), got.body));

      answer = 500;
      await expect(provider.send({ tenantId: tenant, phone: '1', purpose: REG, text: 'x' })).rejects.toThrow('500');
      answer = 200;
      delayMs = 1000;
      await expect(provider.send({ tenantId: tenant, phone: '1', purpose: REG, text: 'x' })).rejects.toThrow();
      // A redirect is a failure, not followed.
      delayMs = 0;
      answer = 302;
      const before = seen.length;
      await expect(provider.send({ tenantId: tenant, phone: '1', purpose: REG, text: 'x' })).rejects.toThrow('302');
      expect(seen.length).toBe(before + 1);
    } finally {
      await outbound.close();
      listener.closeAllConnections();
      await new Promise<void>((done) => listener.close(() => done()));
    }
  });
});
