import { Envelope, WorkbenchLayout } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../platform/reply.js';
import type { WorkbenchService } from './workbench.service.js';

/** My workbench's arrangement (docs/product/screens.md#fixed-routes /workStand; ADR 028): the rules are the service's. */
export const workbenchRoutes: FastifyPluginAsyncTypebox<{ workbench: WorkbenchService }> = async (
  app,
  { workbench },
) => {
  const auth = { preHandler: app.authenticate };
  app.get(
    '/api/front/workbench/layout',
    { ...auth, schema: { response: { 200: Envelope(Type.Union([WorkbenchLayout, Type.Null()])) } } },
    async (req) => ok(req, await workbench.layout(req.session!)),
  );
  app.post(
    '/api/front/workbench/layout',
    { ...auth, bodyLimit: 16 * 1024, schema: { body: WorkbenchLayout, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await workbench.save(req.session!, req.body);
      return ok(req, null);
    },
  );
};
