import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EventsService } from './events.service.js';

/**
 * The caller's live stream (server-sent events, ADR 024): signed and authenticated like every /api
 * call, so the browser reads it with fetch and the token travels in a header, never in the URL.
 * `Last-Event-ID` resumes after the last event received.
 */
export const eventsRoutes: FastifyPluginAsyncTypebox<{ events: EventsService }> = async (app, { events }) => {
  app.get(
    '/api/front/letter/events',
    { preHandler: app.authenticate, config: { stream: true } },
    async (req, reply) => {
      const s = req.session!;
      const raw = req.headers['last-event-id'];
      const last = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : null;
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // nginx and other proxies: pass each event on at once.
        'x-accel-buffering': 'no',
      });
      // The client may go away while the stream is being opened: it is then closed as soon as it exists.
      let gone = false;
      let opened: Awaited<ReturnType<EventsService['open']>> | null = null;
      reply.raw.on('close', () => {
        gone = true;
        if (opened) events.close(opened);
        reply.raw.end();
      });
      try {
        opened = await events.open(
          {
            tenantId: s.tenantId,
            userId: s.userId,
            sessionId: s.id,
            write: (chunk) => void reply.raw.write(chunk),
            end: () => reply.raw.end(),
          },
          last,
        );
      } catch (err) {
        // The answer has begun (hijacked): the client reconnects, as after any lost stream.
        req.log.warn({ err }, 'live stream not opened');
        reply.raw.end();
        return;
      }
      if (gone) events.close(opened);
    },
  );
};
