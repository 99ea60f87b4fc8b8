import { Envelope, LoginBody, LoginQuery, PublicKeyData, TokenData } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../platform/reply.js';
import type { AuthService } from './auth.service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  publicKey: { publicKey: string; keyId: string };
  defaultTenantCode: string;
}

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
      const token = await opts.auth.login({
        username: req.body.username.trim(),
        passwordCipher: req.body.password,
        captchaAnswer: req.body.imgvercode,
        captchaKey: req.body.captchaKey,
        tenantCode: req.query.tenantCode?.trim() || opts.defaultTenantCode,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? '',
      });
      return ok(req, token);
    },
  );

  app.post(
    '/api/auth/jwt/logout',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await opts.auth.logout(req.session!, req.ip);
      return ok(req, null);
    },
  );
};
