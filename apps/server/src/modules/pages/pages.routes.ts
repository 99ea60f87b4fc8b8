import {
  Envelope,
  PageCodeParams,
  PageSummary,
  PageVersion,
  PageVersionBody,
  PageVersionParams,
  PageVersionSummary,
  PublishedPage,
  SavePageBody,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { PagesService } from './pages.service.js';

/** A save carries images as data URLs: more than the global body limit, within the document's bound. */
const SAVE_BODY_LIMIT = 256 * 1024;

/**
 * Drag pages (docs/product/screens.md#menu-and-tabs; ADR 028): the view a menu entry shows, and the builder's
 * calls, which need `page:design`.
 */
export const pagesRoutes: FastifyPluginAsyncTypebox<{ pages: PagesService }> = async (app, { pages }) => {
  const auth = { preHandler: app.authenticate };
  const version = { 200: Envelope(Type.Integer()) };

  app.get(
    '/api/front/page/definition/:code',
    { ...auth, schema: { params: PageCodeParams, response: { 200: Envelope(PublishedPage) } } },
    async (req) => ok(req, await pages.published(req.session!, req.params.code)),
  );

  app.get(
    '/api/admin/pages',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(PageSummary)) } } },
    async (req) => ok(req, await pages.list(req.session!, langOf(req.query))),
  );
  app.get(
    '/api/admin/pages/:code/versions',
    { ...auth, schema: { params: PageCodeParams, response: { 200: Envelope(Type.Array(PageVersionSummary)) } } },
    async (req) => ok(req, await pages.versions(req.session!, req.params.code, langOf(req.query))),
  );
  app.get(
    '/api/admin/pages/:code',
    { ...auth, schema: { params: PageCodeParams, response: { 200: Envelope(PageVersion) } } },
    async (req) => ok(req, await pages.version(req.session!, req.params.code, 0)),
  );
  app.get(
    '/api/admin/pages/:code/versions/:version',
    { ...auth, schema: { params: PageVersionParams, response: { 200: Envelope(PageVersion) } } },
    async (req) => ok(req, await pages.version(req.session!, req.params.code, req.params.version)),
  );
  app.post(
    '/api/admin/pages/:code/versions',
    {
      ...auth,
      bodyLimit: SAVE_BODY_LIMIT,
      schema: { params: PageCodeParams, body: SavePageBody, response: version },
    },
    async (req) => ok(req, await pages.save(req.session!, req.params.code, req.body.baseVersion, req.body.document)),
  );
  app.post(
    '/api/admin/pages/:code/publish',
    { ...auth, schema: { params: PageCodeParams, body: PageVersionBody, response: { 200: Envelope(Type.Null()) } } },
    async (req) => {
      await pages.publish(req.session!, req.params.code, req.body.version);
      return ok(req, null);
    },
  );
  app.post(
    '/api/admin/pages/:code/restore',
    { ...auth, schema: { params: PageCodeParams, body: PageVersionBody, response: version } },
    async (req) => ok(req, await pages.restore(req.session!, req.params.code, req.body.version)),
  );
};
