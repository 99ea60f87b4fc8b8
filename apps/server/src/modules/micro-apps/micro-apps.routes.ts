import {
  Envelope,
  IdParams,
  MicroApp,
  MicroAppInput,
  RegisteredApp,
  SubManagement,
  TenantIdParams,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import type { MicroAppsService } from './micro-apps.service.js';

/** The micro-app calls of docs/product/calls.md#call-list, and the operators' registration of applications (ours). */
export const microAppsRoutes: FastifyPluginAsyncTypebox<{ microApps: MicroAppsService }> = async (
  app,
  { microApps },
) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/front/microFrontend/service/selectAllByTenant/:tenantId',
    { ...auth, schema: { params: TenantIdParams, response: { 200: Envelope(Type.Array(MicroApp)) } } },
    async (req) => ok(req, await microApps.list(req.session!, rowId(req.params.tenantId), langOf(req.query))),
  );

  app.get(
    '/api/front/subsystemManagement/getDefaultSubManList',
    { ...auth, schema: { response: { 200: Envelope(SubManagement) } } },
    async (req) => ok(req, await microApps.subManagement(req.session!)),
  );

  app.get(
    '/api/admin/micro-apps',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(RegisteredApp)) } } },
    async (req) => ok(req, await microApps.registered(req.session!, langOf(req.query))),
  );

  app.post(
    '/api/admin/micro-apps',
    { ...auth, schema: { body: MicroAppInput, response: { 200: Envelope(Type.String()) } } },
    async (req) => ok(req, await microApps.save(req.session!, req.body, req.ip)),
  );

  app.post(
    '/api/admin/micro-apps/:id/remove',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await microApps.remove(req.session!, req.params.id);
      return ok(req, null);
    },
  );
};
