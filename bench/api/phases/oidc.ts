/**
 * Phase 11: the OpenID Provider of the demo tenant. One confidential first-party client
 * (client_secret_basic) and one user signed in through the real flow (authorization request, the
 * interaction, the sign-on page's form, back to the provider); then, each under load:
 *   a. authorization requests with that live session → a code each (the codes are kept),
 *   b. the codes exchanged at the token endpoint, each once (refresh and access tokens kept),
 *   c. those refresh tokens spent at the token endpoint, each once (rotation),
 *   d. client-credentials grants,
 *   e. userinfo with the access tokens of c.
 * Between runs, PostgreSQL's statistics settle (11 s) so that each run's transactions and inserted
 * rows can be divided by its requests; the CPU per request comes from /proc (cannon's split).
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../../apps/server/src/db/client.js';
import { sha256Hex } from '../../../apps/server/src/platform/hash.js';
import { cannon, describe, type RunSummary } from '../cannon.js';
import type { Portal } from '../client.js';
import { dbSnapshot, perRequest } from '../db-stats.js';
import { DEMO_PASSWORD, log, settings } from '../settings.js';

const ISSUER_PATH = '/oidc/demo';
const REDIRECT = 'https://rp.bench.test/callback';
/** One PKCE pair for every code (the bench checks the provider's work, not the verifier's randomness). */
const VERIFIER = 'bench-pkce-verifier-0123456789abcdefghijklmnopqrstuvwxyz';

/** Milliseconds of one core per request: the portal's and PostgreSQL's, from the run's CPU split. */
export function cpuPerRequest(r: RunSummary) {
  const ms = (pct: number) =>
    Math.round(((pct / 100) * availableParallelism() * r.wallS * 1000 * 1000) / Math.max(1, r.responses)) / 1000;
  return { portalMs: ms(r.cpu.serverPct), postgresMs: ms(r.cpu.postgresPct) };
}

