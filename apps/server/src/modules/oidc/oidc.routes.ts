/**
 * The OpenID Provider's addresses: each tenant's issuer `/oidc/{tenantCode}` (discovery, keys,
 * authorization, token, userinfo, introspection, revocation, end-session, device) handed to that
 * tenant's provider as it is; and the interaction under `/cas/oidc/{tenantCode}/interaction/{uid}`,
 * where the browser's sign-on cookie (path /cas) arrives. Neither is under /api: clients call them
 * as they call any OpenID Provider, and they answer in the protocol's own form, not the envelope.
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ResultCode } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import { pageLang, tooManyPage } from './oidc.pages.js';
import type { InteractionStep, OidcService } from './oidc.service.js';

export interface OidcRoutesOptions {
  oidc: OidcService;
  /**
   * This server's public origin (PUBLIC_URL's): the provider's addresses are built on it whatever
   * Host a request names, and a consent posted from any other origin is refused.
   */
  origin: string;
  /** The sign-on cookie's name (CASTGC). */
  ssoCookie: string;
  /** Counts user code entries on the device page (per client address, every instance). */
  limiter: Pick<RateLimiter, 'hit'>;
}

/**
 * User codes a client address may enter on a tenant's device page in a minute: a person types one
 * or two; anyone trying codes to take over another's pending device sign-in is slowed to this.
 */
export const DEVICE_CODE_ENTRIES_PER_MINUTE = 10;

/**
 * The headers of every provider answer. Its answers bypass Fastify's reply (the provider writes
 * them itself), so the server's own headers are set here: nothing is cached, sniffed or framed,
 * and a page may run only the inline script the provider hashes into the policy (form_post).
 * Forms are not restricted: form_post answers post to the client's redirect address.
 */
export const PROVIDER_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const ISSUER_PREFIX = /^\/oidc\/[^/?#]*/;
// Examples the route suites draw from: the demo tenant's issuer and its endpoints.
const Params = Type.Object({
  tenant: Type.String({ maxLength: 64, examples: ['demo'] }),
  '*': Type.Optional(
    Type.String({
      maxLength: 256,
      examples: [
        '.well-known/openid-configuration',
        'jwks',
        'auth',
        'token',
        'me',
        'token/introspection',
        'token/revocation',
        'session/end',
        'device',
        'device/auth',
      ],
    }),
  ),
});
const InteractionParams = Type.Object({
  tenant: Type.String({ maxLength: 64, examples: ['demo'] }),
  uid: Type.String({ maxLength: 64 }),
});
const ConsentForm = Type.Object({ decision: Type.Optional(Type.String({ maxLength: 16 })) });

const notFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({ error: 'not_found', error_description: 'there is no OpenID Provider at this address' });

export const oidcRoutes: FastifyPluginAsyncTypebox<OidcRoutesOptions> = async (app, opts) => {
  const { oidc } = opts;
  const publicOrigin = new URL(opts.origin);
  /**
   * The provider builds its addresses from the request, trusting forwarded headers: it is given the
   * issuer's own scheme and host, whatever Host or forwarded headers the request carried, and the
   * client address Fastify found by TRUST_PROXY's rule.
   */
  const pin = (req: FastifyRequest) => {
    req.raw.headers['x-forwarded-proto'] = publicOrigin.protocol.slice(0, -1);
    req.raw.headers['x-forwarded-host'] = publicOrigin.host;
    req.raw.headers['x-forwarded-for'] = req.ip;
  };

  // The provider reads request bodies itself (form-encoded, bounded): nothing is parsed before it.
  await app.register(async (issuer) => {
    issuer.removeAllContentTypeParsers();
    issuer.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const handler = async (req: FastifyRequest<{ Params: { tenant: string } }>, reply: FastifyReply) => {
      const entry = await oidc.providerFor(req.params.tenant);
      if (!entry) return notFound(reply);
      if (req.method === 'POST' && /^\/oidc\/[^/?#]*\/device(\?|$)/.test(req.url)) {
        try {
          await opts.limiter.hit(`oidc-device:${entry.tenant.id}:${req.ip}`, DEVICE_CODE_ENTRIES_PER_MINUTE, 60);
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== ResultCode.TOO_MANY_REQUESTS) throw err;
          for (const [name, value] of Object.entries({ ...PROVIDER_HEADERS, ...err.headers }))
            reply.header(name, value);
          return reply
            .code(429)
            .type('text/html; charset=utf-8')
            .send(tooManyPage(pageLang(undefined, req.headers['accept-language'])));
        }
      }
      reply.hijack();
      for (const [name, value] of Object.entries(PROVIDER_HEADERS)) reply.raw.setHeader(name, value);
      const raw = req.raw as typeof req.raw & { originalUrl?: string };
      pin(req);
      const url = raw.url ?? '/';
      raw.originalUrl = url;
      raw.url = url.replace(ISSUER_PREFIX, '') || '/';
      if (raw.url.startsWith('?')) raw.url = `/${raw.url}`;
      await entry.callback(raw, reply.raw);
      return reply;
    };
    for (const url of ['/oidc/:tenant', '/oidc/:tenant/*']) {
      issuer.route({ method: ['GET', 'POST', 'OPTIONS'], url, schema: { params: Params }, handler });
    }
  });

  // The interaction: the bridge to the sign-on session (ADR 048).
  await app.register(async (scope) => {
    const bridge = scope.withTypeProvider<TypeBoxTypeProvider>();
    await bridge.register(formbody, { bodyLimit: 4 * 1024 });
    await bridge.register(cookie);
    const cookieOf = (req: FastifyRequest) => {
      const value = req.cookies[opts.ssoCookie];
      return value && /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
    };
    const answer = (reply: FastifyReply, step: InteractionStep) => {
      reply.header('cache-control', 'no-store');
      if (step.kind === 'notFound') return notFound(reply);
      if (step.kind === 'redirect') return reply.redirect(step.url, 303);
      return reply.code(step.status).type('text/html; charset=utf-8').send(step.html);
    };
    const lang = (req: FastifyRequest) => pageLang(undefined, req.headers['accept-language']);

    bridge.get('/cas/oidc/:tenant/interaction/:uid', { schema: { params: InteractionParams } }, async (req, reply) =>
      answer(
        reply,
        await oidc.interaction(req.params.tenant, req.params.uid, {
          req: req.raw,
          res: reply.raw,
          ssoCookie: cookieOf(req),
          lang: lang(req),
        }),
      ),
    );
    bridge.post(
      '/cas/oidc/:tenant/interaction/:uid',
      { schema: { params: InteractionParams, body: ConsentForm } },
      async (req, reply) => {
        const from = req.headers.origin;
        if (from !== undefined && from !== opts.origin) {
          return reply
            .code(403)
            .header('cache-control', 'no-store')
            .type('text/plain; charset=utf-8')
            .send('Forbidden');
        }
        pin(req);
        return answer(
          reply,
          await oidc.consent(req.params.tenant, req.params.uid, req.body.decision === 'allow', {
            req: req.raw,
            res: reply.raw,
            ssoCookie: cookieOf(req),
            lang: lang(req),
          }),
        );
      },
    );
  });
};
