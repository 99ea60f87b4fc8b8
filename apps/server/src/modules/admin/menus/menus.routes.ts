import {
  AdminIdParams,
  AdminMenu,
  AdminTenantQuery,
  Envelope,
  MenuCreate,
  MenuExport,
  MenuMove,
  MenuPatch,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { AdminMenusService } from './menus.service.js';

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };

/** The menu tree editor's calls (ADR 031): the rules are the service's. */
export const adminMenusRoutes: FastifyPluginAsyncTypebox<{ menus: AdminMenusService }> = async (app, { menus }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/menus',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminMenu)) } } },
    async (req) => ok(req, await menus.list(callerOf(req))),
  );
  app.post(
    '/api/admin/menus',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: MenuCreate, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => ok(req, String(await menus.create(callerOf(req), req.body))),
  );
  app.patch('/api/admin/menus/:id', { ...auth, schema: { ...byId, body: MenuPatch, response: done } }, async (req) => {
    await menus.update(callerOf(req), req.params.id, req.body);
    return ok(req, null);
  });
  app.post(
    '/api/admin/menus/:id/move',
    { ...auth, schema: { ...byId, body: MenuMove, response: done } },
    async (req) => {
      await menus.move(callerOf(req), req.params.id, req.body.parentId, req.body.index);
      return ok(req, null);
    },
  );
  app.delete('/api/admin/menus/:id', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    await menus.remove(callerOf(req), req.params.id);
    return ok(req, null);
  });

  app.get(
    '/api/admin/menus/export',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(MenuExport) } } },
    async (req) => ok(req, { format: 1 as const, menus: await menus.exportTree(callerOf(req)) }),
  );
  app.post(
    '/api/admin/menus/import',
    {
      ...auth,
      bodyLimit: 1024 * 1024,
      schema: { querystring: AdminTenantQuery, body: MenuExport, response: { 200: Envelope(Type.Integer()) } },
    },
    async (req) => ok(req, await menus.importTree(callerOf(req), req.body.menus)),
  );
};
