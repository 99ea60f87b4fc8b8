/**
 * The sign-on server at /cas (CAS protocol 3.0). Not under /api: CAS clients call it as they call
 * any CAS server, without the portal's request signing.
 */
import formbody from '@fastify/formbody';
import { Envelope, ResultCode, SystemSignOnBody } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../../platform/errors.js';
import { langOf, t, type Lang } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import { SsoRefusal, escapeMarkup, type SsoService, type Validation } from './sso.service.js';

export const TGC_COOKIE = 'CASTGC';

export interface SsoRoutesOptions {
  sso: SsoService;
  /** The SPA page that shows the sign-on form (the web app renders it under /cas/login). */
  page: () => string | null;
  /** Mark the cookie Secure (the portal is served over https). */
  secureCookie: boolean;
  sessionMaxSeconds: number;
  /** This server's public origin: a login form posted from any other is refused (login CSRF). */
  origin: string;
}

const Str = Type.Optional(Type.String({ maxLength: 2048 }));
const LoginQuery = Type.Object({
  service: Str,
  renew: Str,
  gateway: Str,
  loginType: Str,
  tenantCode: Str,
  language: Str,
});
const ValidateQuery = Type.Object({ ticket: Str, service: Str, renew: Str, format: Str, pgtUrl: Str });
const LogoutQuery = Type.Object({ service: Str, tenantCode: Str, loginType: Str, language: Str });
const LoginForm = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  imgvercode: Type.Optional(Type.String({ maxLength: 16 })),
  captchaKey: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_-]*$' })),
  captchaVerification: Type.Optional(Type.String({ maxLength: 2048 })),
  service: Str,
  renew: Str,
  tenantCode: Str,
  loginType: Str,
});

/** A plain page for outcomes that must not redirect anywhere (an unregistered service). */
function messagePage(lang: Lang, text: string, action?: { href: string; text: string }): string {
  return `<!doctype html><html lang="${lang === 'en' ? 'en' : 'zh-CN'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeMarkup(t(lang, 'ssoPageTitle'))}</title>
<style>body{font-family:system-ui,'PingFang SC','Microsoft YaHei','WenQuanYi Micro Hei',sans-serif;background:#f0f2f5;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}main{background:#fff;border-radius:12px;padding:32px;max-width:420px;margin:16px;box-shadow:0 12px 40px rgba(15,35,95,.12)}h1{font-size:20px;margin:0 0 12px}</style>
</head><body><main role="main"><h1>${escapeMarkup(t(lang, 'ssoPageTitle'))}</h1><p>${escapeMarkup(text)}</p>${
    action ? `<p><a href="${escapeMarkup(action.href)}">${escapeMarkup(action.text)}</a></p>` : ''
  }</main></body></html>`;
}

const wantsJson = (req: FastifyRequest) => (req.headers.accept ?? '').includes('application/json');

function renderValidation(v: Validation, json: boolean, withAttributes: boolean): string {
  if (json) {
    return JSON.stringify({
      serviceResponse: v.ok
        ? { authenticationSuccess: { user: v.user, ...(withAttributes ? { attributes: v.attributes } : {}) } }
        : { authenticationFailure: { code: v.code, description: v.description } },
    });
  }
  const body = v.ok
    ? `<cas:authenticationSuccess><cas:user>${escapeMarkup(v.user)}</cas:user>${
        withAttributes
          ? `<cas:attributes>${Object.entries(v.attributes)
              .map(([k, val]) => `<cas:${k}>${escapeMarkup(String(val))}</cas:${k}>`)
              .join('')}</cas:attributes>`
          : ''
      }</cas:authenticationSuccess>`
    : `<cas:authenticationFailure code="${v.code}">${escapeMarkup(v.description)}</cas:authenticationFailure>`;
  return `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas">${body}</cas:serviceResponse>\n`;
}

