import type { preHandlerAsyncHookHandler } from 'fastify';
import type { ActiveSession } from './session.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler that loads the session named by the Authorization_front token, or answers 401. */
    authenticate: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    session: ActiveSession | null;
  }
}
