/**
 * The portal's single-logout receiver (CAS 3.0 §2.3.3): the sign-on server POSTs a SAML
 * LogoutRequest naming the service ticket; the portal sessions opened with it end. Not signed, as
 * the sign-on server is a CAS server, not the SPA; a ticket is 43 random characters, so a request
 * can only end a session whose ticket it already knows.
 */
import formbody from '@fastify/formbody';
import { SERVICE_TICKET } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuthService } from './auth.service.js';

export interface AuthCasRoutesOptions {
  auth: AuthService;
  path: string;
}

const TICKET = new RegExp(SERVICE_TICKET);

/** The service ticket a LogoutRequest names, or null. */
export function sessionIndexOf(xml: string): string | null {
  const m = /<(?:\w+:)?SessionIndex>\s*([^<\s]+)\s*<\/(?:\w+:)?SessionIndex>/.exec(xml);
  return m && TICKET.test(m[1]!) ? m[1]! : null;
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
