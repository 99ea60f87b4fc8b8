/**
 * The AJ-Captcha protocol through the real app and PostgreSQL, with a client written here from the
 * protocol's description (Node's own AES), in test mode: slider answer x = 150, click-word answers
 * (60,60) (150,60) (240,60).
 */
import { createCipheriv } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRelaxed } from '../../db/client.js';
import { createMetrics } from '../../platform/metrics.js';
import { createRateLimiter } from '../../platform/rate-limit.js';
import { DEMO_PASSWORD, createTestContext, type TestContext } from '../../test/harness.js';
import { createBehaviourCaptchaService } from './behaviour-captcha.service.js';
import { createCaptchaRepository } from './captcha.repository.js';

let ctx: TestContext;
beforeAll(async () => {
  // Many failures below come from one client: the lock has a test of its own.
  ctx = await createTestContext({ CAPTCHA_BEHAVIOUR: '1', CAPTCHA_FAILURES_BEFORE_LOCK: '1000' });
});
afterAll(async () => ctx?.close());

const aes = (text: string, key: string) => {
  const c = createCipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([c.update(text, 'utf8'), c.final()]).toString('base64');
};

type Rep = {
  repCode: string;
  repMsg: string;
  success: boolean;
  repData: null | {
    originalImageBase64?: string;
    jigsawImageBase64?: string;
    token?: string;
    secretKey?: string | null;
    wordList?: string[];
    result?: boolean;
  };
};

