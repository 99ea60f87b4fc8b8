/**
 * The fuzz suite: every route of the server's route table (a route added later is fuzzed without
 * anyone listing it), called with requests generated from its own schemas: valid ones, one field
 * hostile, hostile bodies and paths, bad signatures; with and without a session. Whatever comes
 * in, no answer is a 5xx; every /api answer is the envelope, in the request's language, without
 * stack or SQL text; a refused call writes no row; and the server is alive afterwards.
 *
 * Before the random calls, every route gets the requests of the classes that once reached a 5xx
 * (systematicRequestsFor: half surrogate pairs, hostile names, ignored fields with a NUL, empty
 * PATCH bodies, multipart without a boundary), so that finding them is not left to chance. Half
 * the calls with a session take one; on the operators' routes mostly an operator's, holding every
 * operators' permission; every change that succeeds there must be in the audit log.
 *
 * Two runs, each on a database of its own: one with a fixed seed (the same calls every time, so a red
 * run is red again on any machine) and one with a seed drawn for the run (new calls each time). Each
 * prints the command that repeats it exactly: FUZZ_SEED=<n> runs that seed alone and FUZZ_CALLS=<n>
 * sets the calls of all runs together (default 6000).
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect as connectTcp, type AddressInfo } from 'node:net';
import { signRequest } from '@portal/contracts/node-signing';
import { canonicalParams, httpStatusOf, signingText } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './db/embedded.js';
import { sign } from './platform/signing.js';
import {
  RawNumber,
  describe as show,
  requestsFor,
  seededRng,
  systematicRequestsFor,
  type FuzzRequest,
} from './test/fuzz.js';
import { createTestContext, injectStreaming, type TestContext } from './test/harness.js';
import { watchWrites, type WriteWatch } from './test/writes.js';

/** The fixed seed's run is the same on every machine; the drawn one explores. */
const FIXED_SEED = 20261126;
const SEEDS = process.env.FUZZ_SEED
  ? [{ seed: Number(process.env.FUZZ_SEED), which: 'given' }]
  : [
      { seed: FIXED_SEED, which: 'fixed' },
      { seed: randomBytes(4).readUInt32LE(), which: 'drawn' },
    ];
const CALLS_IN_ALL = Number(process.env.FUZZ_CALLS ?? 6000);
const CALLS = Math.ceil(CALLS_IN_ALL / SEEDS.length);

let ctx: TestContext;
let writes: WriteWatch;
async function start() {
  // The session the fuzz uses is taken again after each call that may end it: more logins than
  // one address may make in a minute. The server listens at its public address, so that what
  // calls it over HTTP (the example system validating a ticket) reaches it.
  const port = await freePort();
  ctx = await createTestContext({ LOGIN_RATE_PER_MINUTE: '1000000', PUBLIC_URL: `http://127.0.0.1:${port}` });
  await ctx.app.listen({ port, host: '127.0.0.1' });
  writes = await watchWrites(ctx.db);
}
async function stop() {
  await writes?.stop();
  await ctx?.close();
}

const CJK = /[\u4e00-\u9fff]/;
/** What must never reach a client: stack frames, source paths, SQL and driver or framework internals. */
const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\.[jt]s:\d+|\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|\bUPDATE \w+ SET\b|syntax error at|violates|duplicate key|invalid input syntax|invalid byte sequence|RangeError|TypeError|ReferenceError|FST_ERR|Maximum call stack/;

/** The answer of AJ-Captcha's own protocol (docs/product/data.md#captcha-protocol: repCode, repMsg, repData), not the envelope. */
const isCaptchaAnswer = (body: Record<string, unknown>) =>
  typeof body.repCode === 'string' && 'repData' in body && typeof body.success === 'boolean';

/** Checks one answer; returns what is wrong with it, or null. */
function problemWith(
  url: string,
  english: boolean,
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
): string | null {
  if (res.statusCode >= 500) return `HTTP ${res.statusCode}`;
  if (LEAK.test(res.body)) return `leaks internals: ${res.body.slice(0, 300)}`;
  const path = url.split('?')[0]!;
  if (!path.startsWith('/api/')) return null;
  // A live stream's first event: the retry hint and the hello with the unread count.
  if (res.statusCode === 200 && String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    return /^retry: \d+\nevent: hello\ndata: \{"unread":\d+,"last":\d+\}\n\n$/.test(res.body)
      ? null
      : `not a stream's first event: ${res.body.slice(0, 200)}`;
  }
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    return `not JSON (${String(res.headers['content-type'])})`;
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(res.body) as Record<string, unknown>;
  } catch {
    return 'not JSON';
  }
  if (res.statusCode === 200 && isCaptchaAnswer(body)) {
    const msg = String(body.repMsg ?? '');
    return msg && CJK.test(msg) === english ? `repMsg in the wrong language: ${msg}` : null;
  }
  if (Object.keys(body).sort().join() !== 'data,message,status') return `not the envelope: ${res.body.slice(0, 200)}`;
  if (typeof body.status !== 'number' || httpStatusOf(body.status) !== res.statusCode) {
    return `status ${String(body.status)} with HTTP ${res.statusCode}`;
  }
  if (typeof body.message !== 'string' || body.message.length === 0) return 'no message';
  if (CJK.test(body.message) === english) return `message in the wrong language: ${body.message}`;
  if (res.statusCode >= 400 && body.data !== null) return 'an error with data';
  return null;
}

