import {
  CurrentEnterpriseData,
  EnterpriseMember,
  Envelope,
  JoinedEnterprise,
  Page,
  PageQuery,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { EnterprisesService } from './enterprises.service.js';

/**
 * The caller's enterprises (the enterprise calls of docs/product/calls.md#call-list); the switch to one is the auth
 * module's (a new token).
 */
export const enterprisesRoutes: FastifyPluginAsyncTypebox<{ enterprises: EnterprisesService }> = async (
  app,
  { enterprises },
) => {
  // The 企业信息 page (the menu's `ent/colist` entry, docs/product/screens.md#account-dialogs): the session's
  // current enterprise. The path is ours; docs/product/calls.md#call-list shows none.
  app.get(
    '/api/front/ent/current',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(CurrentEnterpriseData) } } },
    async (req) => ok(req, await enterprises.current(req.session!, langOf(req.query))),
  );

  app.get(
    '/api/front/ent/joinEntList',
    {
      preHandler: app.authenticate,
      schema: { querystring: PageQuery, response: { 200: Envelope(Page(JoinedEnterprise)) } },
    },
    async (req) =>
      ok(req, await enterprises.joined(req.session!, req.query.page ?? 1, req.query.limit ?? 10, langOf(req.query))),
  );

  // The 成员列表 page: the people of the session's enterprise (ours, docs/product/calls.md#call-list shows none);
  // mobiles masked.
  app.get(
    '/api/front/ent/members',
    {
      preHandler: app.authenticate,
      schema: { querystring: PageQuery, response: { 200: Envelope(Page(EnterpriseMember)) } },
    },
    async (req) =>
      ok(req, await enterprises.members(req.session!, req.query.page ?? 1, req.query.limit ?? 10, langOf(req.query))),
  );

  // Whether the caller belongs to any enterprise (joined or registered one); docs/product/calls.md#call-list
  // names the call, not its answer.
  app.post(
    '/api/front/ent/isJoinedOrCreated',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(Type.Boolean()) } } },
    async (req) => ok(req, await enterprises.joinedOrCreated(req.session!)),
  );
};
