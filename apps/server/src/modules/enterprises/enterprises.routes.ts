import {
  CurrentEnterpriseData,
  EnterpriseMember,
  Envelope,
  JoinedEnterprise,
  maskMobile,
  Page,
  PageQuery,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf, localized } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { EnterprisesRepository } from './enterprises.repository.js';

/** The caller's enterprises (docs/product/calls.md#call-list ent calls); the switch to one is the auth module's (a new token). */
export interface EnterprisesRoutesOptions {
  enterprises: EnterprisesRepository;
  /** The names of a region from the province down (the catalog's), or null for an unknown code. */
  regionPath: (code: string) => string[] | null;
}

export const enterprisesRoutes: FastifyPluginAsyncTypebox<EnterprisesRoutesOptions> = async (
  app,
  { enterprises, regionPath },
) => {
  // The 企业信息 page: the session's current enterprise (docs/product/screens.md#menu-routes ent/colist; the path is ours, docs/product/calls.md#call-list shows none).
  app.get(
    '/api/front/ent/current',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(CurrentEnterpriseData) } } },
    async (req) => {
      const s = req.session!;
      const lang = langOf(req.query);
      const r = s.enterpriseId === null ? null : await enterprises.current(s.tenantId, s.userId, s.enterpriseId);
      return ok(
        req,
        r && {
          entId: String(r.id),
          entName: localized(lang, r, 'name'),
          creditCode: r.creditCode,
          industry: r.industry,
          region: r.regionCode ? regionPath(r.regionCode) : null,
          estatus: r.estatus,
          reviewReason: r.estatus === 2 ? r.reviewReason : null,
          crtTime: r.joinedAt,
        },
      );
    },
  );

  app.get(
    '/api/front/ent/joinEntList',
    {
      preHandler: app.authenticate,
      schema: { querystring: PageQuery, response: { 200: Envelope(Page(JoinedEnterprise)) } },
    },
    async (req) => {
      const s = req.session!;
      const lang = langOf(req.query);
      const { rows, total } = await enterprises.joined(
        s.tenantId,
        s.userId,
        req.query.page ?? 1,
        req.query.limit ?? 10,
      );
      return ok(req, {
        rows: rows.map((r) => ({
          entId: String(r.id),
          entName: localized(lang, r, 'name'),
          creditCode: r.creditCode,
          crtTime: r.joinedAt,
          estatus: r.estatus,
        })),
        total,
      });
    },
  );

  // The 成员列表 page: the people of the session's enterprise (ours, docs/product/calls.md#call-list shows none); mobiles masked.
  app.get(
    '/api/front/ent/members',
    {
      preHandler: app.authenticate,
      schema: { querystring: PageQuery, response: { 200: Envelope(Page(EnterpriseMember)) } },
    },
    async (req) => {
      const s = req.session!;
      const lang = langOf(req.query);
      if (s.enterpriseId === null) return ok(req, { rows: [], total: 0 });
      const { rows, total } = await enterprises.members(
        s.tenantId,
        s.userId,
        s.enterpriseId,
        req.query.page ?? 1,
        req.query.limit ?? 10,
      );
      return ok(req, {
        rows: rows.map((r) => ({
          userId: String(r.id),
          name: localized(lang, r, 'name'),
          username: r.username,
          mobile: r.mobile && maskMobile(r.mobile),
          crtTime: r.joinedAt,
        })),
        total,
      });
    },
  );

  // Whether the caller belongs to any enterprise (joined or registered one); docs/product/calls.md#call-list "not shown".
  app.post(
    '/api/front/ent/isJoinedOrCreated',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(Type.Boolean()) } } },
    async (req) => ok(req, (await enterprises.count(req.session!.tenantId, req.session!.userId)) > 0),
  );
};
