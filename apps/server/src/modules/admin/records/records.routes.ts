import {
  AdminEnterprise,
  AdminEnterpriseDetail,
  AdminIdParams,
  AdminPageQuery,
  AdminSsoService,
  AdminTenantQuery,
  AuditEntry,
  AuditExport,
  AuditExportQuery,
  AuditQuery,
  EnterpriseQuery,
  EnterpriseReview,
  Envelope,
  OutboxMessage,
  Paged,
  SsoServiceInput,
  SsoServicePatch,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../../platform/i18n.js';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { AdminRecordsService } from './records.service.js';

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };
const page = (q: { page?: number | undefined; limit?: number | undefined }) => ({
  page: q.page ?? 1,
  limit: q.limit ?? 20,
});

/** The review queue of enterprises, sign-on services, the SMS outbox and the audit log (ADR 031). */
export const adminRecordsRoutes: FastifyPluginAsyncTypebox<{ records: AdminRecordsService }> = async (
  app,
  { records },
) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/enterprises',
    { ...auth, schema: { querystring: EnterpriseQuery, response: { 200: Envelope(Paged(AdminEnterprise)) } } },
    async (req) => {
      const q = req.query;
      return ok(
        req,
        await records.enterprises(callerOf(req), { ...page(q), q: q.q?.trim() || undefined, estatus: q.estatus }),
      );
    },
  );
  app.get(
    '/api/admin/enterprises/:id',
    { ...auth, schema: { ...byId, response: { 200: Envelope(AdminEnterpriseDetail) } } },
    async (req) => ok(req, await records.enterprise(callerOf(req), req.params.id, langOf(req.query))),
  );
  app.post(
    '/api/admin/enterprises/:id/review',
    { ...auth, schema: { ...byId, body: EnterpriseReview, response: done } },
    async (req) => {
      await records.review(callerOf(req), req.params.id, req.body.estatus, req.body.reason);
      return ok(req, null);
    },
  );

  app.get(
    '/api/admin/sso-services',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminSsoService)) } } },
    async (req) => ok(req, await records.ssoServices(callerOf(req))),
  );
  app.post(
    '/api/admin/sso-services',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: SsoServiceInput, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => ok(req, String(await records.createSsoService(callerOf(req), req.body))),
  );
  app.patch(
    '/api/admin/sso-services/:id',
    { ...auth, schema: { ...byId, body: SsoServicePatch, response: done } },
    async (req) => {
      await records.updateSsoService(callerOf(req), req.params.id, req.body);
      return ok(req, null);
    },
  );
  app.delete('/api/admin/sso-services/:id', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    await records.deleteSsoService(callerOf(req), req.params.id);
    return ok(req, null);
  });

  app.get(
    '/api/admin/sms-outbox',
    // The outbox holds live codes (a password reset's among them): who read it is recorded.
    {
      ...auth,
      config: { auditedRead: true },
      schema: { querystring: AdminPageQuery, response: { 200: Envelope(Paged(OutboxMessage)) } },
    },
    async (req) =>
      ok(req, await records.outbox(callerOf(req), { ...page(req.query), q: req.query.q?.trim() || undefined })),
  );

  /** The audit query's filters as given (blank ones dropped). */
  const auditFilter = (q: AuditExportQuery) => ({
    actor: q.actor?.trim() || undefined,
    action: q.action?.trim() || undefined,
    objectType: q.objectType?.trim() || undefined,
    object: q.object?.trim() || undefined,
    ...(q.from !== undefined ? { from: q.from } : {}),
    ...(q.to !== undefined ? { to: q.to } : {}),
  });

  app.get(
    '/api/admin/audit',
    { ...auth, schema: { querystring: AuditQuery, response: { 200: Envelope(Paged(AuditEntry)) } } },
    async (req) =>
      ok(req, await records.audit(callerOf(req), { ...page(req.query), ...auditFilter(req.query) }, langOf(req.query))),
  );

  app.get(
    '/api/admin/audit/export',
    // A copy of the log leaves the console: who took it, and which entries, is recorded (ADR 044).
    {
      ...auth,
      config: { auditedRead: true },
      schema: { querystring: AuditExportQuery, response: { 200: Envelope(AuditExport) } },
    },
    async (req) => ok(req, await records.auditExport(callerOf(req), auditFilter(req.query), langOf(req.query))),
  );
};