/** JSON text of `value`, with RawNumbers written as they are (1e400 stays 1e400). */
function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof RawNumber) {
      raws.push(v.json);
      return `\u0001raw${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_, i: string) => raws[Number(i)]!);
}

/** What the server's parser will see: RawNumbers as the numbers they parse to. */
const parsed = (value: unknown): unknown =>
  value instanceof RawNumber
    ? value.parsed
    : Array.isArray(value)
      ? value.map(parsed)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, parsed(v)]))
        : value;

const queryText = (v: unknown) =>
  typeof v === 'string' ? v : v instanceof RawNumber ? v.json : typeof v === 'object' ? JSON.stringify(v) : String(v);

function toInject(req: FuzzRequest, token: string | undefined, remoteAddress: string) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query)) {
    for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) qs.append(k, queryText(one));
  }
  const url = qs.size > 0 ? `${req.path}?${qs}` : req.path;
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of qs) {
    const prev = query[k];
    query[k] = prev === undefined ? v : [prev, v].flat();
  }
  const json = req.body && 'json' in req.body ? req.body.json : null;
  const ts = String(Date.now());
  const nonce = randomBytes(12).toString('hex');
  const text = signingText(ts, nonce, req.path, canonicalParams(query, parsed(json) as Record<string, unknown>));
  const signature = req.signing === 'bad' ? sign('not-the-secret', text) : sign(ctx.secrets.signSecret, text);
  return {
    method: req.method as 'GET',
    url,
    remoteAddress,
    ...(req.body ? { payload: 'json' in req.body ? jsonText(req.body.json) : req.body.raw } : {}),
    headers: {
      ...(req.body ? { 'content-type': 'json' in req.body ? 'application/json' : req.body.contentType } : {}),
      ...(req.signing === 'none' ? {} : { 'x-timestamp': ts, 'x-nonce': nonce, 'x-signature': signature }),
      ...(req.withSession && token ? { authorization_front: token } : {}),
    },
  };
}

describe.each(SEEDS)('fuzz over the route table, $which seed', ({ seed }) => {
  beforeAll(start);
  afterAll(stop);

  it(`answers ${CALLS} generated requests without a 5xx, always in the envelope, writing nothing when refusing`, async () => {
    const repeat = `FUZZ_SEED=${seed} FUZZ_CALLS=${CALLS}`;
    console.log(`fuzz: seed ${seed}, ${CALLS} calls (repeat with ${repeat})`);
    const r = seededRng(seed);
    const routes = ctx.app.routeTable.filter((route) => route.method !== 'HEAD' && !route.url.startsWith('/center'));
    expect(routes.length).toBeGreaterThan(40);
    const systematic = routes.map((route) => systematicRequestsFor(route, r));
    const fixed = systematic.reduce((n, list) => n + list.length, 0);
    const perRoute = Math.max(1, Math.ceil((CALLS - fixed) / routes.length));
    const requests = routes.flatMap((route, i) =>
      [...systematic[i]!, ...requestsFor(route, perRoute, r)].map((req) =>
        Object.assign(req, { stream: route.stream }),
      ),
    );

    let token: string | undefined;
    let operatorToken: string | undefined;
    const session = async (operator: boolean) =>
      operator
        ? (operatorToken ??= await ctx.asRole(await ctx.login('admin'), 'park_operator'))
        : (token ??= await ctx.login('admin'));
    const audited = async () =>
      Number((await ctx.db.execute<{ n: number }>(sql`SELECT count(*) AS n FROM audit_log`)).rows[0]!.n);
    const problems: string[] = [];
    let calls = 0;
    for (const req of requests) {
      const remote = `10.${Math.floor(r() * 4)}.${Math.floor(r() * 256)}.${1 + Math.floor(r() * 254)}`;
      const operator = req.operator === true;
      const options = toInject(req, req.withSession ? await session(operator) : undefined, remote);
      const before = await writes.count();
      const change = req.path.startsWith('/api/admin/') && req.method !== 'GET';
      const auditsBefore = change ? await audited() : 0;
      const res = req.stream ? await injectStreaming(ctx.app, options) : await ctx.app.inject(options);
      calls++;
      const english = req.query.language === 'eng';
      const problem = problemWith(options.url, english, res);
      if (problem) problems.push(`${req.method} ${options.url.slice(0, 160)} [${req.what}]: ${problem}`);
      if (res.statusCode >= 400) {
        const written = await writes.since(before);
        if (written.length > 0) {
          problems.push(
            `${req.method} ${req.path} [${req.what}] refused with ${res.statusCode} but wrote ${show(written)}`,
          );
        }
      } else {
        // An operator's change that succeeded is in the audit log, whatever its body held.
        if (change && (await audited()) === auditsBefore) {
          problems.push(`${req.method} ${req.path} [${req.what}] succeeded without an audit entry`);
        }
        // A successful switch or logout ends the token: take a new one for the next calls. (An
        // operator's changes leave their own session be; a 401 says when one did not.)
        if (req.withSession && req.method !== 'GET' && !operator) token = undefined;
      }
      if (res.statusCode === 401 && req.withSession) {
        if (operator) operatorToken = undefined;
        else token = undefined;
      }
    }
    console.log(
      `fuzz: ${calls} calls over ${routes.length} routes (${fixed} of them systematic), ${problems.length} problems`,
    );
    expect(problems.slice(0, 40), repeat).toEqual([]);

    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    // Operators' calls may disable or rename any other user; the fuzz's own user stays.
    expect(await ctx.login('admin')).toMatch(/\./);
  }, 600_000);
});

/** Sends raw bytes over a real socket and returns the status line, headers and body. */
function rawHttp(
  port: number,
  text: string,
): Promise<{ statusCode: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1', () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = all.split('\r\n\r\n', 2) as [string?, string?];
      const [status, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ statusCode: Number(status?.split(' ')[1]), headers, body });
    });
  });
}

describe('what only a real socket can send', () => {
  let port: number;
  beforeAll(async () => {
    await start();
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(stop);

  it.each([
    ['a URL over 16 KB', `/api/front/member/front/infoV2?x=${'a'.repeat(20_000)}`, 431, '请求头或请求地址过长'],
    [
      'a URL over 16 KB, in English',
      `/api/front/member/front/infoV2?language=eng&x=${'a'.repeat(20_000)}`,
      431,
      'The request headers or address are too long',
    ],
    ['a header over 16 KB', '/api/front/account/auth/publicKey', 431, '请求头或请求地址过长'],
    ['a bad URL component', '/api/front/page/definition/%', 400, '请求地址格式不正确'],
    ['a path parameter over 200 characters', `/api/front/page/definition/${'x'.repeat(300)}`, 414, '请求地址过长'],
    [
      'a NUL in the path (signed)',
      '/api/front/member/getAppNameByCode/a%00b',
      400,
      '请求参数不正确：code 的格式不正确',
    ],
  ] as const)('answers %s with the envelope', async (what, url, status, message) => {
    const extra = what.startsWith('a header') ? `X-Big: ${'b'.repeat(20_000)}\r\n` : '';
    const signed = what.endsWith('(signed)')
      ? Object.entries(signRequest(ctx.secrets.signSecret, url))
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')
      : '';
    const res = await rawHttp(
      port,
      `GET ${url} HTTP/1.1\r\nHost: localhost\r\n${signed}${extra}Connection: close\r\n\r\n`,
    );
    expect(res.statusCode, res.body).toBe(status);
    expect(problemWith(url, url.includes('language=eng'), res), `${what}: ${res.body}`).toBeNull();
    expect(JSON.parse(res.body).message).toBe(message);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a deeply nested body over HTTP with a 400 envelope before the signature is checked', async () => {
    const body = `{"x":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const res = await new Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>(
      (resolve, reject) => {
        const req = request(
          {
            port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/api/front/member/switchContext',
            headers: { 'content-type': 'application/json' },
          },
          (answer) => {
            let text = '';
            answer.on('data', (c: Buffer) => (text += c.toString()));
            answer.on('end', () => resolve({ statusCode: answer.statusCode!, headers: answer.headers, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      },
    );
    expect(res.statusCode).toBe(400);
    expect(problemWith('/api/front/member/switchContext', false, res)).toBeNull();
    // Refused while parsing: unsigned as it is, the signature check never ran (it would say 请求未签名).
    expect(JSON.parse(res.body).message).toBe('请求体嵌套层级过深');
  });
});
