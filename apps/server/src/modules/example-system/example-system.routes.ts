/**
 * The example external system's pages (see example-system.service.ts). Unsigned and outside /api:
 * it is a separate web application that happens to be served by the same process in the demo.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { SERVICE_TICKET } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { sessionIndexOf } from '../../platform/cas-client.js';
import { AppError } from '../../platform/errors.js';
import { escapeMarkup, plainPage } from '../../platform/html.js';
import { t, type Lang } from '../../platform/i18n.js';
import { EXAMPLE_SYSTEM_PATH, type ExampleSystemService } from './example-system.service.js';

export interface ExampleSystemRoutesOptions {
  system: ExampleSystemService;
  /** This system's service address, and the sign-on server's base address. */
  service: string;
  casBase: string;
  secureCookie: boolean;
}

const COOKIE = 'EXAMPLE_SYSTEM';
const TICKET = new RegExp(SERVICE_TICKET);

/** A separate system knows the person's language only from the browser. */
const langOf = (language: string | undefined, accept: string | undefined): Lang =>
  language === 'eng' || (!language && /^en\b/i.test(accept ?? '')) ? 'en' : 'zh';

export const exampleSystemRoutes: FastifyPluginAsyncTypebox<ExampleSystemRoutesOptions> = async (app, opts) => {
  const { system, service, casBase } = opts;
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  await app.register(cookie);
  const cookieOf = (req: FastifyRequest) => {
    const value = req.cookies[COOKIE];
    return value && /^[0-9a-f]{64}$/.test(value) ? value : undefined;
  };
  const setCookie = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.setCookie(COOKIE, value, {
      path: EXAMPLE_SYSTEM_PATH,
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
      .send(plainPage(lang, t(lang, 'exampleTitle'), body));
  const login = `${casBase}/cas/login?${new URLSearchParams({ service })}`;

  app.get(
    EXAMPLE_SYSTEM_PATH,
    {
      schema: {
        querystring: Type.Object({
          ticket: Type.Optional(Type.String({ maxLength: 256 })),
          language: Type.Optional(Type.String({ maxLength: 8 })),
        }),
      },
    },
    async (req, reply) => {
      const lang = langOf(req.query.language, req.headers['accept-language']);
      if (req.query.ticket) {
        let cookie: string | null = null;
        try {
          if (TICKET.test(req.query.ticket)) cookie = await system.enter(req.query.ticket);
        } catch (err) {
          if (!(err instanceof AppError && err.key === 'ssoUnreachable')) throw err;
          // The sign-on server did not answer: say so, and offer to try again.
          const retry = `<p>${escapeMarkup(t(lang, 'ssoUnreachable'))}</p><p><a href="${escapeMarkup(EXAMPLE_SYSTEM_PATH)}">${escapeMarkup(t(lang, 'exampleSignInAgain'))}</a></p>`;
          return page(reply, lang, retry, 503);
        }
        if (!cookie) {
          // No redirect back to the sign-on server: a refused ticket must not start a loop.
          const again = `<p>${escapeMarkup(t(lang, 'ticketInvalid'))}</p><p><a href="${escapeMarkup(EXAMPLE_SYSTEM_PATH)}">${escapeMarkup(t(lang, 'exampleSignInAgain'))}</a></p>`;
          return page(reply, lang, again, 401);
        }
        setCookie(reply, cookie, 8 * 3600);
        return reply.header('cache-control', 'no-store').redirect(EXAMPLE_SYSTEM_PATH, 303);
      }
      const cookie = cookieOf(req);
      const session = cookie ? await system.session(cookie) : null;
      if (!session) return reply.header('cache-control', 'no-store').redirect(login, 302);
      const at = session.createdAt.toLocaleString(lang === 'en' ? 'en-GB' : 'zh-CN', { timeZone: 'Asia/Shanghai' });
      const rows: Array<[string, string]> = [
        [t(lang, 'exampleName'), session.name],
        [t(lang, 'exampleAccount'), session.username],
        [t(lang, 'examplePark'), session.tenantCode],
        [t(lang, 'exampleSignedInAt'), at],
      ];
      return page(
        reply,
        lang,
        `<p>${escapeMarkup(t(lang, 'exampleWelcome', { name: session.name }))}</p><dl>${rows
          .map(([k, v]) => `<dt>${escapeMarkup(k)}</dt><dd>${escapeMarkup(v)}</dd>`)
          .join('')}</dl><p class="note">${escapeMarkup(t(lang, 'exampleNote'))}</p><p><a href="${escapeMarkup(
          `${EXAMPLE_SYSTEM_PATH}logout`,
        )}">${escapeMarkup(t(lang, 'exampleSignOut'))}</a></p>`,
      );
    },
  );

  // Signing out of this system signs out of the sign-on server too (and so of every system).
  app.get(`${EXAMPLE_SYSTEM_PATH}logout`, async (req, reply) => {
    const cookie = cookieOf(req);
    if (cookie) await system.leave(cookie);
    setCookie(reply, '', 0);
    return reply
      .header('cache-control', 'no-store')
      .redirect(`${casBase}/cas/logout?${new URLSearchParams({ service })}`, 302);
  });

  // The sign-on server's single logout: the session that ticket began ends.
  app.post(
    EXAMPLE_SYSTEM_PATH,
    { schema: { body: Type.Object({ logoutRequest: Type.String({ minLength: 1, maxLength: 8192 }) }) } },
    async (req, reply) => {
      const ticket = sessionIndexOf(req.body.logoutRequest);
      if (ticket) await system.singleLogout(ticket);
      return reply.code(200).type('text/plain; charset=utf-8').send('OK');
    },
  );
};
