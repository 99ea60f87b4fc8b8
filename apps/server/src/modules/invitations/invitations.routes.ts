import { Envelope, Invitation, InvitationIdBody, InviteBody, Page, PageQuery } from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf, t } from '../../platform/i18n.js';
import { rowId } from '../../platform/ids.js';
import { ok } from '../../platform/reply.js';
import type { InvitationsService } from './invitations.service.js';

/** 邀请成员 (ours, docs/product/calls.md#call-list shows none): the session's enterprise's invitations, for its administrators. */
export const invitationsRoutes: FastifyPluginAsyncTypebox<{ invitations: InvitationsService }> = async (
  app,
  { invitations },
) => {
  const done = { 200: Envelope(Type.Null()) };

  app.get(
    '/api/front/ent/invitations',
    {
      preHandler: app.authenticate,
      schema: { querystring: PageQuery, response: { 200: Envelope(Page(Invitation)) } },
    },
    async (req) =>
      ok(req, await invitations.list(req.session!, req.query.page ?? 1, req.query.limit ?? 10, langOf(req.query))),
  );

  app.post(
    '/api/front/ent/invitations',
    { preHandler: app.authenticate, schema: { body: InviteBody, response: done } },
    async (req) => {
      await invitations.invite(req.session!, req.body.mobile);
      return { status: 200, message: t(langOf(req.query), 'invited'), data: null };
    },
  );

  app.post(
    '/api/front/ent/invitations/revoke',
    { preHandler: app.authenticate, schema: { body: InvitationIdBody, response: done } },
    async (req) => {
      await invitations.revoke(req.session!, rowId(req.body.id));
      return ok(req, null);
    },
  );
};
