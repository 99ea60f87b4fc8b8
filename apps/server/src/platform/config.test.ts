import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

/** loadConfig's error for `env`, or a failure when it does not throw a ConfigError. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('defaults', () => {
  it('starts with an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: './data',
      databaseUrl: null,
      publicUrl: 'http://localhost:8080',
      ssoUrl: '',
      nodeEnv: 'development',
      logLevel: 'info',
      seedDemo: true,
      demoPassword: 'Demo@2026!',
      testCaptcha: false,
      webDist: null,
      trustProxy: false,
      sessionTtlHours: 12,
      bodyLimitBytes: 64 * 1024,
    });
    expect(c.runtime.publicpath).toBe('/center/');
    expect(c.runtime.defaultTenantCode).toBe('demo');
    expect(c.runtime.defaultLocale).toBe('zh-CN');
    expect(c.runtime).not.toHaveProperty('signSecret');
  });

  it('treats empty strings as unset', () => {
    const c = loadConfig({ PORT: '', SEED_DEMO: '', DATABASE_URL: '  ', SSO_URL: '' });
    expect(c.port).toBe(8080);
    expect(c.seedDemo).toBe(true);
    expect(c.databaseUrl).toBeNull();
    expect(c.ssoUrl).toBe('');
  });
});

describe('valid settings', () => {
  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/portal',
      DATABASE_URL: 'postgresql://u:p@db:5432/portal',
      PUBLIC_URL: 'https://portal.example.com/',
      SSO_URL: 'http://sso.example.com//',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'off',
      DEMO_PASSWORD: '12345678',
      TRUST_PROXY: 'yes',
      BODY_LIMIT_BYTES: '2048',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: 'https://sms.example.com/send',
      SMS_WEBHOOK_SECRET: '0123456789abcdef',
      SMS_CODE_TTL_SECONDS: '600',
      SMS_RESEND_SECONDS: '90',
      SMS_MAX_ATTEMPTS: '3',
      SMS_DAILY_PER_PHONE: '5',
      SMS_DAILY_PER_IP: '50',
    });
    expect(c).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: '/var/lib/portal',
      databaseUrl: 'postgresql://u:p@db:5432/portal',
      publicUrl: 'https://portal.example.com',
      ssoUrl: 'http://sso.example.com',
      nodeEnv: 'production',
      logLevel: 'warn',
      seedDemo: false,
      demoPassword: '12345678',
      trustProxy: true,
      bodyLimitBytes: 2048,
      sms: {
        provider: 'webhook',
        webhookUrl: 'https://sms.example.com/send',
        webhookSecret: '0123456789abcdef',
        codeTtlSeconds: 600,
        resendSeconds: 90,
        maxAttempts: 3,
        dailyPerPhone: 5,
        dailyPerIp: 50,
      },
    });
    expect(c.runtime.ssoUrl).toBe('http://sso.example.com');
  });

  it('accepts the port range ends and both postgres URL schemes', () => {
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(loadConfig({ DATABASE_URL: 'postgres://x' }).databaseUrl).toBe('postgres://x');
  });

  it.each(['1', 'true', 'YES', 'on'])('reads %s as true', (v) => {
    expect(loadConfig({ SEED_DEMO: v }).seedDemo).toBe(true);
  });

  it.each(['0', 'false', 'No', 'OFF'])('reads %s as false', (v) => {
    expect(loadConfig({ SEED_DEMO: v }).seedDemo).toBe(false);
  });

  it('merges PORTAL_RUNTIME_CONFIG over the runtime defaults', () => {
    const c = loadConfig({
      PORTAL_RUNTIME_CONFIG: JSON.stringify({
        siteName: '园区',
        noticeEnabled: true,
        requestTimeoutMs: 5000,
        publicpath: '/portal/app/',
      }),
    });
    expect(c.runtime).toMatchObject({
      siteName: '园区',
      noticeEnabled: true,
      requestTimeoutMs: 5000,
      publicpath: '/portal/app/',
    });
    expect(c.runtime.storagePrefix).toBe('portal_');
  });

  it('allows the test captcha outside production', () => {
    expect(loadConfig({ PORTAL_TEST_CAPTCHA: '1', NODE_ENV: 'test' }).testCaptcha).toBe(true);
    expect(loadConfig({ PORTAL_TEST_CAPTCHA: '1' }).testCaptcha).toBe(true);
    expect(loadConfig({ PORTAL_TEST_CAPTCHA: '0', NODE_ENV: 'production' }).testCaptcha).toBe(false);
  });
});

describe('bad settings stop the server with a message naming the variable', () => {
  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '80.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['SSO_URL', { SSO_URL: 'ftp://x' }],
    ['SSO_URL', { SSO_URL: 'not a url' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'localhost:8080' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['SEED_DEMO', { SEED_DEMO: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: '2' }],
    ['DEMO_PASSWORD', { DEMO_PASSWORD: 'short' }],
    ['DEMO_PASSWORD', { DEMO_PASSWORD: '1234567' }],
    ['SESSION_TTL_HOURS', { SESSION_TTL_HOURS: '0' }],
    ['BODY_LIMIT_BYTES', { BODY_LIMIT_BYTES: '100' }],
    ['LOGIN_RATE_PER_MINUTE', { LOGIN_RATE_PER_MINUTE: 'many' }],
    ['CAPTCHA_RATE_PER_MINUTE', { CAPTCHA_RATE_PER_MINUTE: '0' }],
    ['SMS_PROVIDER', { SMS_PROVIDER: 'aliyun' }],
    ['SMS_WEBHOOK_URL', { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_SECRET: '0123456789abcdef' }],
    ['SMS_WEBHOOK_URL', { SMS_WEBHOOK_URL: 'ftp://x' }],
    [
      'SMS_WEBHOOK_SECRET',
      { SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://x.example', SMS_WEBHOOK_SECRET: 'short' },
    ],
    ['SMS_CODE_TTL_SECONDS', { SMS_CODE_TTL_SECONDS: '10' }],
    ['SMS_DAILY_PER_PHONE', { SMS_DAILY_PER_PHONE: '0' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{not json' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '[1,2]' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: 'null' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '"text"' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"siteNmae":"x"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"noticeEnabled":"true"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"requestTimeoutMs":"5000"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"siteName":null}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"defaultLocale":"fr-FR"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"captchaType":"rotatePuzzle"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"captchaMode":"inline"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"keepAliveMax":-1}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"keepAliveMax":2.5}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"publicpath":"center"}' }],
    ['PORTAL_RUNTIME_CONFIG', { PORTAL_RUNTIME_CONFIG: '{"publicpath":"/center"}' }],
  ] as Array<[string, Record<string, string>]>)('%s in %j', (name, env) => {
    const err = configError(env);
    expect(err.message).toContain(name);
  });

  it('names the unknown runtime key and the mistyped one', () => {
    expect(configError({ PORTAL_RUNTIME_CONFIG: '{"siteNmae":"x"}' }).message).toContain('"siteNmae"');
    expect(configError({ PORTAL_RUNTIME_CONFIG: '{"keepAlive":1}' }).message).toBe(
      'PORTAL_RUNTIME_CONFIG.keepAlive must be a boolean',
    );
  });

  // Names the object prototype carries are still unknown runtime keys.
  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])(
    'reports the inherited name %s as an unknown key',
    (key) => {
      expect(configError({ PORTAL_RUNTIME_CONFIG: `{"${key}":"x"}` }).message).toBe(
        `PORTAL_RUNTIME_CONFIG has an unknown key "${key}"`,
      );
    },
  );

  it('quotes the value it refused', () => {
    expect(configError({ PORT: '70000' }).message).toContain('"70000"');
    expect(configError({ NODE_ENV: 'staging' }).message).toContain('"staging"');
  });

  it('refuses PORTAL_TEST_CAPTCHA=1 with NODE_ENV=production', () => {
    const err = configError({ PORTAL_TEST_CAPTCHA: '1', NODE_ENV: 'production' });
    expect(err.message).toContain('PORTAL_TEST_CAPTCHA');
    expect(err.message).toContain('NODE_ENV=production');
    expect(configError({ PORTAL_TEST_CAPTCHA: 'true', NODE_ENV: 'production' })).toBeInstanceOf(ConfigError);
  });
});

describe('OUTBOUND_ALLOWED_CIDRS', () => {
  it('allows loopback alone outside production and nothing in production, unless set', () => {
    expect(loadConfig({}).outbound.allowedCidrs).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ NODE_ENV: 'test' }).outbound.allowedCidrs).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ NODE_ENV: 'production' }).outbound.allowedCidrs).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'test', OUTBOUND_ALLOWED_CIDRS: 'none' }).outbound.allowedCidrs).toEqual([]);
    expect(
      loadConfig({ NODE_ENV: 'production', OUTBOUND_ALLOWED_CIDRS: '10.20.0.0/16, fd12::/64 192.168.1.7' }).outbound
        .allowedCidrs,
    ).toEqual(['10.20.0.0/16', 'fd12::/64', '192.168.1.7/32']);
  });

  it.each(['10.0.0.0/33', '0x7f.1', 'localhost', '10.0.0.0/8;fd00::/8', '[::1]', 'fe80::1%eth0', '10.0.0.0/8/8'])(
    'stops at %j with a message naming the variable',
    (value) => {
      const err = configError({ OUTBOUND_ALLOWED_CIDRS: value });
      expect(err.message).toContain('OUTBOUND_ALLOWED_CIDRS');
      expect(err.message).toContain(JSON.stringify(value));
    },
  );
});

describe('the demo in production', () => {
  it('seeds nothing in production unless SEED_DEMO asks for it; seeds in development and test', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: '' }).seedDemo).toBe(false);
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemo).toBe(true);
  });

  it.each([{}, { DEMO_PASSWORD: 'Demo@2026!' }])(
    'refuses SEED_DEMO=1 in production with the published password (%j), naming DEMO_PASSWORD',
    (env) => {
      const err = configError({ NODE_ENV: 'production', SEED_DEMO: '1', ...env });
      expect(err.message).toContain('DEMO_PASSWORD');
      expect(err.message).toContain('SEED_DEMO=1');
      expect(err.message).toContain('npm run admin -- bootstrap');
    },
  );

  it('refuses a production demo password that breaks the password rule, and takes one that keeps it', () => {
    expect(configError({ NODE_ENV: 'production', SEED_DEMO: '1', DEMO_PASSWORD: '12345678' }).message).toContain(
      'DEMO_PASSWORD',
    );
    const c = loadConfig({ NODE_ENV: 'production', SEED_DEMO: '1', DEMO_PASSWORD: 'Harbour#2026x' });
    expect(c).toMatchObject({ seedDemo: true, demoPassword: 'Harbour#2026x' });
  });
});

describe('per-user upload limits', () => {
  it('has defaults, reads each variable, and raises the byte defaults with UPLOAD_MAX_BYTES', () => {
    expect(loadConfig({}).uploads).toEqual({
      filesPerHour: 30,
      filesPerDay: 100,
      bytesPerHour: 200 * 2 ** 20,
      bytesPerDay: 500 * 2 ** 20,
      unusedHours: 24,
    });
    expect(
      loadConfig({
        UPLOAD_FILES_PER_HOUR: '5',
        UPLOAD_FILES_PER_DAY: '20',
        UPLOAD_BYTES_PER_HOUR: '31457280',
        UPLOAD_BYTES_PER_DAY: '52428800',
        UPLOAD_UNUSED_HOURS: '2',
      }).uploads,
    ).toEqual({ filesPerHour: 5, filesPerDay: 20, bytesPerHour: 31457280, bytesPerDay: 52428800, unusedHours: 2 });
    const big = loadConfig({ UPLOAD_MAX_BYTES: String(600 * 2 ** 20) }).uploads;
    expect(big).toMatchObject({ bytesPerHour: 600 * 2 ** 20, bytesPerDay: 600 * 2 ** 20 });
    expect(loadConfig({ UPLOAD_FILES_PER_HOUR: '500' }).uploads.filesPerDay).toBe(500);
  });

  it.each([
    ['UPLOAD_FILES_PER_HOUR', { UPLOAD_FILES_PER_HOUR: '0' }],
    ['UPLOAD_FILES_PER_DAY', { UPLOAD_FILES_PER_DAY: 'many' }],
    ['UPLOAD_BYTES_PER_HOUR', { UPLOAD_BYTES_PER_HOUR: '1.5' }],
    ['UPLOAD_BYTES_PER_DAY', { UPLOAD_BYTES_PER_DAY: '-1' }],
    ['UPLOAD_UNUSED_HOURS', { UPLOAD_UNUSED_HOURS: '0' }],
    ['UPLOAD_BYTES_PER_HOUR', { UPLOAD_MAX_BYTES: '2000000', UPLOAD_BYTES_PER_HOUR: '1000000' }],
    ['UPLOAD_BYTES_PER_DAY', { UPLOAD_BYTES_PER_HOUR: '300000000', UPLOAD_BYTES_PER_DAY: '200000000' }],
    ['UPLOAD_FILES_PER_DAY', { UPLOAD_FILES_PER_HOUR: '50', UPLOAD_FILES_PER_DAY: '10' }],
  ] as Array<[string, Record<string, string>]>)('stops at a bad %s (%j)', (name, env) => {
    expect(configError(env).message).toContain(name);
  });
});
