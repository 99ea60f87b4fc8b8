import {
  Envelope,
  LoginBody,
  LoginQuery,
  PublicKeyData,
  SwitchContextBody,
  SwitchEnterprise,
  TokenByStQuery,
  TokenData,
  normalizeUsername,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errors } from '../../platform/errors.js';
import { describeSchemaIssue, langOf } from '../../platform/i18n.js';
import { rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import { rememberTokenOf } from '../../platform/remember-cookie.js';
import type { Tenants } from '../../platform/tenants.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  publicKey: { publicKey: string; keyId: string };
  tenants: Pick<Tenants, 'codeOf'>;
  /** The server's captcha for login (getCaptchaType): it decides which proof fields are required. */
  captchaKind: () => 'anji' | 'image';
}

const PROOF_FIELDS = { anji: ['captchaVerification'], image: ['imgvercode', 'captchaKey'] } as const;

export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (app, opts) => {
  app.get(
    '/api/front/account/auth/publicKey',
    { schema: { response: { 200: Envelope(PublicKeyData) } } },
    async (req) => ok(req, opts.publicKey),
  );

  app.post(
    '/api/auth/jwt/front/token',
    { schema: { querystring: LoginQuery, body: LoginBody, response: { 200: Envelope(TokenData) } } },
    async (req) => {
      // The schema allows either proof; the configured one is required, and named when missing.
      const missing = PROOF_FIELDS[opts.captchaKind()].find((f) => !req.body[f]);
      if (missing) {
        const issue = { keyword: 'required', params: { missingProperty: missing } };
        throw errors.badRequest(describeSchemaIssue(issue, 'body', langOf(req.query)));
      }
      const token = await opts.auth.login({
        username: normalizeUsername(req.body.username),
        passwordCipher: req.body.password,
        captcha: {
          captchaKey: req.body.captchaKey,
          answer: req.body.imgvercode,
          verification: req.body.captchaVerification,
        },
        tenantCode: opts.tenants.codeOf(req.query.tenantCode),
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? '',
        // "Remember this browser" (ADR 051): skips the factor step of this person's sign-in.
        rememberToken: rememberTokenOf(req.headers.cookie),
      });
      return ok(req, token);
    },
  );

  // A login through the sign-on server: the ticket it gave the browser, validated over CAS.
  app.post(
    '/api/auth/jwt/getTokenBySt',
    { schema: { querystring: TokenByStQuery, response: { 200: Envelope(TokenData) } } },
    async (req) =>
      ok(
        req,
        await opts.auth.loginWithTicket(req.query.st, req.query.service, {
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
        }),
      ),
  );

  // Switches (ADR 011) are privilege changes: each answers a new token and revokes the old one.
  const client = (req: { ip: string; headers: Record<string, unknown> }) => ({
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? ''),
  });
  app.post(
    '/api/front/member/switchContext',
    { preHandler: app.authenticate, schema: { body: SwitchContextBody, response: { 200: Envelope(TokenData) } } },
    async (req) => {
      const { roleId, applyId, workbenchId } = req.body;
      // An id left out stays as it is.
      const id = (v: number | string | undefined) => (v === undefined ? undefined : rowId(v));
      const target = { roleId: id(roleId), applicationId: id(applyId), workbenchId: id(workbenchId) };
      return ok(req, await opts.auth.switchContext(req.session!, target, client(req)));
    },
  );
  app.put(
    '/api/front/member/switchEnterprises',
    { preHandler: app.authenticate, schema: { body: SwitchEnterprise, response: { 200: Envelope(TokenData) } } },
    async (req) =>
      ok(req, await opts.auth.switchContext(req.session!, { enterpriseId: rowId(req.body.entId) }, client(req))),
  );

  app.post(
    '/api/auth/jwt/logout',
    {
      preHandler: app.authenticate,
      // A session that must change its password first may still end (ADR 033).
      config: { pendingPasswordChange: true },
      schema: { response: { 200: Envelope(Type.Null()) } },
    },
    async (req) => {
      await opts.auth.logout(req.session!, req.ip);
      return ok(req, null);
    },
  );
};
