import { Envelope, IndustryNode, IndustryTreeQuery, RegionNode, RegionQuery } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../platform/reply.js';
import type { CatalogService } from './catalog.service.js';

/**
 * The pickers of company registration (docs/product/calls.md#call-list): industries (GB/T 4754-2017) and regions
 * (GB/T 2260). Public: registration is anonymous.
 */
export const catalogRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogService }> = async (app, { catalog }) => {
  app.get(
    '/api/front/select/indTree',
    { schema: { querystring: IndustryTreeQuery, response: { 200: Envelope(Type.Array(IndustryNode)) } } },
    async (req) => ok(req, await catalog.industries(req.query.parentCode)),
  );

  app.get(
    '/api/front/select/regionTreeListByCode',
    { schema: { querystring: RegionQuery, response: { 200: Envelope(Type.Array(RegionNode)) } } },
    async (req) => ok(req, catalog.regions(req.query.qhCode)),
  );
};
