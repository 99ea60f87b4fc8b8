import {
  AnswerStatusBody,
  Envelope,
  Notice,
  IdParams,
  NoticeRecipient,
  Page,
  PageQuery,
  PublishNotice,
  Published,
  ReplyPageBody,
  ReplySubmission,
  UnreadCount,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { NoticesService } from './notices.service.js';

/**
 * The letter calls of docs/product/calls.md#call-list, all about the caller's own notices in their tenant: another user's or
 * another tenant's notice answers as one that does not exist. Publishing is the operators' API.
 */
export const noticesRoutes: FastifyPluginAsyncTypebox<{ notices: NoticesService }> = async (app, { notices }) => {
  const auth = { preHandler: app.authenticate };
  const done = { 200: Envelope(Type.Null()) };

  app.post(
    '/api/front/letter/replyPage',
    { ...auth, schema: { body: ReplyPageBody, response: { 200: Envelope(Page(Notice)) } } },
    async (req) => ok(req, await notices.page(req.session!, req.body, langOf(req.query))),
  );

  // The notice detail by id (docs/product/calls.md#call-list names replyInfo; the detail's own path is not shown): one call.
  app.get(
    '/api/front/letter/replyInfo/:id',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(Notice) } } },
    async (req) => ok(req, await notices.one(req.session!, req.params.id, langOf(req.query))),
  );

  app.post(
    '/api/front/letter/editAnswerStatus',
    { ...auth, schema: { body: AnswerStatusBody, response: done } },
    async (req) => {
      await notices.answerStatus(req.session!, req.body.id, req.body.action);
      return ok(req, null);
    },
  );

  // The reply submission (docs/product/data.md#notices; its path is not shown in docs/product/calls.md#call-list).
  app.post('/api/front/letter/reply', { ...auth, schema: { body: ReplySubmission, response: done } }, async (req) => {
    await notices.reply(req.session!, req.body);
    return ok(req, null);
  });

  app.get('/api/front/letter/unread', { ...auth, schema: { response: { 200: Envelope(UnreadCount) } } }, async (req) =>
    ok(req, { unread: await notices.unread(req.session!) }),
  );

  app.post(
    '/api/admin/notices',
    { ...auth, schema: { body: PublishNotice, response: { 200: Envelope(Published) } } },
    async (req) => ok(req, await notices.publish(req.session!, req.body)),
  );

  app.get(
    '/api/admin/notices/:id/recipients',
    {
      ...auth,
      schema: { params: IdParams, querystring: PageQuery, response: { 200: Envelope(Page(NoticeRecipient)) } },
    },
    async (req) =>
      ok(
        req,
        await notices.recipients(
          req.session!,
          req.params.id,
          req.query.page ?? 1,
          req.query.limit ?? 10,
          langOf(req.query),
        ),
      ),
  );
};
