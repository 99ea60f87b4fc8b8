/**
 * The server's route table: every route with its method, path, schema and whether it needs a
 * session, recorded as routes are registered. The API reference check and the fuzz and
 * tenant-isolation suites read it, so a route added later is covered without anyone listing it.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface RouteEntry {
  method: string;
  /** As registered, with `:param` placeholders. */
  url: string;
  schema: FastifySchema | undefined;
  /** The route's preHandler loads the caller's session (401 without one). */
  session: boolean;
  /** A 200 is a stream that stays open (server-sent events), not the envelope. */
  stream: boolean;
  /** Open to a session that must change its password first (the change and the logout; ADR 033). */
  pendingPasswordChange: boolean;
}

/** Records the routes registered on `app` from now on (the hook is inherited by every plugin). */
export function recordRoutes(app: FastifyInstance): readonly RouteEntry[] {
  const table: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const hooks = [route.preHandler ?? []].flat();
    for (const method of [route.method].flat()) {
      table.push({
        method,
        url: route.url,
        schema: route.schema,
        session: app.hasDecorator('authenticate') && hooks.includes(app.authenticate),
        stream: route.config?.stream === true,
        pendingPasswordChange: route.config?.pendingPasswordChange === true,
      });
    }
  });
  return table;
}
