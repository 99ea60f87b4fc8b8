import { Envelope, MenuData, PermissionQuery } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { MenusService } from './menus.service.js';

export const menusRoutes: FastifyPluginAsyncTypebox<{ menus: MenusService }> = async (app, { menus }) => {
  app.get(
    '/api/front/member/front/allPermissionV2',
    { preHandler: app.authenticate, schema: { querystring: PermissionQuery, response: { 200: Envelope(MenuData) } } },
    async (req) => ok(req, await menus.menuFor(req.session!, req.query, langOf(req.query))),
  );
};
