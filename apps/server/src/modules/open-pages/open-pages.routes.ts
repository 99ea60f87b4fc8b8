import { Dashboard, Envelope, OpenDashboardQuery } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { OpenPagesService } from './open-pages.service.js';

/**
 * The open overview pages' call (docs/product/screens.md#open-routes /user/dashboard and /workscreen, ADR 027): no session,
 * the tenant the address names, aggregate public figures only.
 */
export const openPagesRoutes: FastifyPluginAsyncTypebox<{ openPages: OpenPagesService }> = async (
  app,
  { openPages },
) => {
  app.get(
    '/api/open/dashboard',
    { schema: { querystring: OpenDashboardQuery, response: { 200: Envelope(Dashboard) } } },
    async (req) => ok(req, await openPages.dashboard(req.query, langOf(req.query))),
  );
};
