/**
 * Serves the built SPA under the public path (default /center/): hashed assets pre-compressed and
 * cached for a year, index.html for every other path below it (history fallback), and the runtime
 * configuration as /center/config.js (docs/product/overview.md#runtime-switches), so a switch changes without a rebuild.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { TENANT_COOKIE, type RuntimeConfig } from '@portal/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { documentPolicy, type DocumentOrigins } from '../../platform/security-headers.js';
import type { Tenants } from '../../platform/tenants.js';

export const DEFAULT_WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../web/dist');
/** The demo sub-application (apps/demo-micro-app): served with the demo, at the entry the seed registers. */
export const DEMO_SUB_APP_PATH = '/micro/park-services/';
export const DEMO_MICRO_APP_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../demo-micro-app/dist');

/**
 * The SPA's page with absolute asset URLs (the bundle is built with relative ones), so deep links
 * and other mount points (the sign-on page at /cas/login) load the same files; null if not built.
 */
export function readIndexHtml(webDist: string, base: string): string | null {
  const file = join(webDist, 'index.html');
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').replace(/(src|href)="\.\//g, `$1="${base}`);
}

export interface WebRoutesOptions {
  webDist: string;
  /** The runtime configuration of the tenant a code names (its own switches over the installation's). */
  configOf: (tenantCode: string) => Promise<RuntimeConfig>;
  publicpath: string;
  tenants: Tenants;
  /** The origins a document of the tenant a code names may use (its registered applications). */
  originsOf: (tenantCode: string) => Promise<DocumentOrigins>;
}

/**
 * The tenant a document is for: the one its address names (docs/product/screens.md#tenant-code: `tc` or `tenantCode`), else
 * the one this browser remembers (its cookie), else the default tenant.
 */
function documentTenant(req: FastifyRequest, tenants: Tenants): string {
  const q = req.query as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return (
    tenants.named(text(q.tc)) ??
    tenants.named(text(q.tenantCode)) ??
    tenants.named(req.cookies[TENANT_COOKIE]) ??
    tenants.defaultCode
  );
}

export const webRoutes: FastifyPluginAsync<WebRoutesOptions> = async (
  app,
  { webDist, configOf, publicpath: base, tenants, originsOf },
) => {
  await app.register(cookie);

  app.get('/', async (_req, reply) => reply.redirect(base));
  if (base !== '/') app.get(base.replace(/\/$/, ''), async (_req, reply) => reply.redirect(base, 301));
  // The configuration of the tenant the page is for (ADR 031): the page names it in the script's
  // address (below), a browser remembers it in its cookie. `<` is escaped so the JSON can never
  // close a surrounding script element.
  app.get(`${base}config.js`, async (req, reply) => {
    const config = await configOf(documentTenant(req, tenants));
    return reply
      .header('cache-control', 'no-store')
      .type('application/javascript; charset=utf-8')
      .send(`window.__PORTAL_CONFIG__=${JSON.stringify(config).replaceAll('<', '\\u003c')};\n`);
  });

  const indexFile = join(webDist, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`no built web app in ${webDist}: run "npm run build"`);
    app.get(`${base}*`, async (_req, reply) =>
      reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run "npm run build".'),
    );
    return;
  }
  const indexHtml = readIndexHtml(webDist, base)!;

  await app.register(fastifyStatic, {
    root: webDist,
    prefix: base,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders(res, path) {
      // Either variant (gzip, brotli or plain) may be sent, so shared caches must key on it.
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader(
        'cache-control',
        path.includes(`${'/'}assets${'/'}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  // The page's policy names the frames and sub-applications of its tenant, and only those; its
  // configuration script names the tenant too, so a park's address gets that park's switches.
  const configTag = `src="${base}config.js"`;
  app.get(`${base}*`, async (req, reply) => {
    const tenant = documentTenant(req, tenants);
    return reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', documentPolicy(await originsOf(tenant)))
      .type('text/html; charset=utf-8')
      .send(indexHtml.replace(configTag, `src="${base}config.js?tc=${encodeURIComponent(tenant)}"`));
  });
};

/**
 * A sub-application the portal serves itself at `path` (the demo's park services at
 * /micro/park-services/): its files as they are, index.html for the directory; not cached long,
 * since its names carry no hash. (Not `prefix`: Fastify would prefix the plugin's routes with it.)
 */
export const subAppRoutes: FastifyPluginAsync<{ root: string; path: string }> = async (app, { root, path }) => {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn(`no built sub-application in ${root}: run "npm run build"`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: path,
    decorateReply: false,
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders(res) {
      res.setHeader('vary', 'Accept-Encoding');
      res.setHeader('cache-control', 'no-cache');
    },
  });
};
