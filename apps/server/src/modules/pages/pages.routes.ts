import { Envelope, PageCodeParams, PageDefinition, ResultCode } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../platform/errors.js';
import { langOf, localized } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { PagesRepository } from './pages.repository.js';

/**
 * A drag-page view's definition (spec §2 menu and tabs). A page the caller's menu does not show
 * is answered like one that does not exist.
 */
export const pagesRoutes: FastifyPluginAsyncTypebox<{ pages: PagesRepository }> = async (app, { pages }) => {
  app.get(
    '/api/front/page/definition/:code',
    {
      preHandler: app.authenticate,
      schema: { params: PageCodeParams, response: { 200: Envelope(PageDefinition) } },
    },
    async (req) => {
      const s = req.session!;
      const page = s.roleId === null ? null : await pages.visiblePage(s.tenantId, s.userId, s.roleId, req.params.code);
      if (!page) throw new AppError(ResultCode.NOT_FOUND, 'pageNotFound');
      // A page is translated whole: its title, and its blocks as one list (their texts and links).
      const lang = langOf(req.query);
      return ok(req, {
        code: page.code,
        title: localized(lang, page, 'title'),
        blocks: localized(lang, page, 'blocks'),
      } as PageDefinition);
    },
  );
};
