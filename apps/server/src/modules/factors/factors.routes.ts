/**
 * The factor step of the portal login (after 40308) and a person's own factors (ADR 051). The
 * sign-on server's factor step is in the sso routes (it sets the sign-on cookie), on the same
 * service through app.ts.
 */
import {
  Envelope,
  FactorAnswer,
  FactorChallengeRef,
  FactorRename,
  FactorSmsSent,
  IdParams,
  LoginQuery,
  MyFactors,
  RecoveryCodes,
  StepUpBody,
  StepUpFactors,
  StepUpPasskey,
  TokenData,
  TotpConfirm,
  TotpConfirmInSignIn,
  TotpEnrolment,
  TotpStart,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../platform/errors.js';
import { rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import { rememberCookie } from '../../platform/remember-cookie.js';
import type { Answered, FactorsService } from './factors.service.js';

export interface FactorsRoutesOptions {
  factors: FactorsService;
  /** Opens the portal session of a sign-in whose factor step is done (the auth service's). */
  openPortal: (userId: number, client: { ip: string; userAgent: string }, factor: boolean) => Promise<string>;
  secureCookie: boolean;
}

const client = (req: { ip: string; headers: Record<string, unknown> }) => ({
  ip: req.ip,
  userAgent: String(req.headers['user-agent'] ?? ''),
});

export const factorsRoutes: FastifyPluginAsyncTypebox<FactorsRoutesOptions> = async (app, opts) => {
  const { factors } = opts;
  const portalOnly = (a: Omit<Answered, 'remember'>) => {
    // A challenge of the sign-on server goes on there, never as a portal token.
    if (a.purpose !== 'portal') throw errors.notFound();
  };

  app.post(
    '/api/auth/jwt/front/factor',
    { schema: { querystring: LoginQuery, body: FactorAnswer, response: { 200: Envelope(TokenData) } } },
    async (req, reply) => {
      const a = await factors.answer(req.body, client(req), 'portal');
      portalOnly(a);
      if (a.remember)
        reply.header('set-cookie', rememberCookie(a.remember.token, a.remember.maxAgeSeconds, opts.secureCookie));
      return ok(req, await opts.openPortal(a.userId, client(req), true));
    },
  );

  // Within the grace days a person asked to enrol may sign in without, this once.
  app.post(
    '/api/auth/jwt/front/factor/later',
    { schema: { querystring: LoginQuery, body: FactorChallengeRef, response: { 200: Envelope(TokenData) } } },
    async (req) => {
      const a = await factors.later(req.body.challenge, client(req));
      portalOnly(a);
      return ok(req, await opts.openPortal(a.userId, client(req), false));
    },
  );

  // Enrolment during a sign-in that must enrol (no session yet: the challenge names the person).
  app.post(
    '/api/auth/jwt/front/factor/enrol',
    { schema: { querystring: LoginQuery, body: TotpStart, response: { 200: Envelope(TotpEnrolment) } } },
    async (req) => {
      if (!req.body.challenge) throw errors.badRequest('challenge');
      return ok(req, await factors.enrolDuringSignIn(req.body.challenge, req.body.name));
    },
  );

  app.post(
    '/api/auth/jwt/front/factor/passkey',
    {
      schema: {
        querystring: LoginQuery,
        body: FactorChallengeRef,
        response: { 200: Envelope(Type.Object({}, { additionalProperties: true })) },
      },
    },
    async (req) => ok(req, (await factors.passkeyOptions(req.body.challenge)) as Record<string, unknown>),
  );

  // An SMS code for the pending sign-in, to the person's own proven mobile (the body names no number).
  app.post(
    '/api/auth/jwt/front/factor/sms',
    { schema: { querystring: LoginQuery, body: FactorChallengeRef, response: { 200: Envelope(FactorSmsSent) } } },
    async (req) => ok(req, await factors.smsForChallenge(req.body.challenge, req.ip)),
  );

  // The authenticator enrolled during the sign-in, confirmed: its recovery codes, shown before it goes on.
  app.post(
    '/api/auth/jwt/front/factor/enrol/confirm',
    {
      schema: {
        querystring: LoginQuery,
        body: TotpConfirmInSignIn,
        response: { 200: Envelope(RecoveryCodes) },
      },
    },
    async (req) => ok(req, await factors.confirmDuringSignIn(req.body.challenge, req.body.code, client(req), 'portal')),
  );

  const auth = { preHandler: app.authenticate };
  app.get('/api/front/security/factors', { ...auth, schema: { response: { 200: Envelope(MyFactors) } } }, async (req) =>
    ok(req, await factors.list(req.session!)),
  );
  app.post(
    '/api/front/security/factors/totp',
    { ...auth, schema: { body: TotpStart, response: { 200: Envelope(TotpEnrolment) } } },
    async (req) => ok(req, await factors.startTotp(req.session!, req.body.name)),
  );
  app.post(
    '/api/front/security/factors/totp/confirm',
    { ...auth, schema: { body: TotpConfirm, response: { 200: Envelope(RecoveryCodes) } } },
    async (req) => ok(req, await factors.confirmTotp(req.session!, req.body.code, client(req))),
  );
  app.put(
    '/api/front/security/factors/:id',
    { ...auth, schema: { params: IdParams, body: FactorRename, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await factors.rename(req.session!, rowId(req.params.id), req.body.name);
      return ok(req, null);
    },
  );
  app.delete(
    '/api/front/security/factors/:id',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await factors.remove(req.session!, rowId(req.params.id), req.ip);
      return ok(req, null);
    },
  );
  app.post(
    '/api/front/security/recovery-codes',
    { ...auth, schema: { response: { 200: Envelope(RecoveryCodes) } } },
    async (req) => ok(req, { recoveryCodes: await factors.regenerateRecovery(req.session!, req.ip) }),
  );
  app.delete(
    '/api/front/security/remembered-browsers',
    { ...auth, schema: { response: { 200: Envelope(Type.Object({ count: Type.Integer() })) } } },
    async (req, reply) => {
      // This browser's cookie goes too.
      reply.header('set-cookie', rememberCookie('', 0, opts.secureCookie));
      return ok(req, { count: await factors.forgetBrowsers(req.session!) });
    },
  );
  app.get(
    '/api/front/security/step-up',
    { ...auth, schema: { response: { 200: Envelope(StepUpFactors) } } },
    async (req) => ok(req, await factors.stepUpFactors(req.session!)),
  );
  app.post(
    '/api/front/security/step-up/passkey',
    { ...auth, schema: { response: { 200: Envelope(StepUpPasskey) } } },
    async (req) => ok(req, await factors.stepUpPasskey(req.session!, client(req))),
  );
  app.post(
    '/api/front/security/step-up/sms',
    { ...auth, schema: { response: { 200: Envelope(FactorSmsSent) } } },
    async (req) => ok(req, await factors.stepUpSms(req.session!, req.ip)),
  );
  app.post(
    '/api/front/security/step-up',
    { ...auth, schema: { body: StepUpBody, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await factors.stepUp(req.session!, req.body, client(req));
      return ok(req, null);
    },
  );
};
