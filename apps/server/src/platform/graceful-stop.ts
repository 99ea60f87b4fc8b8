/**
 * How the server stops (SIGTERM, or app.close()): it stops accepting connections — after taking
 * those the operating system had already completed, see stopAccepting — but
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

/** Servers whose listener stopAccepting closed: their connections are still drained on close. */
const stopped = new WeakSet<FastifyInstance['server']>();

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stops listening without touching open connections (http.Server#close would close idle ones),
 * after accepting every connection the operating system completed before: closing a listener
 * resets those, and their clients, whose requests were already sent, saw ECONNRESET. A loaded
 * server can hold dozens of them between two turns of its event loop. So it first lets the event
 * loop poll until a turn brings no new connection (the answers meanwhile keep their connections
 * alive, so clients have no reason to open new ones), at most `maxTurns`; then it closes. Call it
 * before app.close(), which makes every answer `Connection: close`.
 */
export async function stopAccepting(app: FastifyInstance, maxTurns = 50): Promise<void> {
  const server = app.server;
  if (!server.listening || stopped.has(server)) return;
  let accepted = 0;
  const count = () => void accepted++;
  server.on('connection', count);
  try {
    // The first turn ends the current one (which may be the poll that brought the signal); each
    // next one has polled the listener again.
    await turn();
    for (let turns = 0, before = -1; turns < maxTurns && accepted !== before; turns++) {
      before = accepted;
      await turn();
    }
  } finally {
    server.off('connection', count);
  }
  stopped.add(server);
  NetServer.prototype.close.call(server);
}

const connections = (app: FastifyInstance) =>
  new Promise<number>((resolve) => app.server.getConnections((err, n) => resolve(err ? 0 : n)));

export function drainOnClose(app: FastifyInstance, graceMs = 2000, limitMs = 10_000): void {
  let closing = false;
  // Every connection, with the requests in flight on it and when it last did something: a
  // connection that never carried a request (a client's pre-opened spare, e.g. undici's after an
  // aborted fetch) is not "idle" to Node, and one taken by stopAccepting a moment ago has not had
  // its grace period yet (its client may be about to send).
  const open = new Set<Socket>();
  const inFlight = new WeakMap<Socket, number>();
  const lastActive = new WeakMap<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    lastActive.set(socket, Date.now());
    socket.on('close', () => open.delete(socket));
  });
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.on('close', () => {
      inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1);
      lastActive.set(socket, Date.now());
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    if (!app.server.listening && !stopped.has(app.server)) return;
    await stopAccepting(app);
    const started = Date.now();
    while ((await connections(app)) > 0) {
      // A connection with nothing in flight is closed once it has been idle for the grace period;
      // a busy one closes itself after its answer (Connection: close). Past the limit, whatever
      // still hangs is cut.
      const now = Date.now();
      if (now - started >= limitMs) app.server.closeAllConnections();
      else {
        for (const socket of open) {
          if (!inFlight.get(socket) && now - (lastActive.get(socket) ?? 0) >= graceMs) socket.destroy();
        }
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
