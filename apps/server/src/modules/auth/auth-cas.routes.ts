/**
 * The portal's single-logout receiver (CAS 3.0 §2.3.3): the sign-on server POSTs a SAML
 * LogoutRequest naming the service ticket; the portal sessions opened with it end. Not signed, as
 * the sign-on server is a CAS server, not the SPA; a ticket is 43 random characters, so a request
 * can only end a session whose ticket it already knows.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionIndexOf } from '../../platform/cas-client.js';
import type { AuthService } from './auth.service.js';

export interface AuthCasRoutesOptions {
  auth: AuthService;
  path: string;
}

export const authCasRoutes: FastifyPluginAsyncTypebox<AuthCasRoutesOptions> = async (app, { auth, path }) => {
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  app.post(
    path,
    { schema: { body: Type.Object({ logoutRequest: Type.String({ minLength: 1, maxLength: 8192 }) }) } },
    async (req, reply) => {
      const ticket = sessionIndexOf(req.body.logoutRequest);
      const ended = ticket ? await auth.logoutByTicket(ticket) : 0;
      req.log.info({ ended }, 'single logout');
      return reply.code(200).type('text/plain; charset=utf-8').send('OK');
    },
  );
};
