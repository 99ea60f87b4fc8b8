/**
 * The OpenID Connect example system's pages (see oidc-example.service.ts). Unsigned and outside
 * /api: a separate web application that happens to be served by the same process in the demo. Every
 * address it sends a browser to is its own or the provider's (from discovery): nothing of the
 * request chooses where it goes.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { escapeMarkup, plainPage } from '../../platform/html.js';
import { t, type Lang } from '../../platform/i18n.js';
import { OIDC_EXAMPLE_PATH, SignInRefused, type OidcExampleService } from './oidc-example.service.js';

export interface OidcExampleRoutesOptions {
  system: OidcExampleService;
  secureCookie: boolean;
}

const COOKIE = 'OIDC_EXAMPLE';
const PENDING_COOKIE = 'OIDC_EXAMPLE_SIGNIN';
const HEX64 = /^[0-9a-f]{64}$/;

/** A separate system knows the person's language only from the browser. */
const langOf = (language: string | undefined, accept: string | undefined): Lang =>
  language === 'eng' || (!language && /^en\b/i.test(accept ?? '')) ? 'en' : 'zh';

const text = (v: unknown): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && 'name' in v ? String(v.name) : '';

/** A name in the reader's language: the provider tags English names `name#en` (OpenID Connect Core 5.2). */
const nameIn = (lang: Lang, v: unknown, tagged?: unknown): string => {
  const english =
    lang === 'en' ? (tagged ?? (v && typeof v === 'object' && 'name#en' in v ? v['name#en'] : undefined)) : undefined;
  return (typeof english === 'string' && english) || text(v);
};

