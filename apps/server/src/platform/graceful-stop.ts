/**
 * How the server stops (SIGTERM, or app.close()): it stops accepting connections at once, but
 * answers every request that still arrives on an open keep-alive connection normally, with
 * `Connection: close`, so the client stops reusing it (a load balancer sends its next request to
 * another instance). Connections that stay idle, or never carried a request, are closed after a
 * grace period (2 s), any still open after 10 s are cut; the database and the rest close only when
 * no connection is left.
 * Node's own server.close() closes idle connections at once, which resets a request the client is
 * sending at that moment, and Fastify's return503OnClosing refuses requests that did reach the
 * server: neither is used.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
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
  // Connections that never carried a request (a client's pre-opened spare, e.g. undici's after an
  // aborted fetch) are not "idle" to Node, so closeIdleConnections leaves them: they are counted
  // here, with the requests in flight on each connection.
  const open = new Set<Socket>();
  const inFlight = new WeakMap<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.on('close', () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
  });
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
      else if (waited >= graceMs) {
        app.server.closeIdleConnections();
        for (const socket of open) if (!inFlight.get(socket)) socket.destroy();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  // Fastify adds Connection: close to routed answers while closing; this covers every other one.
  app.addHook('onSend', (_req, reply, _payload, done) => {
    if (closing) reply.header('connection', 'close');
    done();
  });
}
