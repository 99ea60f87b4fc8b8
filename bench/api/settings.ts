/**
 * The benchmark's settings (read from the environment), its targets, the portal's paths it calls,
 * the files it reads and writes, and `log`.
 */
import { join } from 'node:path';
import { envNumber, ROOT } from '../common.js';

// import.meta.dirname is bench/api/ here: BENCH_DIR is its parent, bench/.
export const BENCH_DIR = join(import.meta.dirname, '..');
export const SERVER_MAIN = join(ROOT, 'apps/server/dist/programs/server/main.js');
export const RESULTS_DIR = join(BENCH_DIR, 'results');

export const settings = {
  /** Seconds of each measured autocannon run (hello, infoV2). */
  duration: envNumber('BENCH_DURATION', 10),
  /** Concurrent connections for hello and infoV2. */
  connections: envNumber('BENCH_CONNECTIONS', 50),
  /** Unmeasured seconds before hello and infoV2 (JIT, connection pool); 0 to skip. */
  warmup: envNumber('BENCH_WARMUP', 2),
  argon2Seconds: envNumber('BENCH_ARGON2_SECONDS', 5),
  argon2Concurrency: envNumber('BENCH_ARGON2_CONCURRENCY', 4),
  loginDuration: envNumber('BENCH_LOGIN_DURATION', 10),
  loginConnections: envNumber('BENCH_LOGIN_CONNECTIONS', 8),
  captchaConcurrency: envNumber('BENCH_CAPTCHA_CONCURRENCY', 4),
  /** Sequential switches per user in the switching phase (at most 120, the server's limit per user and hour). */
  switchCount: envNumber('BENCH_SWITCH_COUNT', 100),
  /** Users switching at the same time in the switching phase (copies of the demo admin made for the run). */
  switchUsers: envNumber('BENCH_SWITCH_USERS', 4),
  /** Comma list of hello,info,argon2,passkeys (and TOTP checks),login,captcha,sso,catalog,switching,notices,oidc; BENCHMARKS.md is only rewritten when all ran. */
  phases: new Set(
    (process.env.BENCH_PHASES ?? 'hello,info,argon2,passkeys,login,captcha,sso,catalog,switching,notices,oidc')
      .split(',')
      .map((s) => s.trim()),
  ),
  /** Set to 1 to run the portal with --cpu-prof (profiles land in bench/results/cpu-prof/). */
  cpuProf: /^(1|true|yes)$/i.test(process.env.BENCH_CPU_PROF ?? ''),
  /** Extra environment for the portal, e.g. "UV_THREADPOOL_SIZE=2 SESSION_TTL_HOURS=1" (what-if runs). */
  serverEnv: Object.fromEntries(
    (process.env.BENCH_SERVER_ENV ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  ) as Record<string, string>,
  /** Set to 1 to exit with status 1 when a target is missed (the run always fails when invalid). */
  strict: /^(1|true|yes)$/i.test(process.env.BENCH_STRICT ?? ''),
};

/**
 * Speeds are targets as ratios to the same run's Fastify hello-world (absolute rates mean nothing
 * across these machines); the login's is to raw argon2 in the same process.
 */
export const TARGETS = {
  infoRatio: 0.4,
  infoP99Ms: 20,
  loginRatio: 0.8,
  captchaGetRatio: 0.012,
  captchaImageKb: 30,
  captchaCheckRatio: 0.08,
  ssoIssueRatio: 0.08,
  ssoValidateRatio: 0.12,
};
export const CAPTCHA_GET_PATH = '/api/front/captcha/get';
export const CAPTCHA_CHECK_PATH = '/api/front/captcha/check';
export const DEMO_PASSWORD = 'Demo@2026!';
export const INFO_PATH = '/api/front/member/front/infoV2';
export const LOGIN_PATH = '/api/auth/jwt/front/token?tenantCode=demo';
export const REGION_PATH = '/api/front/select/regionTreeListByCode';
export const JOIN_ENT_PATH = '/api/front/ent/joinEntList?page=1&limit=10';
export const ROLES_PATH = '/api/front/member/getUserRolesNew';
export const SWITCH_PATH = '/api/front/member/switchContext';
/** The server's limit on switches per user and hour (auth.service.ts); 429 beyond. */
export const SWITCHES_PER_HOUR = 120;
export const INDUSTRY_TREE_PATH = '/api/front/select/indTree';
/**
 * The region picker's levels, asked in turn: 0 (the 34 provinces), provinces (their cities; for a
 * municipality its districts), cities (their districts) and districts (their towns or streets).
 */
export const REGION_CODES = [
  '0',
  '440000',
  '320000',
  '510000',
  '110000',
  '440100',
  '320100',
  '510100',
  '110101',
  '440106',
  '310104',
  '500101',
] as const;

export const log = (msg: string) => process.stdout.write(`[bench] ${msg}\n`);
