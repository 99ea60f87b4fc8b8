/**
 * Server configuration from environment variables, validated once at start. A bad value stops the
 * server with a message that names the variable. README's configuration table lists every entry.
 */
import { join } from 'node:path';
import { DISPLAY_NAME, RUNTIME_DEFAULTS, RuntimeSwitches, checkPassword } from '@portal/contracts';
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { parseCidrs } from './addresses.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  publicUrl: string;
  ssoUrl: string;
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  seedDemo: boolean;
  demoPassword: string;
  testCaptcha: boolean;
  webDist: string | null;
  trustProxy: boolean;
  /** Prometheus metrics: a port of their own on `metricsHost`; 0 serves none. */
  metricsPort: number;
  metricsHost: string;
  sessionTtlHours: number;
  loginPerIpPerMinute: number;
  captchaPerClientPerMinute: number;
  bodyLimitBytes: number;
  /** Where uploaded files are kept (outside the web root), and the largest one taken. */
  filesDir: string;
  uploadMaxBytes: number;
  /** Per user: uploads and their bytes an hour and a day (429 beyond); uploads nothing names are removed after `unusedHours`. */
  uploads: UploadLimits;
  /** How long sessions and profiles may be served from memory; changes are broadcast at once. */
  cacheTtlMs: number;
  /** Behavioural captcha (AJ-Captcha protocol): see README. */
  behaviourCaptcha: {
    /** Offer the behavioural captcha (getCaptchaType answers `anji`). */
    enabled: boolean;
    /** Encrypt positions with a per-challenge secretKey (AJ-Captcha's aes status). */
    aes: boolean;
    sliderTolerancePx: number;
    clickTolerancePx: number;
    getPerMinute: number;
    checkPerMinute: number;
    /** Failed checks within a minute that lock the client… */
    failuresBeforeLock: number;
    /** …for this long. */
    lockSeconds: number;
  };
  /** The sign-on server (CAS 3.0 at /cas): see README. */
  sso: {
    sessionMaxHours: number;
    sessionIdleMinutes: number;
    ticketTtlSeconds: number;
  };
  /** The OpenID Provider (ADR 048): how long a signing key signs before its successor takes over. */
  oidc: { keyRotationDays: number };
  /** SMS codes (ADR 010): the provider and the abuse limits; see README. */
  sms: {
    provider: 'outbox' | 'webhook';
    webhookUrl: string | null;
    webhookSecret: string | null;
    codeTtlSeconds: number;
    resendSeconds: number;
    maxAttempts: number;
    dailyPerPhone: number;
    dailyPerIp: number;
    /**
     * The signature every SMS begins with (【…】): the installation's, never a tenant's, since the
     * carrier registers it for the sender (ADR 036).
     */
    signature: string;
  };
  /**
   * Requests the server sends to addresses that come from data (single logout): the ranges beyond
   * public addresses that they may reach (ADR 034). Loopback alone by default in development and
   * test, nothing in production.
   */
  outbound: { allowedCidrs: string[] };
  /** Runtime switches of docs/product/overview.md#runtime-switches (without secrets, which are added when config.js is served). */
  runtime: RuntimeSwitches;
}

export interface UploadLimits {
  filesPerHour: number;
  filesPerDay: number;
  bytesPerHour: number;
  bytesPerDay: number;
  unusedHours: number;
}

export class ConfigError extends Error {}

/** The demo accounts' password when DEMO_PASSWORD is unset: printed in the README, so known to all. */
export const PUBLISHED_DEMO_PASSWORD = 'Demo@2026!';

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return n;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be 1/0, true/false, yes/no or on/off (got "${raw}")`);
}

function url(env: Env, name: string, def: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL (got "${raw}")`);
  }
}

type SwitchSchema = TSchema & { type?: string; expected?: string };
const mustBe = (schema: SwitchSchema) =>
  schema.expected ?? `a ${schema.type === 'integer' ? 'whole number' : schema.type}`;

