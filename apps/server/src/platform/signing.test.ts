/**
 * Request signing through the real app (docs/api.md#every-call): headers are built by hand so that each
 * case changes exactly one thing against a correctly signed request.
 */
import { randomBytes } from 'node:crypto';
import { signRequest } from '@portal/contracts/node-signing';
import { canonicalParams, signingText } from '@portal/contracts';
import type { FastifyRequest, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/harness.js';
import { createNonceStore, createRecentNonces, createSignatureVerifier, sign, type NonceStore } from './signing.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const KEY_URL = '/api/front/account/auth/publicKey';
const captchaUrl = (data: string, extra = '') => `/api/auth/kaptcha/get?type=LOGIN&data=${data}${extra}`;

const ZH = {
  missing: '请求未签名',
  stale: '请求时间戳无效或已过期，请校准设备时间后重试',
  replay: '重复的请求已被拒绝',
  invalid: '请求签名无效',
};
const EN = {
  missing: 'The request is not signed',
  stale: 'The request timestamp is invalid or expired; check the device clock and retry',
  replay: 'A repeated request was refused',
  invalid: 'The request signature is invalid',
};

function expectRefused(res: LightMyRequestResponse, message: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toEqual({ status: 40001, message, data: null });
}

/** Headers for `url` signed with an explicit nonce and timestamp. */
function headersWith(url: string, nonce: string, ts = Date.now(), body: Record<string, unknown> | null = null) {
  const [path, qs] = url.split('?') as [string, string | undefined];
  const query = Object.fromEntries(new URLSearchParams(qs ?? ''));
  const signature = sign(ctx.secrets.signSecret, signingText(String(ts), nonce, path, canonicalParams(query, body)));
  return { 'x-timestamp': String(ts), 'x-nonce': nonce, 'x-signature': signature };
}

const newNonce = () => randomBytes(12).toString('hex');

describe('a correctly signed request', () => {
  it('passes, with and without query and body', async () => {
    const get = await ctx.app.inject({ url: KEY_URL, headers: signRequest(ctx.secrets.signSecret, KEY_URL) });
    expect(get.statusCode).toBe(200);
    const url = captchaUrl(newNonce());
    const withQuery = await ctx.app.inject({ url, headers: signRequest(ctx.secrets.signSecret, url) });
    expect(withQuery.statusCode).toBe(200);
  });

  it('passes at the edge of the 300 s window on both sides', async () => {
    for (const skew of [-299_000, 299_000]) {
      const res = await ctx.app.inject({
        url: KEY_URL,
        headers: signRequest(ctx.secrets.signSecret, KEY_URL, null, Date.now() + skew),
      });
      expect(res.statusCode, `skew ${skew}`).toBe(200);
    }
  });
});

describe('refusals', () => {
  it('refuses an unsigned request, and one with any header missing', async () => {
    expectRefused(await ctx.app.inject({ url: KEY_URL }), ZH.missing);
    const full = signRequest(ctx.secrets.signSecret, KEY_URL);
    for (const drop of ['x-timestamp', 'x-nonce', 'x-signature'] as const) {
      const headers: Record<string, string> = { ...full };
      delete headers[drop];
      expectRefused(await ctx.app.inject({ url: KEY_URL, headers }), ZH.missing);
    }
  });

  it('refuses a timestamp 301 s old or 301 s ahead, even when correctly signed', async () => {
    for (const skew of [-301_000, 301_000]) {
      const res = await ctx.app.inject({
        url: KEY_URL,
        headers: signRequest(ctx.secrets.signSecret, KEY_URL, null, Date.now() + skew),
      });
      expectRefused(res, ZH.stale);
    }
  });

  it('refuses a timestamp that is not milliseconds since the epoch', async () => {
    for (const ts of ['abc', '-1', '1.5e12', String(Math.floor(Date.now() / 1000))]) {
      const headers = { ...signRequest(ctx.secrets.signSecret, KEY_URL), 'x-timestamp': ts };
      expectRefused(await ctx.app.inject({ url: KEY_URL, headers }), ZH.stale);
    }
  });

  it('refuses a reused nonce, even with a fresh timestamp and a valid signature', async () => {
    const nonce = newNonce();
    const first = await ctx.app.inject({ url: KEY_URL, headers: headersWith(KEY_URL, nonce) });
    expect(first.statusCode).toBe(200);
    const replay = await ctx.app.inject({ url: KEY_URL, headers: headersWith(KEY_URL, nonce) });
    expectRefused(replay, ZH.replay);
    const sameHeaders = headersWith(KEY_URL, newNonce());
    expect((await ctx.app.inject({ url: KEY_URL, headers: sameHeaders })).statusCode).toBe(200);
    expectRefused(await ctx.app.inject({ url: KEY_URL, headers: sameHeaders }), ZH.replay);
  });

  it('lets exactly one of many simultaneous requests with the same nonce through', async () => {
    // Sent together, they land in one batch of the nonce store, or in batches racing each other.
    const headers = headersWith(KEY_URL, newNonce());
    const all = await Promise.all(Array.from({ length: 8 }, () => ctx.app.inject({ url: KEY_URL, headers })));
    expect(all.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    for (const r of all.filter((r) => r.statusCode === 400)) expectRefused(r, ZH.replay);
  });

  it('spends a nonce only on a correctly signed request', async () => {
    const nonce = newNonce();
    const bad = { ...headersWith(KEY_URL, nonce), 'x-signature': '0'.repeat(64) };
    expectRefused(await ctx.app.inject({ url: KEY_URL, headers: bad }), ZH.invalid);
    expect((await ctx.app.inject({ url: KEY_URL, headers: headersWith(KEY_URL, nonce) })).statusCode).toBe(200);
  });

  it('refuses a bad signature, a malformed signature and a malformed nonce', async () => {
    const good = signRequest(ctx.secrets.signSecret, KEY_URL);
    const flipped = good['x-signature'].replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const otherSecret = signRequest('not-the-secret', KEY_URL);
    for (const headers of [
      { ...good, 'x-signature': flipped },
      otherSecret,
      { ...good, 'x-signature': good['x-signature'].slice(0, 63) },
      { ...good, 'x-signature': 'z'.repeat(64) },
      { ...good, 'x-signature': good['x-signature'] + '00' },
      { ...good, 'x-nonce': 'short' },
      { ...good, 'x-nonce': 'has-dashes-in-the-nonce' },
    ]) {
      expectRefused(await ctx.app.inject({ url: KEY_URL, headers }), ZH.invalid);
    }
  });

  it('accepts the hex signature in upper case', async () => {
    const headers = signRequest(ctx.secrets.signSecret, KEY_URL);
    const res = await ctx.app.inject({
      url: KEY_URL,
      headers: { ...headers, 'x-signature': headers['x-signature'].toUpperCase() },
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a query parameter changed, added or removed after signing', async () => {
    const client = newNonce();
    const signedUrl = captchaUrl(client);
    for (const sent of [
      captchaUrl(newNonce()),
      captchaUrl(client, '&extra=1'),
      `/api/auth/kaptcha/get?data=${client}`,
    ]) {
      const res = await ctx.app.inject({ url: sent, headers: signRequest(ctx.secrets.signSecret, signedUrl) });
      expectRefused(res, ZH.invalid);
    }
  });

  it('refuses a signature made for another path', async () => {
    const res = await ctx.app.inject({
      url: KEY_URL,
      headers: signRequest(ctx.secrets.signSecret, '/api/auth/jwt/logout'),
    });
    expectRefused(res, ZH.invalid);
  });

  it('refuses a body field changed, added or removed after signing', async () => {
    const url = '/api/auth/jwt/front/token?tenantCode=demo';
    const body = { username: 'member', password: ctx.encrypt('x'), imgvercode: '8888', captchaKey: newNonce() };
    const headers = signRequest(ctx.secrets.signSecret, url, body);
    for (const payload of [
      { ...body, username: 'admin' },
      { ...body, extra: 'x' },
      { username: body.username, password: body.password, imgvercode: body.imgvercode },
    ]) {
      const res = await ctx.app.inject({ method: 'POST', url, payload, headers });
      expectRefused(res, ZH.invalid);
    }
  });

  it('answers in English when the query has language=eng', async () => {
    const url = `${KEY_URL}?language=eng`;
    expectRefused(await ctx.app.inject({ url }), EN.missing);
    expectRefused(
      await ctx.app.inject({ url, headers: signRequest(ctx.secrets.signSecret, url, null, Date.now() - 301_000) }),
      EN.stale,
    );
    const nonce = newNonce();
    expect((await ctx.app.inject({ url, headers: headersWith(url, nonce) })).statusCode).toBe(200);
    expectRefused(await ctx.app.inject({ url, headers: headersWith(url, nonce) }), EN.replay);
    expectRefused(await ctx.app.inject({ url, headers: signRequest(ctx.secrets.signSecret, KEY_URL) }), EN.invalid);
  });
});

describe('unsigned paths', () => {
  it('serves /healthz and /readyz without a signature', async () => {
    const health = await ctx.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('nonces of reads and writes (docs/decisions/013)', () => {
  const warnings: string[] = [];
  /** A request as the verifier sees it, signed with `nonce`. */
  const fakeRequest = (method: string, nonce: string, url = KEY_URL, changesState = false) =>
    ({
      method,
      url,
      routeOptions: { config: { changesState } },
      query: {},
      body: method === 'GET' ? undefined : {},
      headers: headersWith(url, nonce, Date.now(), method === 'GET' ? null : {}),
    }) as unknown as FastifyRequest;
  const settled = (p: Promise<unknown>, ms = 100) =>
    Promise.race([
      p.then(
        () => 'passed',
        () => 'refused',
      ),
      new Promise((r) => setTimeout(() => r('waiting'), ms)),
    ]);

  it("answers a read without waiting for the database's verdict on its nonce; a write waits for it", async () => {
    const never: NonceStore = {
      spend: () => new Promise<boolean>(() => undefined),
      record: () => undefined,
      drain: async () => undefined,
      seenLately: async () => [],
    };
    const verify = createSignatureVerifier(never, ctx.secrets.signSecret);
    expect(await settled(verify(fakeRequest('GET', newNonce())))).toBe('passed');
    expect(await settled(verify(fakeRequest('POST', newNonce())))).toBe('waiting');
    // A GET that changes state (it sends a text message, draws a captcha) waits like a write.
    expect(await settled(verify(fakeRequest('GET', newNonce(), KEY_URL, true)))).toBe('waiting');
  });

  it('refuses a nonce this instance saw, at once, for reads and writes', async () => {
    const never: NonceStore = {
      spend: () => new Promise<boolean>(() => undefined),
      record: () => undefined,
      drain: async () => undefined,
      seenLately: async () => [],
    };
    const verify = createSignatureVerifier(never, ctx.secrets.signSecret);
    const nonce = newNonce();
    expect(await settled(verify(fakeRequest('GET', nonce)))).toBe('passed');
    expect(await settled(verify(fakeRequest('GET', nonce)))).toBe('refused');
    expect(await settled(verify(fakeRequest('POST', nonce)))).toBe('refused');
  });

  it("records a read's nonce in PostgreSQL: another instance refuses it for a write, and notices a replayed read", async () => {
    const store = createNonceStore(ctx.db.$client, { warn: (message) => warnings.push(message) });
    const [a, b] = [
      createSignatureVerifier(store, ctx.secrets.signSecret),
      createSignatureVerifier(store, ctx.secrets.signSecret),
    ];
    const nonce = newNonce();
    expect(await settled(a(fakeRequest('GET', nonce)))).toBe('passed');
    // The record is written in the background, within a turn or two of the event loop.
    await expect
      .poll(async () => (await ctx.db.$client.query('SELECT 1 FROM request_nonces WHERE nonce = $1', [nonce])).rowCount)
      .toBe(1);
    warnings.length = 0;
    expect(await settled(b(fakeRequest('GET', nonce)))).toBe('passed');
    await expect.poll(() => warnings.some((w) => w.includes('replayed on another instance'))).toBe(true);
    const other = newNonce();
    expect(await settled(a(fakeRequest('GET', other)))).toBe('passed');
    await expect
      .poll(async () => (await ctx.db.$client.query('SELECT 1 FROM request_nonces WHERE nonce = $1', [other])).rowCount)
      .toBe(1);
    expect(
      await settled(createSignatureVerifier(store, ctx.secrets.signSecret)(fakeRequest('POST', other)), 2000),
    ).toBe('refused');
  });

  it('refuses a read replayed after a graceful restart: its nonce is written before the stop and read at the start', async () => {
    const stopping = await createTestContext({}, { databaseUrl: ctx.url });
    const nonces = Array.from({ length: 20 }, newNonce);
    const signed = nonces.map((nonce) => headersWith(KEY_URL, nonce));
    // Answered, then the instance stops at once.
    const answers = await Promise.all(signed.map((headers) => stopping.app.inject({ url: KEY_URL, headers })));
    expect(answers.map((a) => a.statusCode)).toEqual(nonces.map(() => 200));
    await stopping.close();
    const { rowCount } = await ctx.db.$client.query('SELECT 1 FROM request_nonces WHERE nonce = ANY($1)', [nonces]);
    expect(rowCount).toBe(nonces.length);
    const restarted = await createTestContext({}, { databaseUrl: ctx.url });
    try {
      for (const headers of signed) expectRefused(await restarted.app.inject({ url: KEY_URL, headers }), ZH.replay);
    } finally {
      await restarted.close();
    }
  });

  it('keeps at most two generations of recent nonces', () => {
    const recent = createRecentNonces(3);
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) recent.add(n);
    expect(['a', 'b', 'c', 'd', 'e', 'f', 'g'].filter((n) => recent.has(n))).toEqual(['d', 'e', 'f', 'g']);
  });
});
