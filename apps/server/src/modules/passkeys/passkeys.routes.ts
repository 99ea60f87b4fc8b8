/**
 * Passkeys: the person's own (账户安全), the portal login's passwordless sign-in (signed /api), and
 * the sign-on page's (unsigned /cas, as the sign-on form is).
 */
import cookie from '@fastify/cookie';
import {
  Envelope,
  IdParams,
  LoginQuery,
  PasskeyEnrolBody,
  PasskeyItem,
  PasskeyOptions,
  PasskeyRenameBody,
  PasskeySignInBody,
  ResultCode,
  TokenData,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.js';
import { rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import type { PasskeySignIn, PasskeysService } from './passkeys.service.js';

const client = (req: { ip: string; headers: Record<string, unknown> }) => ({
  ip: req.ip,
  userAgent: String(req.headers['user-agent'] ?? ''),
});

export const passkeyRoutes: FastifyPluginAsyncTypebox<{ passkeys: PasskeysService }> = async (app, { passkeys }) => {
  const signedIn = { preHandler: app.authenticate };
  const done = { 200: Envelope(Type.Null()) };

  app.get(
    '/api/front/security/passkeys',
    { ...signedIn, schema: { response: { 200: Envelope(Type.Array(PasskeyItem)) } } },
    async (req) => ok(req, await passkeys.list(req.session!)),
  );
  app.post(
    '/api/front/security/passkeys/options',
    { ...signedIn, schema: { response: { 200: Envelope(PasskeyOptions) } } },
    async (req) => ok(req, await passkeys.enrolOptions(req.session!)),
  );
  app.post(
    '/api/front/security/passkeys',
    {
      ...signedIn,
      schema: { body: PasskeyEnrolBody, response: { 200: Envelope(Type.Object({ id: Type.Integer() })) } },
    },
    async (req) => ok(req, { id: await passkeys.enrol(req.session!, req.body.name, req.body.registration, req.ip) }),
  );
  app.put(
    '/api/front/security/passkeys/:id',
    { ...signedIn, schema: { params: IdParams, body: PasskeyRenameBody, response: done } },
    async (req) => {
      const session = req.session!;
      await passkeys.rename(session, rowId(req.params.id), req.body.name, req.ip);
      return ok(req, null);
    },
  );
  app.delete(
    '/api/front/security/passkeys/:id',
    { ...signedIn, schema: { params: IdParams, response: done } },
    async (req) => {
      const session = req.session!;
      await passkeys.remove(session, rowId(req.params.id), req.ip);
      return ok(req, null);
    },
  );

  // The portal login's passwordless sign-in: options, then the answer, then a token as the login gives.
  app.post(
    '/api/auth/jwt/front/passkey/options',
    { schema: { response: { 200: Envelope(PasskeyOptions) } } },
    async (req) => ok(req, await passkeys.signInOptions(req.ip)),
  );
  app.post(
    '/api/auth/jwt/front/passkey',
    { schema: { querystring: LoginQuery, body: PasskeySignInBody, response: { 200: Envelope(TokenData) } } },
    async (req) =>
      ok(
        req,
        await passkeys.portalSignIn(req.query.tenantCode ?? req.body.tenantCode, req.body.assertion, client(req)),
      ),
  );
};

export interface PasskeyCasRoutesOptions {
  passkeys: PasskeysService;
  /**
   * Opens the sign-on session (sso) for whoever `prove` names, in the tenant the request means
   * (its tenantCode, else its service's): the new ticket-granting cookie and where to go.
   */
  signOn: (
    where: {
      tenantCode: string;
      service: string | undefined;
      previousCookie: string | undefined;
      client: { ip: string; userAgent: string };
    },
    prove: (
      tenant: { id: number; code: string },
      /** The sign-in is the OpenID Provider's (it continues at its interaction). */
      providerReturn: boolean,
    ) => Promise<PasskeySignIn>,
  ) => Promise<{ cookie: string; redirect: string }>;
  /** The sign-on server's ticket-granting cookie: its name and how it is set. */
  ssoCookie: { name: string; options: Parameters<FastifyReply['setCookie']>[2] };
  /** This server's public origin: an answer posted from any other is refused (login CSRF). */
  origin: string;
}

/** The sign-on page's passwordless sign-in (and so the OpenID Provider's, which signs in there). */
export const passkeyCasRoutes: FastifyPluginAsyncTypebox<PasskeyCasRoutesOptions> = async (app, opts) => {
  await app.register(cookie);
  const fromHere = (origin: string | undefined) => {
    if (origin !== undefined && origin !== opts.origin)
      throw new AppError(ResultCode.NO_PERMISSION, 'ssoForeignOrigin');
  };
  app.post(
    '/cas/login/passkey/options',
    { schema: { querystring: LoginQuery, response: { 200: Envelope(PasskeyOptions) } } },
    async (req) => {
      fromHere(req.headers.origin);
      return ok(req, await opts.passkeys.signInOptions(req.ip));
    },
  );
  app.post(
    '/cas/login/passkey',
    {
      schema: {
        querystring: LoginQuery,
        body: PasskeySignInBody,
        response: { 200: Envelope(Type.Object({ redirect: Type.String() })) },
      },
    },
    async (req, reply) => {
      fromHere(req.headers.origin);
      const b = req.body;
      const previous = req.cookies[opts.ssoCookie.name];
      const { cookie: value, redirect } = await opts.signOn(
        {
          tenantCode: b.tenantCode ?? req.query.tenantCode ?? '',
          service: b.service ?? req.query.service,
          previousCookie: previous && /^[A-Za-z0-9_-]{16,128}$/.test(previous) ? previous : undefined,
          client: { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' },
        },
        (tenant, providerReturn) =>
          opts.passkeys.ssoSignIn(tenant.id, b.assertion, {
            ip: req.ip,
            userAgent: req.headers['user-agent'] ?? '',
            // The history names the door: the OpenID Provider's sign-in, or the sign-on server's.
            via: providerReturn ? 'oidc' : 'cas',
          }),
      );
      reply.setCookie(opts.ssoCookie.name, value, opts.ssoCookie.options);
      return ok(req, { redirect });
    },
  );
};
