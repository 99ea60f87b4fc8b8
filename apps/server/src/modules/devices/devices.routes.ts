import {
  AdminDevice,
  Device,
  DeviceAlert,
  DeviceCredential,
  DeviceInput,
  Envelope,
  IdParams,
  IngestBody,
  Ingested,
  NewDeviceCredential,
  OpenAlertQuery,
  OpenDeviceQuery,
  Page,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import type { DevicesService } from './devices.service.js';

/**
 * The device pages' calls (ours; docs/product/screens.md#open-routes names the open routes /deviceManage/devices and /alerts):
 * open views of what a tenant marks public, alert handling, and the operators' device registry.
 */
export const devicesRoutes: FastifyPluginAsyncTypebox<{ devices: DevicesService }> = async (app, { devices }) => {
  const auth = { preHandler: app.authenticate };
  const done = { 200: Envelope(Type.Null()) };

  app.get(
    '/api/open/devices',
    { schema: { querystring: OpenDeviceQuery, response: { 200: Envelope(Page(Device)) } } },
    async (req) => ok(req, await devices.openDevices(req.query, langOf(req.query))),
  );
  app.get(
    '/api/open/device-alerts',
    { schema: { querystring: OpenAlertQuery, response: { 200: Envelope(Page(DeviceAlert)) } } },
    async (req) => ok(req, await devices.openAlerts(req.query, langOf(req.query))),
  );

  for (const action of ['acknowledge', 'close'] as const) {
    app.post(
      `/api/front/device-alerts/:id/${action}`,
      { ...auth, schema: { params: IdParams, response: done } },
      async (req) => {
        await devices.handleAlert(req.session!, rowId(req.params.id), action);
        return ok(req, null);
      },
    );
  }

  app.get(
    '/api/admin/devices',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(AdminDevice)) } } },
    async (req) => ok(req, await devices.adminDevices(req.session!, langOf(req.query))),
  );
  app.post(
    '/api/admin/devices',
    { ...auth, schema: { body: DeviceInput, response: { 200: Envelope(Type.String()) } } },
    async (req) => ok(req, await devices.saveDevice(req.session!, req.body)),
  );
  app.get(
    '/api/admin/devices/:id/credentials',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(Type.Array(DeviceCredential)) } } },
    async (req) => ok(req, await devices.credentials(req.session!, req.params.id)),
  );
  app.post(
    '/api/admin/devices/:id/credentials',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(NewDeviceCredential) } } },
    async (req) => ok(req, await devices.addCredential(req.session!, req.params.id)),
  );
  app.post(
    '/api/admin/device-credentials/:id/revoke',
    { ...auth, schema: { params: IdParams, response: done } },
    async (req) => {
      await devices.revoke(req.session!, req.params.id);
      return ok(req, null);
    },
  );
};

/**
 * The devices' ingest API: not request-signed (a device holds no browser's signing secret), but
 * authenticated by the device's own credential, `Authorization: Bearer <keyId>.<secret>`.
 */
export const ingestRoutes: FastifyPluginAsyncTypebox<{ devices: DevicesService }> = async (app, { devices }) => {
  app.post(
    '/api/ingest/v1/readings',
    { schema: { body: IngestBody, response: { 200: Envelope(Ingested) } } },
    async (req) => {
      const header = req.headers.authorization;
      const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7).trim() : null;
      return ok(req, await devices.ingest(token, req.body));
    },
  );
};