export const ssoRoutes: FastifyPluginAsyncTypebox<SsoRoutesOptions> = async (app, opts) => {
  const { sso } = opts;
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  const setCookie = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.header(
      'set-cookie',
      `${TGC_COOKIE}=${value}; Path=/cas; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${opts.secureCookie ? '; Secure' : ''}`,
    );
  const cookieOf = (req: FastifyRequest) => {
    const m = /(?:^|;\s*)CASTGC=([A-Za-z0-9_-]{16,128})(?:;|$)/.exec(req.headers.cookie ?? '');
    return m?.[1];
  };
  const refused = (reply: FastifyReply, lang: Lang, reason: 'unknownTenant' | 'unknownService') =>
    reply
      .code(400)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(messagePage(lang, t(lang, reason === 'unknownTenant' ? 'tenantUnknown' : 'ssoUnknownService')));

  app.get('/cas/login', { schema: { querystring: LoginQuery } }, async (req, reply) => {
    const step = await sso.loginStep({ ...req.query, cookie: cookieOf(req) });
    const lang = langOf(req.query);
    if (step.kind === 'refused') return refused(reply, lang, step.reason);
    reply.header('cache-control', 'no-store');
    if (step.kind === 'redirect') return reply.redirect(step.url, 302);
    if (step.kind === 'signedIn') {
      const out = `/cas/logout?${new URLSearchParams({ tenantCode: step.tenant.code, ...(lang === 'en' ? { language: 'eng' } : {}) })}`;
      return reply.type('text/html; charset=utf-8').send(
        messagePage(lang, t(lang, 'ssoSignedIn', { name: step.name, tenant: step.tenant.name }), {
          href: out,
          text: t(lang, 'ssoSignOut'),
        }),
      );
    }
    const page = opts.page();
    if (!page)
      return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run "npm run build".');
    // The page shows the tenant it signs in to (also when the service, not the address, named it).
    const meta = Object.entries({ 'sso-tenant-code': step.tenant.code, 'sso-tenant-name': step.tenant.name })
      .map(([name, content]) => `<meta name="${name}" content="${escapeMarkup(content)}">`)
      .join('');
    return reply.type('text/html; charset=utf-8').send(page.replace('</head>', () => `${meta}</head>`));
  });

  app.post(
    '/cas/login',
    {
      schema: {
        body: LoginForm,
        querystring: LoginQuery,
        response: { 200: Envelope(Type.Object({ redirect: Type.String() })) },
      },
    },
    async (req, reply) => {
      const from = req.headers.origin;
      if (from !== undefined && from !== opts.origin) {
        return (reply as FastifyReply)
          .code(403)
          .type('text/html; charset=utf-8')
          .send(messagePage(langOf(req.query), t(langOf(req.query), 'ssoForeignOrigin')));
      }
      const b = req.body;
      const service = b.service ?? req.query.service;
      const tenantCode = b.tenantCode ?? req.query.tenantCode ?? '';
      try {
        const { cookie, redirect } = await sso.login(
          {
            username: b.username.trim(),
            passwordCipher: b.password,
            captcha: { captchaKey: b.captchaKey, answer: b.imgvercode, verification: b.captchaVerification },
            tenantCode,
            ip: req.ip,
            userAgent: req.headers['user-agent'] ?? '',
          },
          service,
          cookieOf(req),
        );
        setCookie(reply, cookie, opts.sessionMaxSeconds);
        if (wantsJson(req)) return ok(req, { redirect });
        return reply.redirect(redirect, 303);
      } catch (err) {
        if (err instanceof SsoRefusal) return refused(reply, langOf(req.query), err.reason);
        if (wantsJson(req) || !(err instanceof AppError)) throw err;
        // A plain form post: back to the form, which shows the message the code names.
        const back = new URLSearchParams({ ...(service ? { service } : {}), tenantCode, error: err.key });
        return reply.redirect(`/cas/login?${back}`, 303);
      }
    },
  );

  const validate =
    (withAttributes: boolean) =>
    async (req: FastifyRequest<{ Querystring: Static<typeof ValidateQuery> }>, reply: FastifyReply) => {
      const json = req.query.format?.toUpperCase() === 'JSON';
      let v: Validation;
      try {
        v = await sso.validate(req.query);
      } catch (err) {
        req.log.error({ err }, 'ticket validation failed');
        v = { ok: false, code: 'INTERNAL_ERROR', description: 'Internal error' };
      }
      return reply
        .header('cache-control', 'no-store')
        .type(json ? 'application/json; charset=utf-8' : 'application/xml; charset=utf-8')
        .send(renderValidation(v, json, withAttributes));
    };
  app.get('/cas/serviceValidate', { schema: { querystring: ValidateQuery } }, validate(false));
  app.get('/cas/p3/serviceValidate', { schema: { querystring: ValidateQuery } }, validate(true));
  // No proxy tickets are issued (pgtUrl is ignored), but CAS 3.0 §2.6 has /proxyValidate accept
  // service tickets too, and some clients always call it.
  app.get('/cas/proxyValidate', { schema: { querystring: ValidateQuery } }, validate(false));
  app.get('/cas/p3/proxyValidate', { schema: { querystring: ValidateQuery } }, validate(true));

  // CAS 1.0: "yes\n<user>\n" or "no\n".
  app.get('/cas/validate', { schema: { querystring: ValidateQuery } }, async (req, reply) => {
    const v = await sso.validate(req.query).catch(() => ({ ok: false }) as const);
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(v.ok ? `yes\n${v.user}\n` : 'no\n');
  });

  app.get('/cas/logout', { schema: { querystring: LogoutQuery } }, async (req, reply) => {
    const { redirect } = await sso.logout({ ...req.query, cookie: cookieOf(req) });
    setCookie(reply, '', 0);
    if (redirect) return reply.header('cache-control', 'no-store').redirect(redirect, 302);
    const lang = langOf(req.query);
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(messagePage(lang, t(lang, 'ssoLoggedOut')));
  });
};

/** The portal's signed API on the sign-on server: entering an external system (spec §2, §7). */
export const ssoApiRoutes: FastifyPluginAsyncTypebox<{ sso: SsoService }> = async (app, { sso }) => {
  app.post(
    '/api/front/esa/external/system/sso',
    { preHandler: app.authenticate, schema: { body: SystemSignOnBody, response: { 200: Envelope(Type.String()) } } },
    async (req) => {
      const session = req.session!;
      const url = await sso.systemEntry({ sessionId: session.id, tenantId: session.tenantId }, req.body.sysCode);
      if (!url) throw new AppError(ResultCode.NOT_FOUND, 'ssoUnknownSystem');
      return ok(req, url);
    },
  );
};
