import { Envelope, ResultCode, WorkbenchLayout } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.js';
import { ok } from '../../platform/reply.js';
import type { WorkbenchRepository } from './workbench.repository.js';

/**
 * My workbench's arrangement (docs/product/screens.md#fixed-routes /workStand; ADR 028): each user's own, in the tenant of the
 * session. `null` until the user arranges it: the page then shows its default.
 */
export const workbenchRoutes: FastifyPluginAsyncTypebox<{ workbench: WorkbenchRepository }> = async (
  app,
  { workbench },
) => {
  const auth = { preHandler: app.authenticate };
  app.get(
    '/api/front/workbench/layout',
    { ...auth, schema: { response: { 200: Envelope(Type.Union([WorkbenchLayout, Type.Null()])) } } },
    async (req) => ok(req, await workbench.layout(req.session!.tenantId, req.session!.userId)),
  );
  app.post(
    '/api/front/workbench/layout',
    { ...auth, bodyLimit: 16 * 1024, schema: { body: WorkbenchLayout, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      const ids = req.body.items.map((i) => i.i);
      if (new Set(ids).size !== ids.length) throw new AppError(ResultCode.BAD_REQUEST, 'duplicateWidget');
      if (req.body.items.some((i) => i.x + i.w > 12)) throw new AppError(ResultCode.BAD_REQUEST, 'outsideGrid');
      await workbench.save(req.session!.tenantId, req.session!.userId, req.body);
      return ok(req, null);
    },
  );
};