export const oidcExampleRoutes: FastifyPluginAsyncTypebox<OidcExampleRoutesOptions> = async (app, opts) => {
  const { system } = opts;
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  await app.register(cookie);

  const cookieOf = (req: FastifyRequest, name: string) => {
    const value = req.cookies[name];
    return value && HEX64.test(value) ? value : undefined;
  };
  const setCookie = (reply: FastifyReply, name: string, value: string, maxAge: number) =>
    reply.setCookie(name, value, {
      path: OIDC_EXAMPLE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      maxAge,
      secure: opts.secureCookie,
    });
  const page = (reply: FastifyReply, lang: Lang, body: string, code = 200) =>
    reply
      .code(code)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(plainPage(lang, t(lang, 'oidcExampleTitle'), body));
  const link = (href: string, label: string) => `<a href="${escapeMarkup(href)}">${escapeMarkup(label)}</a>`;
  const signInLink = (lang: Lang) => link(`${OIDC_EXAMPLE_PATH}login`, t(lang, 'oidcExampleSignIn'));
  const languageQuery = { language: Type.Optional(Type.String({ maxLength: 8 })) };
  const langOfReq = (req: FastifyRequest) =>
    langOf((req.query as { language?: string }).language, req.headers['accept-language']);

  // Who is signed in, with the claims the provider gave; or a way to sign in.
  app.get(OIDC_EXAMPLE_PATH, { schema: { querystring: Type.Object(languageQuery) } }, async (req, reply) => {
    const lang = langOfReq(req);
    const value = cookieOf(req, COOKIE);
    const session = value ? await system.session(value) : null;
    if (!session)
      return page(reply, lang, `<p>${escapeMarkup(t(lang, 'oidcExampleSignedOut'))}</p><p>${signInLink(lang)}</p>`);
    const c = session.claims;
    const name = nameIn(lang, c.name, c['name#en']) || text(c.preferred_username);
    const roles = Array.isArray(c.roles) ? c.roles.map(String).join(', ') : '';
    const at = session.createdAt.toLocaleString(lang === 'en' ? 'en-GB' : 'zh-CN', { timeZone: 'Asia/Shanghai' });
    const rows: Array<[string, string]> = [
      [t(lang, 'exampleName'), name],
      [t(lang, 'exampleAccount'), text(c.preferred_username)],
      [t(lang, 'examplePark'), text(c.tenant)],
      [t(lang, 'oidcExampleRoles'), roles || t(lang, 'oidcExampleNone')],
      [t(lang, 'oidcExampleEnterprise'), nameIn(lang, c.enterprise) || t(lang, 'oidcExampleNone')],
      [t(lang, 'oidcExampleSubject'), text(c.sub)],
      [t(lang, 'exampleSignedInAt'), at],
    ];
    return page(
      reply,
      lang,
      `<p>${escapeMarkup(t(lang, 'oidcExampleWelcome', { name }))}</p><dl>${rows
        .map(([k, v]) => `<dt>${escapeMarkup(k)}</dt><dd>${escapeMarkup(v)}</dd>`)
        .join('')}</dl><p class="note">${escapeMarkup(t(lang, 'oidcExampleNote'))}</p><p>${link(
        `${OIDC_EXAMPLE_PATH}logout`,
        t(lang, 'exampleSignOut'),
      )}</p>`,
    );
  });

  // A new sign-in: off to the provider's authorization endpoint (the portal's sign-on session answers there).
  app.get(`${OIDC_EXAMPLE_PATH}login`, { schema: { querystring: Type.Object(languageQuery) } }, async (req, reply) => {
    const lang = langOfReq(req);
    let begun: { cookie: string; url: string };
    try {
      begun = await system.begin(lang);
    } catch (err) {
      req.log.warn({ err }, 'OpenID Connect example: the provider did not answer');
      return page(reply, lang, `<p>${escapeMarkup(t(lang, 'ssoUnreachable'))}</p><p>${signInLink(lang)}</p>`, 503);
    }
    setCookie(reply, PENDING_COOKIE, begun.cookie, 600);
    return reply.header('cache-control', 'no-store').redirect(begun.url, 302);
  });

  // The provider's answer: a session of this system, or a page that says it did not work (never a loop).
  app.get(
    `${OIDC_EXAMPLE_PATH}callback`,
    {
      schema: {
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 512 })),
          state: Type.Optional(Type.String({ maxLength: 256 })),
          iss: Type.Optional(Type.String({ maxLength: 512 })),
          error: Type.Optional(Type.String({ maxLength: 256 })),
          error_description: Type.Optional(Type.String({ maxLength: 1024 })),
          ...languageQuery,
        }),
      },
    },
    async (req, reply) => {
      const lang = langOfReq(req);
      const query = req.url.slice(req.url.indexOf('?') + 1 || req.url.length);
      setCookie(reply, PENDING_COOKIE, '', 0);
      let value: string;
      try {
        value = await system.finish(cookieOf(req, PENDING_COOKIE), query);
      } catch (err) {
        if (!(err instanceof SignInRefused)) {
          req.log.warn({ err }, 'OpenID Connect example: the sign-in failed');
          return page(reply, lang, `<p>${escapeMarkup(t(lang, 'ssoUnreachable'))}</p><p>${signInLink(lang)}</p>`, 503);
        }
        return page(
          reply,
          lang,
          `<p>${escapeMarkup(t(lang, 'oidcExampleRefused'))}</p><p>${signInLink(lang)}</p>`,
          401,
        );
      }
      setCookie(reply, COOKIE, value, 8 * 3600);
      return reply.header('cache-control', 'no-store').redirect(OIDC_EXAMPLE_PATH, 303);
    },
  );

  // Signing out here: RP-initiated logout at the provider, which ends the sign-on session (and so every system's).
  app.get(`${OIDC_EXAMPLE_PATH}logout`, async (req, reply) => {
    let to: string | null = null;
    try {
      to = await system.signOut(cookieOf(req, COOKIE));
    } catch (err) {
      req.log.warn({ err }, 'OpenID Connect example: the provider did not answer');
    }
    setCookie(reply, COOKIE, '', 0);
    return reply.header('cache-control', 'no-store').redirect(to ?? OIDC_EXAMPLE_PATH, 302);
  });

  // The provider's back-channel logout: a verified logout token ends the sessions of its sid.
  app.post(
    `${OIDC_EXAMPLE_PATH}backchannel-logout`,
    { schema: { body: Type.Object({ logout_token: Type.String({ minLength: 1, maxLength: 8192 }) }) } },
    async (req, reply) => {
      const ok = await system.backchannelLogout(req.body.logout_token);
      reply.header('cache-control', 'no-store');
      if (ok) return reply.code(200).send();
      return reply.code(400).send({ error: 'invalid_request', error_description: 'the logout token is not valid' });
    },
  );
};