async function get(c: TestContext, captchaType = 'blockPuzzle', extra = ''): Promise<Rep> {
  const res = await c.call({
    url: `/api/front/captcha/get${extra}`,
    body: { captchaType, clientUid: 'slider-abc', ts: Date.now() },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function check(c: TestContext, body: Record<string, unknown>, extra = ''): Promise<Rep> {
  const res = await c.call({ url: `/api/front/captcha/check${extra}`, body });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Answers a fresh challenge with `point` the way AJ-Captcha's clients do. */
async function answer(c: TestContext, point: unknown, captchaType = 'blockPuzzle') {
  const g = await get(c, captchaType);
  const { token, secretKey } = g.repData!;
  const plain = JSON.stringify(point);
  const pointJson = secretKey ? aes(plain, secretKey) : plain;
  const r = await check(c, { captchaType, pointJson, token });
  const proof = `${token}---${plain}`;
  return { r, token: token!, verification: secretKey ? aes(proof, secretKey) : proof };
}

function png(b64: string) {
  const buf = Buffer.from(b64, 'base64');
  expect(buf.subarray(1, 4).toString()).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), colourType: buf[25], bytes: buf.length, buf };
}

describe('getCaptchaType', () => {
  it('answers anji when the behavioural captcha is on, image when it is off', async () => {
    const on = await ctx.call({ url: '/api/front/captcha/getCaptchaType', body: {} });
    expect(on.json()).toMatchObject({ status: 200, data: 'anji' });
    const off = await createTestContext({}, { databaseUrl: ctx.url });
    try {
      expect((await off.call({ url: '/api/front/captcha/getCaptchaType', body: {} })).json().data).toBe('image');
    } finally {
      await off.close();
    }
  });
});

describe('get', () => {
  it('gives a slider: a 310×155 background, a 47×155 piece with alpha, a token and a key, never the answer', async () => {
    const g = await get(ctx);
    expect(g).toMatchObject({ repCode: '0000', repMsg: '成功', success: true });
    const d = g.repData!;
    expect(Object.keys(d).sort()).toEqual(['jigsawImageBase64', 'originalImageBase64', 'result', 'secretKey', 'token']);
    expect(d.token).toMatch(/^[0-9a-f]{32}$/);
    expect(d.secretKey).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(d.result).toBe(false);
    const bg = png(d.originalImageBase64!);
    expect([bg.width, bg.height]).toEqual([310, 155]);
    expect(bg.bytes).toBeLessThan(30 * 1024);
    const piece = png(d.jigsawImageBase64!);
    expect([piece.width, piece.height, piece.colourType]).toEqual([47, 155, 6]); // 6: RGBA
    expect(JSON.stringify(g)).not.toMatch(/"(x|y|point|answer)"/);
    mkdirSync('.test-data/captcha', { recursive: true });
    writeFileSync('.test-data/captcha/slider-background.png', bg.buf);
    writeFileSync('.test-data/captcha/slider-piece.png', piece.buf);
  });

  it('gives click-word: a 310×155 picture and three characters to click in order', async () => {
    const g = await get(ctx, 'clickWord');
    const d = g.repData!;
    expect(d.wordList).toHaveLength(3);
    for (const w of d.wordList!) expect(w).toMatch(/^\p{Script=Han}$/u);
    expect(new Set(d.wordList).size).toBe(3);
    const img = png(d.originalImageBase64!);
    expect([img.width, img.height]).toEqual([310, 155]);
    expect(img.bytes).toBeLessThan(30 * 1024);
    writeFileSync('.test-data/captcha/click-word.png', img.buf);
  });

  it('draws a new picture each time, so no fixed template finds the hole', async () => {
    const a = await get(ctx);
    const b = await get(ctx);
    expect(a.repData!.originalImageBase64).not.toBe(b.repData!.originalImageBase64);
    expect(a.repData!.token).not.toBe(b.repData!.token);
  });

  it('says which field is blank, and refuses an unknown type', async () => {
    const blank = await check(ctx, { captchaType: 'blockPuzzle', token: 'x' });
    expect(blank).toEqual({ repCode: '0011', repMsg: 'pointJson不能为空', repData: null, success: false });
    const noType = await ctx.call({ url: '/api/front/captcha/get?language=eng', body: {} });
    expect(noType.json()).toMatchObject({ repCode: '0011', repMsg: 'captchaType cannot be empty' });
    // A type AJ-Captcha does not know is a parameter error (0016), not a failed check.
    expect(await get(ctx, 'rotatePuzzle')).toMatchObject({ repCode: '0016', repMsg: 'captchaType格式错误' });
    const unknownCheck = await check(ctx, { captchaType: 'rotatePuzzle', token: 'x', pointJson: 'e30=' });
    expect(unknownCheck).toMatchObject({ repCode: '0016', success: false });
  });
});

describe('check', () => {
  it('passes the slider at the answer, with encrypted positions, and the verification matches the client', async () => {
    const { r, token } = await answer(ctx, { x: 150, y: 5 });
    expect(r).toMatchObject({ repCode: '0000', success: true, repData: { token, result: true } });
  });

  it('allows ±5 px (x truncated) and refuses ±6 px', async () => {
    for (const x of [145, 155, 155.9, 145.7])
      expect((await answer(ctx, { x, y: 5 })).r.repCode, String(x)).toBe('0000');
    for (const x of [144, 144.9, 156, 0, 310])
      expect((await answer(ctx, { x, y: 5 })).r.repCode, String(x)).toBe('6111');
  });

  it('refuses garbage, a missing coordinate and a ciphertext under another key', async () => {
    for (const point of ['nonsense', { x: 150 }, { x: '150', y: 5 }, [150, 5], null]) {
      expect((await answer(ctx, point)).r.repCode, JSON.stringify(point)).toBe('6111');
    }
    const g = await get(ctx);
    const wrongKey = aes(JSON.stringify({ x: 150, y: 5 }), 'AAAAAAAAAAAAAAAA');
    expect(
      (await check(ctx, { captchaType: 'blockPuzzle', pointJson: wrongKey, token: g.repData!.token })).repCode,
    ).toBe('6111');
  });

  it('allows one check per token: a replay, even of a pass, gets 6110', async () => {
    const g = await get(ctx);
    const body = {
      captchaType: 'blockPuzzle',
      pointJson: aes(JSON.stringify({ x: 150, y: 5 }), g.repData!.secretKey!),
      token: g.repData!.token,
    };
    expect((await check(ctx, body)).repCode).toBe('0000');
    expect(await check(ctx, body)).toMatchObject({ repCode: '6110', repMsg: '验证码已失效，请重新获取' });
    const failed = await answer(ctx, { x: 10, y: 5 });
    expect(failed.r.repCode).toBe('6111');
  });

  it('lets a token expire after 120 s, and ties it to its type', async () => {
    const g = await get(ctx);
    await ctx.db.execute(
      sql`UPDATE captcha_challenges SET expires_at = now() - interval '1 second' WHERE token = ${g.repData!.token!}`,
    );
    const pointJson = aes(JSON.stringify({ x: 150, y: 5 }), g.repData!.secretKey!);
    expect((await check(ctx, { captchaType: 'blockPuzzle', pointJson, token: g.repData!.token })).repCode).toBe('6110');
    const other = await get(ctx);
    const asClick = { captchaType: 'clickWord', pointJson: 'x', token: other.repData!.token };
    expect((await check(ctx, asClick)).repCode).toBe('6110');
  });

  it('passes click-word in order within ±25 px, and refuses another order or 26 px off', async () => {
    const right = [
      { x: 60, y: 60 },
      { x: 150, y: 60 },
      { x: 240, y: 60 },
    ];
    expect((await answer(ctx, right, 'clickWord')).r.repCode).toBe('0000');
    const edge = [
      { x: 85, y: 35 },
      { x: 125, y: 85 },
      { x: 240, y: 60 },
    ];
    expect((await answer(ctx, edge, 'clickWord')).r.repCode).toBe('0000');
    for (const wrong of [
      [right[1], right[0], right[2]],
      [{ x: 86, y: 60 }, right[1], right[2]],
      [right[0], right[1]],
      [...right, { x: 150, y: 120 }],
    ]) {
      expect((await answer(ctx, wrong, 'clickWord')).r.repCode, JSON.stringify(wrong)).toBe('6111');
    }
  });

  it('takes plain JSON when encryption is off (no secretKey)', async () => {
    const plain = await createTestContext({ CAPTCHA_BEHAVIOUR: '1', CAPTCHA_AES: '0' }, { databaseUrl: ctx.url });
    try {
      const g = await get(plain);
      expect(g.repData!.secretKey).toBeNull();
      const r = await check(plain, {
        captchaType: 'blockPuzzle',
        pointJson: '{"x":151,"y":5}',
        token: g.repData!.token,
      });
      expect(r.repCode).toBe('0000');
    } finally {
      await plain.close();
    }
  });
});

describe('captchaVerification', () => {
  function service() {
    const relaxed = connectRelaxed(ctx.db, 1);
    const s = createBehaviourCaptchaService({
      repo: createCaptchaRepository(relaxed),
      metrics: createMetrics({ process: false }),
      limiter: createRateLimiter(relaxed),
      settings: {
        enabled: true,
        aes: true,
        sliderTolerancePx: 5,
        clickTolerancePx: 25,
        getPerMinute: 1000,
        checkPerMinute: 1000,
        failuresBeforeLock: 5,
        lockSeconds: 300,
        testMode: true,
      },
    });
    return { s, close: () => relaxed.end() };
  }

  it('is what the client computes, good for one business call', async () => {
    const { s, close } = service();
    try {
      const { verification } = await answer(ctx, { x: 150, y: 5 });
      expect(await s.consumeVerification(verification)).toBe(true);
      expect(await s.consumeVerification(verification)).toBe(false);
      expect(await s.consumeVerification('made-up')).toBe(false);
      expect(await s.consumeVerification('')).toBe(false);
    } finally {
      await close();
    }
  });

  it('expires after 180 s', async () => {
    const { s, close } = service();
    try {
      const { verification } = await answer(ctx, { x: 150, y: 5 });
      await ctx.db.execute(
        sql`UPDATE captcha_verifications SET expires_at = now() - interval '1 second' WHERE value = ${verification}`,
      );
      expect(await s.consumeVerification(verification)).toBe(false);
    } finally {
      await close();
    }
  });
});

describe('limits per client', () => {
  it('limits get (6201) and check (6204) per minute, in the request language', async () => {
    const limited = await createTestContext(
      { CAPTCHA_BEHAVIOUR: '1', CAPTCHA_GET_PER_MINUTE: '2', CAPTCHA_CHECK_PER_MINUTE: '2' },
      { databaseUrl: ctx.url },
    );
    try {
      // Another user agent is another client.
      const ua = { 'user-agent': 'limits-test' };
      const call = (url: string, body: Record<string, unknown>) => limited.call({ url, body, headers: ua });
      const gets = [];
      for (let i = 0; i < 3; i++)
        gets.push((await call('/api/front/captcha/get', { captchaType: 'blockPuzzle' })).json());
      expect(gets.map((g) => g.repCode)).toEqual(['0000', '0000', '6201']);
      expect(gets[2].repMsg).toBe('get接口请求次数超限，请稍后再试!');
      const checks = [];
      for (let i = 0; i < 3; i++) {
        checks.push(
          (
            await call('/api/front/captcha/check?language=eng', {
              captchaType: 'blockPuzzle',
              token: 'none',
              pointJson: 'x',
            })
          ).json(),
        );
      }
      expect(checks.map((c) => c.repCode)).toEqual(['6110', '6110', '6204']);
      expect(checks[2].repMsg).toBe('Too many verification requests, please try again later!');
      const fresh = await limited.call({
        url: '/api/front/captcha/get',
        body: { captchaType: 'blockPuzzle' },
        headers: { 'user-agent': 'limits-test, another browser' },
      });
      expect(fresh.json().repCode).toBe('0000');
    } finally {
      await limited.close();
    }
  });

  it('locks a client for 300 s after 5 failed checks in a minute (6202), for get and check', async () => {
    const locking = await createTestContext({ CAPTCHA_BEHAVIOUR: '1' }, { databaseUrl: ctx.url });
    try {
      const ua = { 'user-agent': 'lock-test' };
      const call = (url: string, body: Record<string, unknown>) => locking.call({ url, body, headers: ua });
      const fails = [];
      for (let i = 0; i < 5; i++) {
        const g = (await call('/api/front/captcha/get', { captchaType: 'blockPuzzle' })).json();
        const pointJson = aes(JSON.stringify({ x: 10, y: 5 }), g.repData.secretKey);
        fails.push(
          (
            await call('/api/front/captcha/check', { captchaType: 'blockPuzzle', pointJson, token: g.repData.token })
          ).json().repCode,
        );
      }
      expect(fails).toEqual(['6111', '6111', '6111', '6111', '6111']);
      const locked = (await call('/api/front/captcha/get', { captchaType: 'blockPuzzle' })).json();
      expect(locked).toMatchObject({ repCode: '6202', repMsg: '接口验证失败数过多，请稍后再试' });
      const lockedCheck = (
        await call('/api/front/captcha/check', { captchaType: 'blockPuzzle', pointJson: 'x', token: 't' })
      ).json();
      expect(lockedCheck.repCode).toBe('6202');
      const { rows } = await ctx.db.execute<{ s: number }>(
        sql`SELECT extract(epoch FROM until - now())::int AS s FROM rate_locks WHERE key LIKE 'aj:lock:%'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.s).toBeGreaterThan(290);
      expect(rows[0]!.s).toBeLessThanOrEqual(300);
      // Another client is not affected.
      expect((await get(locking)).repCode).toBe('0000');
    } finally {
      await locking.close();
    }
  });
});

describe('registration image captcha', () => {
  it('returns an image bound to the page number, which a login cannot spend', async () => {
    const number = 'reg12345678';
    const res = await ctx.call({ url: `/api/front/account/auth/kaptcha?number=${number}` });
    expect(res.json().data.image).toMatch(/^data:image\/png;base64,/);
    const { rows } = await ctx.db.execute<{ id: string }>(
      sql`SELECT client_id AS id FROM image_captchas WHERE client_id LIKE ${`%${number}`}`,
    );
    expect(rows.map((r) => r.id)).toEqual([`register:${number}`]);
    const bad = await ctx.call({ url: '/api/front/account/auth/kaptcha?number=<x>' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('login with the behavioural captcha on', () => {
  const login = (proof: Record<string, string>) =>
    ctx.call({
      url: '/api/auth/jwt/front/token',
      body: { username: 'member', password: ctx.encrypt(DEMO_PASSWORD), ...proof },
    });

  it('signs in with a passed check once, and refuses the image captcha and a replay', async () => {
    const { verification } = await answer(ctx, { x: 150.4, y: 5 });
    const first = await login({ captchaVerification: verification });
    expect(first.json()).toMatchObject({ status: 200 });
    expect(typeof first.json().data).toBe('string');

    const replay = await login({ captchaVerification: verification });
    expect(replay.json()).toEqual({ status: 40002, message: '用户名、密码或验证码错误', data: null });

    // With the slider on, a right image answer does not count.
    const key = 'imagekey12345';
    await ctx.call({ url: `/api/auth/kaptcha/get?type=LOGIN&data=${key}` });
    const image = await login({ imgvercode: '8888', captchaKey: key });
    expect(image.json().message).toBe('请求参数不正确：缺少必填字段 captchaVerification');
    expect((await login({ captchaVerification: 'made-up' })).json().status).toBe(40002);
  });

  it('does not take a verification from a failed check', async () => {
    const { r, verification } = await answer(ctx, { x: 100, y: 5 });
    expect(r.repCode).toBe('6111');
    expect((await login({ captchaVerification: verification })).json().status).toBe(40002);
  });
});
