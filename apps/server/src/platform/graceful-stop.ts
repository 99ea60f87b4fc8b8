/**
 * How the server stops (SIGTERM, or app.close()): it stops accepting connections at once, but
 * answers every request that still arrives on an open keep-alive connection normally, with
 * `Connection: close`, so the client stops reusing it (a load balancer sends its next request to
 * another instance). Connections that stay idle are closed after a grace period (2 s), any still
 * open after 10 s are cut; the database and the rest close only when no connection is left.
 * Node's own server.close() closes idle connections at once, which resets a request the client is
 * sending at that moment, and Fastify's return503OnClosing refuses requests that did reach the
 * server: neither is used.
 */
import { Server as NetServer } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/** Fastify's options for this: no 503 while closing, idle connections left to the drain below. */
export const DRAINING_SERVER_OPTIONS = {
  return503OnClosing: false,
  forceCloseConnections: false,
} satisfies FastifyServerOptions;

const connections = (app: FastifyInstance) =>
  new Promise<number>((resolve) => app.server.getConnections((err, n) => resolve(err ? 0 : n)));

export function drainOnClose(app: FastifyInstance, graceMs = 2000, limitMs = 10_000): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening) return;
    // Stop listening without touching open connections (http.Server#close would close idle ones).
    NetServer.prototype.close.call(app.server);
    const started = Date.now();
    while ((await connections(app)) > 0) {
      // Past the grace period, connections with nothing in flight are closed; a busy one closes
      // itself after its answer (Connection: close). Past the limit, whatever still hangs is cut.
      const waited = Date.now() - started;
      if (waited >= limitMs) app.server.closeAllConnections();
      else if (waited >= graceMs) app.server.closeIdleConnections();
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  // Fastify adds Connection: close to routed answers while closing; this covers every other one.
  app.addHook('onSend', (_req, reply, _payload, done) => {
    if (closing) reply.header('connection', 'close');
    done();
  });
}
