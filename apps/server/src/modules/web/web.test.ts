/**
 * The static web module on a small fake build in a temporary WEB_DIST: runtime config, history
 * fallback with absolute asset URLs, cache headers, pre-compressed assets and redirects.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RuntimeConfig } from '@portal/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

const INDEX_HTML = `<!doctype html>
<html lang="zh-CN">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" href="./favicon.svg" />
    <script src="./config.js"></script>
    <script type="module" crossorigin src="./assets/app-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;
const APP_JS = `console.log(${JSON.stringify('portal app '.repeat(50))});\n`;
const APP_JS_GZ = gzipSync(APP_JS);

let dir: string;
let ctx: TestContext;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-web-test-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX_HTML);
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(dir, 'assets', 'app-abc123.js'), APP_JS);
  await writeFile(join(dir, 'assets', 'app-abc123.js.gz'), APP_JS_GZ);
  ctx = await createTestContext({ WEB_DIST: dir });
});
afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs config.js as a browser would and returns what it set. */
function runConfigJs(source: string): RuntimeConfig {
  const window: { __PORTAL_CONFIG__?: RuntimeConfig } = {};
  runInNewContext(source, { window });
  expect(window.__PORTAL_CONFIG__).toBeDefined();
  return window.__PORTAL_CONFIG__!;
}

describe('runtime config', () => {
  it('serves /center/config.js with the switches and the signing secret, never cached', async () => {
    const res = await ctx.app.inject({ url: '/center/config.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/javascript/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.startsWith('window.__PORTAL_CONFIG__=')).toBe(true);
    const config = runConfigJs(res.body);
    expect(config.signSecret).toBe(ctx.secrets.signSecret);
    // The largest upload the server takes, so a form can say it (and no second copy of it).
    expect(config.uploadMaxBytes).toBe(20 * 2 ** 20);
    expect(config).toMatchObject({
      publicpath: '/center/',
      defaultTenantCode: 'demo',
      defaultLocale: 'zh-CN',
      storagePrefix: 'portal_',
    });
  });

  it('does not need a signature', async () => {
    const res = await ctx.app.inject({ url: '/center/config.js' });
    expect(res.statusCode).toBe(200);
  });

  it('cannot be broken out of by a configured value', async () => {
    // A free text of the installation's (names have a rule of their own that refuses markup).
    const backurl = '</script><script>alert(1)</script>';
    const custom = await createTestContext({ WEB_DIST: dir, PORTAL_RUNTIME_CONFIG: JSON.stringify({ backurl }) });
    try {
      const res = await custom.app.inject({ url: '/center/config.js' });
      expect(res.body).not.toContain('</script>');
      expect(runConfigJs(res.body).backurl).toBe(backurl);
    } finally {
      await custom.close();
    }
  });
});

describe('the SPA', () => {
  it('takes a tenant code no tenant can have, from the address or the cookie, as an unknown tenant', async () => {
    const installation = runConfigJs((await ctx.app.inject({ url: '/center/config.js?tc=no-such-park' })).body);
    for (const options of [
      { url: '/center/config.js?tc=%00' },
      { url: '/center/config.js?tenantCode=%00x' },
      { url: '/center/config.js?tc=%E2%80%AEdemo' },
      { url: '/center/config.js', cookies: { portal_tenant: '\u0000' } },
    ]) {
      const res = await ctx.app.inject(options);
      expect(res.statusCode, JSON.stringify(options)).toBe(200);
      expect(runConfigJs(res.body)).toEqual(installation);
    }
    for (const options of [
      { url: '/center/any/page?tc=%00' },
      { url: '/center/', cookies: { portal_tenant: '%00' } },
    ]) {
      expect((await ctx.app.inject(options)).statusCode, JSON.stringify(options)).toBe(200);
    }
  });

  it('answers a deep link with index.html, asset URLs made absolute', async () => {
    const res = await ctx.app.inject({ url: '/center/any/deep/link?tc=demo' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('src="/center/assets/app-abc123.js"');
    // The configuration script names the tenant the page is for (ADR 031).
    expect(res.body).toContain('src="/center/config.js?tc=demo"');
    expect(res.body).toContain('href="/center/favicon.svg"');
    expect(res.body).not.toContain('"./');
  });

  it('answers the base path itself with index.html', async () => {
    const res = await ctx.app.inject({ url: '/center/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });

  it('serves a hashed asset with a one-year immutable cache header', async () => {
    const res = await ctx.app.inject({ url: '/center/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(APP_JS);
  });

  it('serves the pre-compressed .gz file when the client accepts gzip', async () => {
    const res = await ctx.app.inject({
      url: '/center/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(APP_JS_GZ)).toBe(true);
    expect(gunzipSync(res.rawPayload).toString()).toBe(APP_JS);
  });

  // A shared cache in front of the portal must not hand the gzip body to a client that never asked.
  it('marks negotiated assets with Vary: Accept-Encoding', async () => {
    for (const headers of [{ 'accept-encoding': 'gzip' }, {}]) {
      const res = await ctx.app.inject({ url: '/center/assets/app-abc123.js', headers });
      expect(String(res.headers.vary ?? ''), JSON.stringify(headers)).toMatch(/accept-encoding/i);
    }
  });

  it('serves files outside assets/ with no-cache', async () => {
    const res = await ctx.app.inject({ url: '/center/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('never serves files outside WEB_DIST', async () => {
    for (const url of [
      '/center/../../../../etc/passwd',
      '/center/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/center/assets/..%2f..%2f..%2fetc%2fpasswd',
    ]) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('root:');
    }
  });
});

describe('redirects', () => {
  it('sends / to /center/', async () => {
    const res = await ctx.app.inject({ url: '/' });
    expect([301, 302]).toContain(res.statusCode);
    expect(res.headers.location).toBe('/center/');
  });

  it('sends /center to /center/ permanently', async () => {
    const res = await ctx.app.inject({ url: '/center' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/center/');
  });
});

describe('without a built web app', () => {
  it('answers 503 with a hint, while config.js and the API still work', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'portal-web-empty-'));
    const bare = await createTestContext({ WEB_DIST: empty });
    try {
      const page = await bare.app.inject({ url: '/center/login' });
      expect(page.statusCode).toBe(503);
      expect(page.body).toContain('npm run build');
      expect((await bare.app.inject({ url: '/center/config.js' })).statusCode).toBe(200);
      expect((await bare.call({ url: '/api/front/account/auth/publicKey' })).statusCode).toBe(200);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('the demo sub-application (built by npm run build)', () => {
  it('is served at the entry the seed registers, revalidated on every load, nothing outside it', async () => {
    const page = await ctx.app.inject({ url: '/micro/park-services/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<script src="./park-services.js"></script>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const js = await ctx.app.inject({ url: '/micro/park-services/park-services.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/^application\/javascript/);
    for (const url of ['/micro/park-services/../../package.json', '/micro/park-services/%2e%2e/package.json']) {
      expect((await ctx.app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});
