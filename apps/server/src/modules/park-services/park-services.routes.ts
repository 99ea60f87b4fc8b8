import {
  Booking,
  BookingInput,
  BookingQuery,
  Envelope,
  IdParams,
  Page,
  Repair,
  RepairInput,
  RepairQuery,
  RepairStatusBody,
  Room,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { optionalRowId, rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import type { ParkServicesService } from './park-services.service.js';

/**
 * The park services behind the demo sub-application (ours; ADR 025): it calls them with the
 * token and the signed client the portal hands it, like any page of the portal.
 */
export const parkServicesRoutes: FastifyPluginAsyncTypebox<{ park: ParkServicesService }> = async (app, { park }) => {
  const auth = { preHandler: app.authenticate };
  const done = { 200: Envelope(Type.Null()) };
  const created = { 200: Envelope(Type.String()) };

  app.get(
    '/api/front/park/repairs',
    { ...auth, schema: { querystring: RepairQuery, response: { 200: Envelope(Page(Repair)) } } },
    async (req) => ok(req, await park.repairs(req.session!, req.query, langOf(req.query))),
  );
  app.get(
    '/api/front/park/repairs/:id',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(Repair) } } },
    async (req) => ok(req, await park.repair(req.session!, rowId(req.params.id), langOf(req.query))),
  );
  app.post('/api/front/park/repairs', { ...auth, schema: { body: RepairInput, response: created } }, async (req) =>
    ok(req, await park.report(req.session!, req.body)),
  );
  app.post(
    '/api/front/park/repairs/:id/status',
    { ...auth, schema: { params: IdParams, body: RepairStatusBody, response: done } },
    async (req) => {
      await park.advance(req.session!, rowId(req.params.id), req.body.status);
      return ok(req, null);
    },
  );

  app.get(
    '/api/front/park/rooms',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(Room)) } } },
    async (req) => ok(req, await park.rooms(req.session!, langOf(req.query))),
  );
  app.get(
    '/api/front/park/bookings',
    { ...auth, schema: { querystring: BookingQuery, response: { 200: Envelope(Type.Array(Booking)) } } },
    async (req) => ok(req, await park.bookings(req.session!, req.query.date, optionalRowId(req.query.roomId))),
  );
  app.post('/api/front/park/bookings', { ...auth, schema: { body: BookingInput, response: created } }, async (req) =>
    ok(req, await park.book(req.session!, rowId(req.body.roomId), req.body)),
  );
  app.post(
    '/api/front/park/bookings/:id/cancel',
    { ...auth, schema: { params: IdParams, response: done } },
    async (req) => {
      await park.cancel(req.session!, rowId(req.params.id));
      return ok(req, null);
    },
  );
};
