import multipart from '@fastify/multipart';
import {
  AdminNotice,
  AdminNoticeDetail,
  AdminNoticeQuery,
  AnswerStatusBody,
  AudienceChoice,
  AudienceQuery,
  Envelope,
  Paged,
  RecipientQuery,
  RecipientsCsv,
  ResultCode,
  UploadedPath,
  Notice,
  IdParams,
  NoticeRecipient,
  Page,
  PublishNotice,
  Published,
  ReplyPageBody,
  ReplySubmission,
  UnreadCount,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.js';
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

  // The operators' side (permission `notice:publish`, the caller's own tenant: another's notice is not found).
  app.get(
    '/api/admin/notices',
    { ...auth, schema: { querystring: AdminNoticeQuery, response: { 200: Envelope(Paged(AdminNotice)) } } },
    async (req) => ok(req, await notices.list(req.session!, req.query, langOf(req.query))),
  );

  app.get(
    '/api/admin/notices/audience',
    { ...auth, schema: { querystring: AudienceQuery, response: { 200: Envelope(Type.Array(AudienceChoice)) } } },
    async (req) => ok(req, await notices.audienceChoices(req.session!, req.query, langOf(req.query))),
  );

  app.get(
    '/api/admin/notices/:id',
    { ...auth, schema: { params: IdParams, response: { 200: Envelope(AdminNoticeDetail) } } },
    async (req) => ok(req, await notices.detail(req.session!, req.params.id, langOf(req.query))),
  );

  app.get(
    '/api/admin/notices/:id/recipients',
    {
      ...auth,
      schema: { params: IdParams, querystring: RecipientQuery, response: { 200: Envelope(Paged(NoticeRecipient)) } },
    },
    async (req) => ok(req, await notices.recipients(req.session!, req.params.id, req.query, langOf(req.query))),
  );

  // The export names people and their replies: it is audited like a change.
  app.get(
    '/api/admin/notices/:id/recipients/export',
    {
      ...auth,
      config: { auditedRead: true },
      schema: { params: IdParams, querystring: RecipientQuery, response: { 200: Envelope(RecipientsCsv) } },
    },
    async (req) => ok(req, await notices.exportRecipients(req.session!, req.params.id, req.query, langOf(req.query))),
  );

  app.post(
    '/api/admin/notices/:id/withdraw',
    { ...auth, schema: { params: IdParams, response: done } },
    async (req) => {
      await notices.withdraw(req.session!, req.params.id);
      return ok(req, null);
    },
  );
};

/**
 * POST /api/admin/notices/attachments: one multipart part `file` → `data` = its stored path, which
 * a notice being published names in `pushFile` (operators, `notice:publish`; the upload limits and
 * the attachment rules of replies apply).
 */
export const noticeAttachmentRoutes: FastifyPluginAsyncTypebox<{ notices: NoticesService; maxBytes: number }> = async (
  app,
  { notices, maxBytes },
) => {
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 50 },
  });
  app.post(
    '/api/admin/notices/attachments',
    { preHandler: app.authenticate, schema: { response: { 200: Envelope(UploadedPath) } } },
    async (req) => {
      const length = Number(req.headers['content-length']);
      // The permission is checked before the body is read.
      const part = async () => {
        const p = req.isMultipart() ? await req.file() : undefined;
        if (!p || p.fieldname !== 'file') throw new AppError(ResultCode.BAD_REQUEST, 'fileMissing');
        return p;
      };
      return ok(req, await notices.uploadAttachment(req.session!, part, length || undefined));
    },
  );
};
