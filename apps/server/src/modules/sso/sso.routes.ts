/**
 * The sign-on server at /cas (CAS protocol 3.0). Not under /api: CAS clients call it as they call
 * any CAS server, without the portal's request signing.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import {
  Envelope,
  FactorAnswer,
  FactorChallengeRef,
  FactorSmsSent,
  RecoveryCodes,
  ResultCode,
  SystemSignOnBody,
  TotpConfirmInSignIn,
  TotpEnrolment,
  TotpStart,
  normalizeUsername,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { AppError } from '../../platform/errors.js';
import { langOf, localized, t, type Lang } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import { escapeMarkup, plainPage } from '../../platform/html.js';
import { rememberCookie, rememberTokenOf } from '../../platform/remember-cookie.js';
import { cas1Body, renderValidation, xmlText } from './answers.js';
import { samlRequestOf, samlResponse } from './saml.js';
import { SsoRefusal, type SsoService, type Validation } from './sso.service.js';

export const TGC_COOKIE = 'CASTGC';

/** How the ticket-granting cookie is set: for the sign-on server's paths only, never to scripts. */
export const tgcCookieOptions = (secure: boolean, maxAge: number) =>
  ({ path: '/cas', httpOnly: true, sameSite: 'lax', maxAge, secure }) as const;

export interface SsoRoutesOptions {
  sso: SsoService;
  /** The SPA page that shows the sign-on form (the web app renders it under /cas/login). */
  page: () => string | null;
  /** Mark the cookie Secure (the portal is served over https). */
  secureCookie: boolean;
  sessionMaxSeconds: number;
  /** This server's public origin: a login form posted from any other is refused (login CSRF). */
  origin: string;
  /** The factor step (modules/factors through app.ts): a sign-in that answered 40308 goes on here. */
  factorStep?: SsoFactorStep | undefined;
}

/** A right answer of the factor step of a sign-on (the factors service's, through app.ts). */
export interface SsoFactorAnswered {
  userId: number;
  tenantId: number;
  purpose: string;
  context: Record<string, unknown>;
  methods: string[];
  remember?: { token: string; maxAgeSeconds: number } | null;
}

export interface SsoFactorStep {
  answer(a: Static<typeof FactorAnswer>, client: { ip: string; userAgent: string }): Promise<SsoFactorAnswered>;
  later(challenge: string, client: { ip: string; userAgent: string }): Promise<SsoFactorAnswered>;
  enrol(challenge: string, name: string): Promise<Static<typeof TotpEnrolment>>;
  /** WebAuthn request options for a person answering with one of their passkeys. */
  passkeyOptions(challenge: string): Promise<unknown>;
  /** Sends the pending sign-in's SMS code to the person's proven mobile. */
  sms(challenge: string, ip: string): Promise<Static<typeof FactorSmsSent>>;
  /** Confirms the authenticator enrolled during the sign-in: its recovery codes. */
  confirmEnrol(
    challenge: string,
    code: string,
    client: { ip: string; userAgent: string },
  ): Promise<Static<typeof RecoveryCodes>>;
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
  const link = action ? `<p><a href="${escapeMarkup(action.href)}">${escapeMarkup(action.text)}</a></p>` : '';
  return plainPage(lang, t(lang, 'ssoPageTitle'), `<p>${escapeMarkup(text)}</p>${link}`);
}

const wantsJson = (req: FastifyRequest) => (req.headers.accept ?? '').includes('application/json');