/**
 * A switch the environment sets by a variable of its own (`SITE_NAME` → siteName), held to the
 * switch's schema like `PORTAL_RUNTIME_CONFIG` is: a tenant's value and the installation's meet
 * the same rule.
 */
function switchVar<K extends keyof RuntimeSwitches>(env: Env, name: string, key: K): RuntimeSwitches[K] | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const schema = RuntimeSwitches.properties[key] as SwitchSchema;
  if (!Value.Check(schema, raw)) throw new ConfigError(`${name} must be ${mustBe(schema)}`);
  return raw as RuntimeSwitches[K];
}

/**
 * `PORTAL_RUNTIME_CONFIG`: a JSON object of runtime switches, each checked against its schema in
 * contracts (ADR 018); an unknown key or a wrong value stops the server with a message naming it.
 */
function runtimeOverrides(env: Env): Partial<RuntimeSwitches> {
  const raw = env.PORTAL_RUNTIME_CONFIG;
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('PORTAL_RUNTIME_CONFIG must be a JSON object');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('PORTAL_RUNTIME_CONFIG must be a JSON object');
  }
  const switches: Record<string, SwitchSchema> = RuntimeSwitches.properties;
  for (const [key, value] of Object.entries(parsed)) {
    // Own keys only: "constructor" or "__proto__" must not pass as known through the prototype.
    const schema = Object.hasOwn(switches, key) ? switches[key] : undefined;
    if (!schema) throw new ConfigError(`PORTAL_RUNTIME_CONFIG has an unknown key "${key}"`);
    if (!Value.Check(schema, value)) throw new ConfigError(`PORTAL_RUNTIME_CONFIG.${key} must be ${mustBe(schema)}`);
  }
  return parsed as Partial<RuntimeSwitches>;
}

/** An SMS signature: a short name by the site name's rule, as carriers take them. */
const SIGNATURE_MIN = 2;
const SIGNATURE_MAX = 20;
const signatureRule = `a name of ${SIGNATURE_MIN} to ${SIGNATURE_MAX} characters by the rule of SITE_NAME`;
const isSignature = (text: string) =>
  [...text].length >= SIGNATURE_MIN && [...text].length <= SIGNATURE_MAX && new RegExp(DISPLAY_NAME, 'u').test(text);

/**
 * `SMS_SIGNATURE`, else the installation's site name when that is short enough to sign with; a
 * longer site name needs the variable, and the message names it.
 */
function smsSignature(env: Env, siteName: string): string {
  const given = env.SMS_SIGNATURE;
  if (given !== undefined && given !== '') {
    if (!isSignature(given)) throw new ConfigError(`SMS_SIGNATURE must be ${signatureRule} (got "${given}")`);
    return given;
  }
  if (!isSignature(siteName)) {
    throw new ConfigError(
      `SMS_SIGNATURE must be set: the site name "${siteName}" is not a short name to sign SMS with (${signatureRule})`,
    );
  }
  return siteName;
}

function smsConfig(env: Env, siteName: string): Config['sms'] {
  const provider = env.SMS_PROVIDER || 'outbox';
  if (provider !== 'outbox' && provider !== 'webhook') {
    throw new ConfigError(`SMS_PROVIDER must be outbox or webhook (got "${provider}")`);
  }
  const webhookUrl = env.SMS_WEBHOOK_URL ? url(env, 'SMS_WEBHOOK_URL', '') : null;
  const webhookSecret = env.SMS_WEBHOOK_SECRET || null;
  if (provider === 'webhook') {
    if (!webhookUrl) throw new ConfigError('SMS_PROVIDER=webhook needs SMS_WEBHOOK_URL');
    if (!webhookSecret || webhookSecret.length < 16) {
      throw new ConfigError('SMS_PROVIDER=webhook needs SMS_WEBHOOK_SECRET of at least 16 characters');
    }
  }
  return {
    provider,
    webhookUrl,
    webhookSecret,
    codeTtlSeconds: int(env, 'SMS_CODE_TTL_SECONDS', 300, 60, 3600),
    resendSeconds: int(env, 'SMS_RESEND_SECONDS', 60, 10, 3600),
    maxAttempts: int(env, 'SMS_MAX_ATTEMPTS', 5, 1, 20),
    dailyPerPhone: int(env, 'SMS_DAILY_PER_PHONE', 10, 1, 1_000_000),
    dailyPerIp: int(env, 'SMS_DAILY_PER_IP', 30, 1, 1_000_000),
    signature: smsSignature(env, siteName),
  };
}

