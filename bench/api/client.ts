/**
 * The signed client of the portal: single calls (checked or timed), logins, the password encryptor,
 * and pools of signed GETs made ahead for autocannon runs.
 */
import { constants, createPublicKey, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { signRequest } from '@portal/contracts/node-signing';
import { percentile, round } from '../common.js';
import { cannon, describe, type RunSummary } from './cannon.js';
import { DEMO_PASSWORD, LOGIN_PATH, log, settings } from './settings.js';

export interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

export class Portal {
  secret = '';
  constructor(readonly base: string) {}

  async call<T>(
    pathAndQuery: string,
    opts: { body?: Record<string, unknown>; token?: string } = {},
  ): Promise<Envelope<T>> {
    const res = await fetch(this.base + pathAndQuery, {
      method: opts.body ? 'POST' : 'GET',
      headers: {
        ...signRequest(this.secret, pathAndQuery, opts.body ?? null),
        ...(opts.body ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization_front: opts.token } : {}),
      },
      ...(opts.body ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.text();
    let body: Envelope<T>;
    try {
      body = JSON.parse(text) as Envelope<T>;
    } catch {
      throw new Error(`${pathAndQuery}: HTTP ${res.status}, not JSON: ${text.slice(0, 200)}`);
    }
    if (res.status !== 200 || body.status !== 200) {
      throw new Error(`${pathAndQuery}: HTTP ${res.status}, status ${body.status}: ${body.message}`);
    }
    return body;
  }

  async fetchCaptcha(): Promise<string> {
    const key = randomBytes(8).toString('hex');
    const res = await this.call<{ image: string }>(`/api/auth/kaptcha/get?type=LOGIN&data=${key}`);
    if (!res.data.image) throw new Error('captcha without image');
    return key;
  }
}

export function encryptor(publicKeyPem: string): (password: string) => string {
  const key: KeyObject = createPublicKey(publicKeyPem);
  return (password) =>
    publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(password, 'utf8'),
    ).toString('base64');
}

/**
 * Signed GETs made ahead, as for infoV2: one set of headers per request (each nonce used once),
 * cycling over `paths`, handed out with their path by `setupRequest` (the signature covers the
 * path and its query, so each request's path must be the one its headers were made for).
 * `extraHeaders` (e.g. the token in `authorization_front`) go with every request.
 */
function signedGetPool(secret: string, paths: readonly string[], extraHeaders: Record<string, string> = {}) {
  let made: Array<{ path: string; headers: Record<string, string> }> = [];
  let used = 0;
  const make = (i: number) => {
    const path = paths[i % paths.length]!;
    return { path, headers: { ...signRequest(secret, path, null), ...extraHeaders } };
  };
  return {
    /** Makes `count` fresh sets (and drops the old), moments before a run. */
    fill(count: number) {
      made = [];
      used = 0;
      for (let i = 0; i < count; i++) made.push(make(i));
    },
    clear() {
      made = [];
    },
    /** Requests signed on the spot because the pool ran out (their signing took the cores). */
    late: () => Math.max(0, used - made.length),
    requests: [
      {
        method: 'GET',
        path: paths[0],
        setupRequest: (req: { path?: string; headers?: Record<string, string> }) => {
          // Past the pool (a run faster than planned), sign on the spot rather than reuse a nonce.
          const p = made[used] ?? make(used);
          used++;
          req.path = p.path;
          req.headers = p.headers;
          return req;
        },
      },
    ],
  };
}

/**
 * A warm-up and a measured autocannon run of signed GETs over `paths` (see signedGetPool), at the
 * connections and for the time of the infoV2 run.
 */
export async function measureGets(
  portal: Portal,
  what: string,
  paths: readonly string[],
  verifyBody: (b: string) => boolean,
  extraHeaders: Record<string, string> = {},
): Promise<RunSummary> {
  const pool = signedGetPool(portal.secret, paths, extraHeaders);
  const url = portal.base + paths[0];
  if (settings.warmup > 0) {
    pool.fill(settings.warmup * 40_000);
    const w = await cannon({
      url,
      connections: settings.connections,
      duration: settings.warmup,
      requests: pool.requests,
      verifyBody,
    });
    if (w.non2xx || w.mismatches) throw new Error(`${what} warm-up was refused: ${JSON.stringify(w.statusCodes)}`);
  }
  pool.fill(Math.min(settings.duration, 250) * 40_000);
  log(`${what}: ${settings.duration} s × ${settings.connections} connections, fresh nonce + signature per request`);
  const run = await cannon({
    url,
    connections: settings.connections,
    duration: settings.duration,
    requests: pool.requests,
    verifyBody,
  });
  const late = pool.late();
  pool.clear();
  log(`${what}: ${describe(run)}${late ? `; ${late} requests past the pool were signed during the run` : ''}`);
  return run;
}

/** A login of `username` (password DEMO_PASSWORD) with a fresh captcha: its token. */
export async function login(portal: Portal, encrypt: (p: string) => string, username: string): Promise<string> {
  const captchaKey = await portal.fetchCaptcha();
  return (
    await portal.call<string>(LOGIN_PATH, {
      body: { username, password: encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey },
    })
  ).data;
}

export interface Timed {
  ms: number;
  http: number;
  status: number | null;
  message: string;
  data: unknown;
}

/** One signed call, timed from sending to the whole answer read; headers are signed before the clock starts. */
export async function timedCall(
  portal: Portal,
  pathAndQuery: string,
  opts: { body?: Record<string, unknown>; token: string },
): Promise<Timed> {
  const init: RequestInit = {
    method: opts.body ? 'POST' : 'GET',
    headers: {
      ...signRequest(portal.secret, pathAndQuery, opts.body ?? null),
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
      authorization_front: opts.token,
    },
    ...(opts.body ? { body: JSON.stringify(opts.body) } : {}),
  };
  const t0 = performance.now();
  const res = await fetch(portal.base + pathAndQuery, init);
  const text = await res.text();
  const ms = performance.now() - t0;
  let env: Partial<Envelope<unknown>> = {};
  try {
    env = JSON.parse(text) as Envelope<unknown>;
  } catch {
    // not JSON: counted as a failure by the caller (no status)
  }
  return {
    ms,
    http: res.status,
    status: typeof env.status === 'number' ? env.status : null,
    message: env.message ?? text.slice(0, 200),
    data: env.data,
  };
}

export function latencyStats(ms: readonly number[]) {
  const sorted = Float64Array.from(ms).sort();
  return {
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length), 3),
    p50: round(percentile(sorted, 0.5), 3),
    p99: round(percentile(sorted, 0.99), 3),
    max: round(percentile(sorted, 1), 3),
  };
}