export async function benchOidc(portal: Portal, encrypt: (password: string) => string, db: Db) {
  const clientId = `bench_${Date.now().toString(36)}`;
  const secret = 'bench-client-secret-of-256-random-bits-0123456789abcdef';
  await db.$client.query(
    `INSERT INTO oidc_clients (tenant_id, client_id, name, translations, confidential, secret_hash, secret_set_at,
       grant_types, redirect_uris, scopes, first_party, id_token_alg, enabled)
     SELECT id, $1, 'bench', '{}'::jsonb, true, $2, now(), '{authorization_code,refresh_token,client_credentials}',
       $3::text[], '{openid,profile,phone,roles,enterprise}', true, 'ES256', true
     FROM tenants WHERE code = 'demo'`,
    [clientId, sha256Hex(secret), [REDIRECT]],
  );
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const challenge = sha256Base64Url(VERIFIER);
  const authPath = `${ISSUER_PATH}/auth?${new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'openid profile phone roles enterprise',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })}`;

  // The browser: cookies by name (every cookie to every path is harmless here), redirects followed
  // on the portal whatever origin PUBLIC_URL gives them.
  const cookies = new Map<string, string>();
  const go = async (url: string, init: { method?: string; form?: Record<string, string> } = {}) => {
    const u = new URL(url, portal.base);
    const res = await fetch(`${portal.base}${u.pathname}${u.search}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    await res.arrayBuffer();
    return { status: res.status, location: res.headers.get('location') };
  };
  const follow = async (url: string) => {
    let at = url;
    for (let i = 0; i < 10; i++) {
      const res = await go(at);
      if (!res.location || res.status < 300 || res.status >= 400) return at;
      at = new URL(res.location, new URL(at, portal.base)).href;
      if (at.startsWith(REDIRECT)) return at;
    }
    throw new Error(`oidc: too many redirects, at ${at}`);
  };
  const signOn = new URL(await follow(authPath));
  const service = signOn.searchParams.get('service');
  if (signOn.pathname !== '/cas/login' || !service) throw new Error(`oidc: expected the sign-on page, got ${signOn}`);
  const captchaKey = await portal.fetchCaptcha();
  const form = await go('/cas/login', {
    form: {
      username: 'member',
      password: encrypt(DEMO_PASSWORD),
      imgvercode: '8888',
      captchaKey,
      service,
      tenantCode: 'demo',
    },
  });
  if (form.status !== 303) throw new Error(`oidc: the sign-on form answered ${form.status}`);
  const first = await follow(service);
  if (!new URL(first).searchParams.get('code')) throw new Error(`oidc: no code after signing in: ${first}`);
  const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

  const tokenPath = `${ISSUER_PATH}/token`;
  const mePath = `${ISSUER_PATH}/me`;
  const tokenHeaders = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
  const capture = (pattern: RegExp, into: string[]) => (text: string) => {
    const found = pattern.exec(text)?.[1];
    if (found) into.push(decodeURIComponent(found));
  };
  const cannonOpts = (path: string, amount?: number) => ({
    url: portal.base + path,
    connections: Math.min(settings.connections, amount ?? Infinity),
    ...(amount === undefined ? {} : { amount }),
  });
  /** Authorization requests with the live session; the codes into `into`. */
  const authorizeRequests = (into: string[]) => [
    {
      method: 'GET',
      path: authPath,
      headers: { cookie },
      onResponse: (_s: number, _b: string, _c: unknown, headers: Record<string, string>) =>
        capture(
          /[?&]code=([^&]+)/,
          into,
        )(String(Object.entries(headers).find(([k]) => k.toLowerCase() === 'location')?.[1] ?? '')),
    },
  ];
  /** Token requests, one body each; what `collect` wants of the answers. */
  const spend = (bodies: string[], collect: (body: string) => void = () => {}) => {
    let i = 0;
    return [
      {
        method: 'POST',
        path: tokenPath,
        headers: tokenHeaders,
        setupRequest: (req: { body?: string | Buffer }) => {
          req.body = bodies[i++]!;
          return req;
        },
        onResponse: (_s: number, body: string) => collect(body),
      },
    ];
  };
  const exchangeBody = (code: string) =>
    new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
    }).toString();
  const refreshBody = (token: string) =>
    new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString();
  const ccRequests = [
    { method: 'POST', path: tokenPath, headers: tokenHeaders, body: 'grant_type=client_credentials' },
  ];
  const meRequests = (tokens: string[]) => {
    let u = 0;
    return [
      {
        method: 'GET',
        path: mePath,
        setupRequest: (req: { headers?: Record<string, string> }) => {
          req.headers = { authorization: `Bearer ${tokens[u++ % tokens.length]}` };
          return req;
        },
      },
    ];
  };

  // Unmeasured warm-up of every path (JIT, pools, the provider's caches), the same chain in small.
  if (settings.warmup > 0) {
    const warm = { codes: [] as string[], refresh: [] as string[], access: [] as string[] };
    const made = await cannon({
      ...cannonOpts(authPath),
      duration: settings.warmup,
      requests: authorizeRequests(warm.codes),
    });
    log(`oidc warm-up authorize: ${describe(made)} ${JSON.stringify(made.statusCodes)}`);
    if (warm.codes.length === 0) throw new Error('oidc: the warm-up made no code');
    const exchanged = warm.codes.map(exchangeBody);
    await cannon({
      ...cannonOpts(tokenPath, exchanged.length),
      requests: spend(exchanged, capture(/"refresh_token":"([^"]+)"/, warm.refresh)),
    });
    const refreshed = warm.refresh.map(refreshBody);
    await cannon({
      ...cannonOpts(tokenPath, refreshed.length),
      requests: spend(refreshed, capture(/"access_token":"([^"]+)"/, warm.access)),
    });
    await cannon({ ...cannonOpts(tokenPath), duration: settings.warmup, requests: ccRequests });
    await cannon({ ...cannonOpts(mePath), duration: settings.warmup, requests: meRequests(warm.access) });
    log(
      `oidc warm-up: ${warm.codes.length} codes, ${warm.refresh.length} refresh tokens, ${warm.access.length} access tokens`,
    );
  }

  // Between runs PostgreSQL's statistics settle, so that each run's own work can be counted.
  const settle = async () => {
    await sleep(11_000);
    return dbSnapshot(db);
  };
  const runs: Record<string, { run: RunSummary; db: ReturnType<typeof perRequest> }> = {};
  let before = await settle();
  const measured = async (name: string, run: RunSummary) => {
    log(`oidc ${name}: ${describe(run)}`);
    const after = await settle();
    runs[name] = { run, db: perRequest(before, after, run.responses) };
    before = after;
    return run;
  };

  // a. Codes from the live session, as fast as the provider makes them.
  const codes: string[] = [];
  log(`oidc authorize: ${settings.duration} s × ${settings.connections} connections, a code per request`);
  const authorize = await measured(
    'authorize',
    await cannon({ ...cannonOpts(authPath), duration: settings.duration, requests: authorizeRequests(codes) }),
  );

  // b. Each code exchanged once (they live 60 s: the run starts about 11 s after the last was made).
  const refreshTokens: string[] = [];
  log(`oidc code exchange: ${codes.length} codes, each once, ${settings.connections} connections`);
  const exchange = await measured(
    'exchange',
    await cannon(
      {
        ...cannonOpts(tokenPath, codes.length),
        requests: spend(codes.map(exchangeBody), capture(/"refresh_token":"([^"]+)"/, refreshTokens)),
        verifyBody: (b: string) => b.includes('"id_token"') && b.includes('"refresh_token"'),
      },
      settings.duration,
    ),
  );

  // c. Each refresh token spent once: a new access and refresh token each (rotation).
  const accessTokens: string[] = [];
  log(`oidc refresh: ${refreshTokens.length} refresh tokens, each once, ${settings.connections} connections`);
  const refresh = await measured(
    'refresh',
    await cannon(
      {
        ...cannonOpts(tokenPath, refreshTokens.length),
        requests: spend(refreshTokens.map(refreshBody), capture(/"access_token":"([^"]+)"/, accessTokens)),
        verifyBody: (b: string) => b.includes('"access_token"') && b.includes('"refresh_token"'),
      },
      settings.duration,
    ),
  );

  // d. Client credentials (no user, no refresh token), for the whole duration.
  log(`oidc client credentials: ${settings.duration} s × ${settings.connections} connections`);
  const clientCredentials = await measured(
    'clientCredentials',
    await cannon({
      ...cannonOpts(tokenPath),
      duration: settings.duration,
      requests: ccRequests,
      verifyBody: (b: string) => b.includes('"access_token"') && !b.includes('"refresh_token"'),
    }),
  );

  // e. Userinfo with the access tokens of the refreshes, in turn.
  log(
    `oidc userinfo: ${settings.duration} s × ${settings.connections} connections, ${accessTokens.length} access tokens in turn`,
  );
  const userinfo = await measured(
    'userinfo',
    await cannon({
      ...cannonOpts(mePath),
      duration: settings.duration,
      requests: meRequests(accessTokens),
      verifyBody: (b: string) => b.includes('"sub":"') && b.includes('"preferred_username":"member"'),
    }),
  );

  return {
    clientId,
    codes: codes.length,
    refreshTokens: refreshTokens.length,
    accessTokens: accessTokens.length,
    authorize,
    exchange,
    refresh,
    clientCredentials,
    userinfo,
    db: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, v.db])),
    cpuPerRequest: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, cpuPerRequest(v.run)])),
  };
}

function sha256Base64Url(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