/** `OUTBOUND_ALLOWED_CIDRS`, or the default of the environment: loopback outside production. */
function outboundConfig(env: Env, nodeEnv: Config['nodeEnv']): Config['outbound'] {
  const raw = env.OUTBOUND_ALLOWED_CIDRS?.trim();
  if (!raw) return { allowedCidrs: nodeEnv === 'production' ? [] : ['127.0.0.0/8', '::1/128'] };
  const allowedCidrs = parseCidrs(raw);
  if (!allowedCidrs) {
    throw new ConfigError(
      `OUTBOUND_ALLOWED_CIDRS must be CIDR ranges or addresses separated by commas, such as 10.20.0.0/16,fd12::/64, or none (got "${raw}")`,
    );
  }
  return { allowedCidrs };
}

function uploadLimits(env: Env, maxBytes: number): UploadLimits {
  const filesPerHour = int(env, 'UPLOAD_FILES_PER_HOUR', 30, 1, 1_000_000);
  const bytesPerHour = int(env, 'UPLOAD_BYTES_PER_HOUR', Math.max(200 * 2 ** 20, maxBytes), 1024, 2 ** 40);
  const limits = {
    filesPerHour,
    filesPerDay: int(env, 'UPLOAD_FILES_PER_DAY', Math.max(100, filesPerHour), 1, 1_000_000),
    bytesPerHour,
    bytesPerDay: int(env, 'UPLOAD_BYTES_PER_DAY', Math.max(500 * 2 ** 20, bytesPerHour), 1024, 2 ** 40),
    unusedHours: int(env, 'UPLOAD_UNUSED_HOURS', 24, 1, 24 * 365),
  };
  // A limit no single upload could fit in would refuse every file of the largest allowed size.
  if (limits.bytesPerHour < maxBytes) throw new ConfigError('UPLOAD_BYTES_PER_HOUR must be at least UPLOAD_MAX_BYTES');
  if (limits.bytesPerDay < limits.bytesPerHour)
    throw new ConfigError('UPLOAD_BYTES_PER_DAY must be at least UPLOAD_BYTES_PER_HOUR');
  if (limits.filesPerDay < limits.filesPerHour)
    throw new ConfigError('UPLOAD_FILES_PER_DAY must be at least UPLOAD_FILES_PER_HOUR');
  return limits;
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnvRaw = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnvRaw)) {
    throw new ConfigError(`NODE_ENV must be development, production or test (got "${nodeEnvRaw}")`);
  }
  const nodeEnv = nodeEnvRaw as Config['nodeEnv'];
  const port = int(env, 'PORT', 8080, 0, 65535);
  const metricsPort = int(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== 0 && metricsPort === port) throw new ConfigError('METRICS_PORT must not be the public PORT');
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const testCaptcha = bool(env, 'PORTAL_TEST_CAPTCHA', false);
  if (testCaptcha && nodeEnv === 'production') {
    throw new ConfigError('PORTAL_TEST_CAPTCHA=1 makes captchas guessable and is refused with NODE_ENV=production');
  }
  const demoPassword = env.DEMO_PASSWORD ?? PUBLISHED_DEMO_PASSWORD;
  if (demoPassword.length < 8) throw new ConfigError('DEMO_PASSWORD must have at least 8 characters');
  // A production installation gets no demo unless asked for, and never with the README's password:
  // its accounts (the platform operator among them) would sign in with what anyone can read.
  const seedDemo = bool(env, 'SEED_DEMO', nodeEnv !== 'production');
  if (seedDemo && nodeEnv === 'production') {
    if (demoPassword === PUBLISHED_DEMO_PASSWORD) {
      throw new ConfigError(
        `SEED_DEMO=1 with NODE_ENV=production needs a DEMO_PASSWORD of its own: ${PUBLISHED_DEMO_PASSWORD} is ` +
          'published in the README (for no demo, leave SEED_DEMO unset and run "npm run admin -- bootstrap")',
      );
    }
    if (checkPassword(demoPassword).length > 0) {
      throw new ConfigError(
        'DEMO_PASSWORD must follow the portal password rule with NODE_ENV=production (at least 8 characters ' +
          'with a digit, a lowercase and an uppercase letter and a symbol, no keyboard runs)',
      );
    }
  }
  const ssoUrl = url(env, 'SSO_URL', '');
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port || 8080}`);
  const uploadMaxBytes = int(env, 'UPLOAD_MAX_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`,
    );
  }

  const runtime: Config['runtime'] = {
    ...RUNTIME_DEFAULTS,
    siteName: switchVar(env, 'SITE_NAME', 'siteName') ?? RUNTIME_DEFAULTS.siteName,
    siteNameEn: switchVar(env, 'SITE_NAME_EN', 'siteNameEn') ?? RUNTIME_DEFAULTS.siteNameEn,
    ssoUrl,
    defaultTenantCode: env.DEFAULT_TENANT ?? RUNTIME_DEFAULTS.defaultTenantCode,
    ...runtimeOverrides(env),
  };

  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl,
    publicUrl,
    ssoUrl,
    nodeEnv,
    logLevel,
    seedDemo,
    demoPassword,
    testCaptcha,
    webDist: env.WEB_DIST ?? null,
    trustProxy: bool(env, 'TRUST_PROXY', false),
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    sessionTtlHours: int(env, 'SESSION_TTL_HOURS', 12, 1, 24 * 30),
    loginPerIpPerMinute: int(env, 'LOGIN_RATE_PER_MINUTE', 30, 1, 1_000_000),
    captchaPerClientPerMinute: int(env, 'CAPTCHA_RATE_PER_MINUTE', 30, 1, 1_000_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 64 * 1024, 1024, 64 * 1024 * 1024),
    filesDir: env.FILES_DIR ?? join(env.DATA_DIR ?? './data', 'files'),
    uploadMaxBytes,
    uploads: uploadLimits(env, uploadMaxBytes),
    cacheTtlMs: int(env, 'CACHE_TTL_MS', 5_000, 0, 60_000),
    behaviourCaptcha: {
      enabled: bool(env, 'CAPTCHA_BEHAVIOUR', false),
      aes: bool(env, 'CAPTCHA_AES', true),
      sliderTolerancePx: int(env, 'CAPTCHA_SLIDER_TOLERANCE', 5, 0, 50),
      clickTolerancePx: int(env, 'CAPTCHA_CLICK_TOLERANCE', 25, 0, 100),
      getPerMinute: int(env, 'CAPTCHA_GET_PER_MINUTE', 60, 1, 1_000_000),
      checkPerMinute: int(env, 'CAPTCHA_CHECK_PER_MINUTE', 60, 1, 1_000_000),
      failuresBeforeLock: int(env, 'CAPTCHA_FAILURES_BEFORE_LOCK', 5, 1, 1_000),
      lockSeconds: int(env, 'CAPTCHA_LOCK_SECONDS', 300, 1, 86_400),
    },
    sso: {
      sessionMaxHours: int(env, 'SSO_SESSION_MAX_HOURS', 8, 1, 24 * 30),
      sessionIdleMinutes: int(env, 'SSO_SESSION_IDLE_MINUTES', 120, 1, 24 * 60),
      ticketTtlSeconds: int(env, 'SSO_TICKET_TTL_SECONDS', 10, 1, 300),
    },
    oidc: { keyRotationDays: int(env, 'OIDC_KEY_ROTATION_DAYS', 90, 2, 3650) },
    sms: smsConfig(env, runtime.siteName),
    outbound: outboundConfig(env, nodeEnv),
    runtime,
  };
}