export const ssoRoutes: FastifyPluginAsyncTypebox<SsoRoutesOptions> = async (app, opts) => {
  const { sso } = opts;
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  // Cookies only here (and in the example system): the API's requests are not parsed for them.
  await app.register(cookie);
  const setCookie = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.setCookie(TGC_COOKIE, value, tgcCookieOptions(opts.secureCookie, maxAge));
  /** The ticket-granting cookie, if it has a ticket's shape (anything else is no session). */
  const cookieOf = (req: FastifyRequest) => {
    const value = req.cookies[TGC_COOKIE];
    return value && /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
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
        messagePage(
          lang,
          t(lang, 'ssoSignedIn', {
            name: localized(lang, step.user, 'name'),
            tenant: localized(lang, step.tenant, 'name'),
          }),
          {
            href: out,
            text: t(lang, 'ssoSignOut'),
          },
        ),
      );
    }
    const page = opts.page();
    if (!page)
      return reply.code(503).type('text/plain; charset=utf-8').send('The web app is not built: run "npm run build".');
    // The page shows the tenant it signs in to (also when the service, not the address, named it),
    // in both languages: the page switches language in place.
    const meta = Object.entries({
      'sso-tenant-code': step.tenant.code,
      'sso-tenant-name': step.tenant.name,
      'sso-tenant-name-en': localized('en', step.tenant, 'name'),
    })
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
            username: normalizeUsername(b.username),
            passwordCipher: b.password,
            captcha: { captchaKey: b.captchaKey, answer: b.imgvercode, verification: b.captchaVerification },
            tenantCode,
            ip: req.ip,
            userAgent: req.headers['user-agent'] ?? '',
            rememberToken: rememberTokenOf(req.headers.cookie),
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

  // The factor step of a sign-on (after 40308): the page posts the answer as JSON.
  const foreign = (req: FastifyRequest, reply: FastifyReply) => {
    const from = req.headers.origin;
    if (from === undefined || from === opts.origin) return false;
    const lang = langOf(req.query as { language?: string });
    void reply
      .code(403)
      .type('text/html; charset=utf-8')
      .send(messagePage(lang, t(lang, 'ssoForeignOrigin')));
    return true;
  };
  const goOn = async (req: FastifyRequest, reply: FastifyReply, a: SsoFactorAnswered) => {
    // A portal login's challenge goes on at the portal, never as a sign-on session.
    if (a.purpose !== 'cas') throw new AppError(ResultCode.LOGIN_FAILED, 'factorChallengeExpired');
    const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' };
    const { cookie, redirect } = await sso.continueLogin(a, a.context, a.methods, client, cookieOf(req));
    setCookie(reply, cookie, opts.sessionMaxSeconds);
    if (a.remember) {
      // Fastify appends Set-Cookie values; the sign-on cookie is added when the answer is sent.
      void reply.header('set-cookie', rememberCookie(a.remember.token, a.remember.maxAgeSeconds, opts.secureCookie));
    }
    reply.header('cache-control', 'no-store');
    return ok(req, { redirect });
  };
  const Redirect = { 200: Envelope(Type.Object({ redirect: Type.String() })) };
  app.post(
    '/cas/login/factor',
    { schema: { body: FactorAnswer, querystring: LoginQuery, response: Redirect } },
    async (req, reply) => {
      if (foreign(req, reply)) return reply;
      if (!opts.factorStep) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' };
      return goOn(req, reply, await opts.factorStep.answer(req.body, client));
    },
  );
  app.post(
    '/cas/login/factor/later',
    { schema: { body: FactorChallengeRef, querystring: LoginQuery, response: Redirect } },
    async (req, reply) => {
      if (foreign(req, reply)) return reply;
      if (!opts.factorStep) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' };
      return goOn(req, reply, await opts.factorStep.later(req.body.challenge, client));
    },
  );
  app.post(
    '/cas/login/factor/passkey',
    {
      schema: {
        body: FactorChallengeRef,
        querystring: LoginQuery,
        response: { 200: Envelope(Type.Object({}, { additionalProperties: true })) },
      },
    },
    async (req, reply) => {
      if (foreign(req, reply)) return reply;
      if (!opts.factorStep) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      reply.header('cache-control', 'no-store');
      return ok(req, (await opts.factorStep.passkeyOptions(req.body.challenge)) as Record<string, unknown>);
    },
  );
  app.post(
    '/cas/login/factor/sms',
    { schema: { body: FactorChallengeRef, querystring: LoginQuery, response: { 200: Envelope(FactorSmsSent) } } },
    async (req, reply) => {
      if (foreign(req, reply)) return reply;
      if (!opts.factorStep) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      reply.header('cache-control', 'no-store');
      return ok(req, await opts.factorStep.sms(req.body.challenge, req.ip));
    },
  );
  app.post(
    '/cas/login/factor/enrol/confirm',
    {
      schema: {
        body: TotpConfirmInSignIn,
        querystring: LoginQuery,
        response: { 200: Envelope(RecoveryCodes) },
      },
    },
    async (req, reply) => {
      if (foreign(req, reply)) return reply;
      if (!opts.factorStep) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      reply.header('cache-control', 'no-store');
      const client = { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' };
      return ok(req, await opts.factorStep.confirmEnrol(req.body.challenge, req.body.code, client));
    },
  );
  app.post(
    '/cas/login/factor/enrol',
    { schema: { body: TotpStart, querystring: LoginQuery, response: { 200: Envelope(TotpEnrolment) } } },
    async (req, reply) => {
      if (foreign(req, reply)) return reply;
      if (!opts.factorStep || !req.body.challenge) throw new AppError(ResultCode.NOT_FOUND, 'notFound');
      reply.header('cache-control', 'no-store');
      return ok(req, await opts.factorStep.enrol(req.body.challenge, req.body.name));
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

  // SAML 1.1 validation (Apereo's samlValidate): a SOAP request, a SOAP answer with attributes.
  for (const type of ['text/xml', 'application/xml', 'application/soap+xml']) {
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => done(null, body));
  }
  const issuer = new URL(opts.origin).hostname;
  app.post(
    '/cas/samlValidate',
    { schema: { querystring: Type.Object({ TARGET: Str, renew: Str }) } },
    async (req, reply) => {
      const service = req.query.TARGET ?? '';
      const { ticket, requestId } = samlRequestOf(typeof req.body === 'string' ? req.body : '');
      let v: Validation;
      try {
        v = await sso.validate({ ticket: ticket ?? undefined, service, renew: req.query.renew });
      } catch (err) {
        req.log.error({ err }, 'SAML ticket validation failed');
        v = { ok: false, code: 'INTERNAL_ERROR', description: 'Internal error' };
      }
      return reply
        .header('cache-control', 'no-cache, no-store')
        .header('pragma', 'no-cache')
        .header('soapaction', 'http://www.oasis-open.org/committees/security')
        .type('text/xml; charset=UTF-8')
        .send(samlResponse(v, { service, requestId, issuer }));
    },
  );

  // No proxy-granting tickets are issued, so no proxy ticket either: the failure CAS 3.0 §2.7
  // defines, in a form a client parses (XML, or JSON when asked).
  app.get(
    '/cas/proxy',
    { schema: { querystring: Type.Object({ pgt: Str, targetService: Str, format: Str }) } },
    async (req, reply) => {
      const missing = !req.query.pgt || !req.query.targetService;
      const code = missing ? 'INVALID_REQUEST' : 'UNAUTHORIZED_SERVICE';
      const description = missing
        ? "'pgt' and 'targetService' parameters are both required"
        : 'This server issues no proxy-granting tickets, so no service may ask for proxy tickets';
      const json = req.query.format?.toUpperCase() === 'JSON';
      return reply
        .header('cache-control', 'no-store')
        .type(json ? 'application/json; charset=utf-8' : 'application/xml; charset=utf-8')
        .send(
          json
            ? JSON.stringify({ serviceResponse: { proxyFailure: { code, description } } })
            : `<cas:serviceResponse xmlns:cas="http://www.yale.edu/tp/cas"><cas:proxyFailure code="${code}">${xmlText(description)}</cas:proxyFailure></cas:serviceResponse>\n`,
        );
    },
  );

  // CAS 1.0: "yes\n<user>\n" or "no\n" (answers.ts: a name that is not one line is a "no").
  app.get('/cas/validate', { schema: { querystring: ValidateQuery } }, async (req, reply) => {
    const v = await sso.validate(req.query).catch((err: unknown) => {
      req.log.error({ err }, 'CAS 1.0 ticket validation failed');
      return null;
    });
    return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(cas1Body(v));
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

/** The portal's signed API on the sign-on server: entering an external system (docs/product/screens.md#fixed-routes, docs/product/calls.md#call-list). */
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
