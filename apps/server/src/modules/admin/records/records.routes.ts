import {
  AdminEnterprise,
  AdminIdParams,
  AdminPageQuery,
  AdminSsoService,
  AdminTenantQuery,
  AuditEntry,
  AuditQuery,
  EnterpriseQuery,
  EnterpriseReview,
  Envelope,
  OutboxMessage,
  Paged,
  ResultCode,
  SsoServiceInput,
  SsoServicePatch,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { rowId } from '../../../platform/ids.js';
import type { OperatorGate } from '../../../platform/operators.js';
import { langOf } from '../../../platform/i18n.js';
import { ok } from '../../../platform/reply.js';
import type { AdminRecordsRepository, Clashes } from './records.repository.js';

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };
const page = (q: { page?: number | undefined; limit?: number | undefined }) => ({
  page: q.page ?? 1,
  limit: q.limit ?? 20,
});

/** The sign-on server's rules for addresses (modules/sso/service-registry.ts), given by app.ts. */
export interface ServiceRules {
  /** Whether an address is a plain absolute http(s) URL the registry can match. */
  valid(address: string): boolean;
  /**
   * Whether the server may send requests there (platform/outbound.ts, ADR 034): false for an IP
   * literal or a name for this machine that the installation's address rule refuses. Other names
   * are judged whenever a request is sent, on what they then resolve to.
   */
  reachable(address: string): boolean;
  clashes: Clashes;
}

/**
 * A service's pattern, entry and logout addresses: absolute http(s) URLs as the registry reads them
 * (a pattern ending in `/` covers everything below it). The portal's placeholders are the seed's,
 * not an operator's to give. The server sends single-logout requests to the logout address, else to
 * addresses under the pattern: an address it may not send to is refused here, not only when called.
 */
function checkAddresses(
  rules: ServiceRules,
  s: { pattern?: string | undefined; entryUrl?: string | null | undefined; logoutUrl?: string | null | undefined },
) {
  const given = [s.pattern, s.entryUrl, s.logoutUrl].filter((v): v is string => !!v);
  if (given.some((v) => !rules.valid(v))) throw new AppError(ResultCode.BAD_REQUEST, 'serviceAddressInvalid');
  if (given.some((v) => !rules.reachable(v))) throw new AppError(ResultCode.CONFLICT, 'serviceAddressRefused');
}
/**
 * A time of the audit filter as given, once it is a real one: the pattern lets through days that
 * do not exist (2026-02-30) and hours past 23, which PostgreSQL would refuse with an error.
 */
function realTime(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const day = text.slice(0, 10);
  const asDay = new Date(`${day}T00:00:00Z`);
  const realDay = !Number.isNaN(asDay.getTime()) && asDay.toISOString().slice(0, 10) === day && day >= '1900';
  if (!realDay || (text.length > 10 && Number.isNaN(Date.parse(text)))) {
    throw new AppError(ResultCode.BAD_REQUEST, 'timeInvalid');
  }
  return text;
}
const clashRefused = () => new AppError(ResultCode.CONFLICT, 'servicePatternTaken');
const sysCodeTaken = (err: unknown): never => {
  if (violatedConstraint(err) === 'sso_services_tenant_sys_code') throw new AppError(ResultCode.CONFLICT, 'codeTaken');
  throw err;
};

/** The review queue of enterprises, sign-on services, the SMS outbox and the audit log (ADR 031). */
export const adminRecordsRoutes: FastifyPluginAsyncTypebox<{
  repo: AdminRecordsRepository;
  operatorOf: OperatorGate;
  services: ServiceRules;
}> = async (app, { repo, operatorOf, services }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/enterprises',
    { ...auth, schema: { querystring: EnterpriseQuery, response: { 200: Envelope(Paged(AdminEnterprise)) } } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      return ok(
        req,
        await repo.enterprises(tenantId, {
          ...page(req.query),
          q: req.query.q?.trim() || undefined,
          estatus: req.query.estatus,
        }),
      );
    },
  );
  app.post(
    '/api/admin/enterprises/:id/review',
    { ...auth, schema: { ...byId, body: EnterpriseReview, response: done } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const reason = req.body.reason?.trim() || null;
      // Members are told why their enterprise did not pass: a refusal without a reason tells them nothing.
      if (req.body.estatus === 2 && !reason) throw new AppError(ResultCode.BAD_REQUEST, 'reviewReasonRequired');
      const id = rowId(req.params.id);
      if (!(await repo.review(tenantId, id, req.body.estatus, req.body.estatus === 2 ? reason : null)))
        throw errors.notFound();
      return ok(req, null);
    },
  );

  app.get(
    '/api/admin/sso-services',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminSsoService)) } } },
    async (req) => ok(req, await repo.ssoServices((await operatorOf(req)).tenantId)),
  );
  app.post(
    '/api/admin/sso-services',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: SsoServiceInput, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      checkAddresses(services, req.body);
      const id = await repo.createSsoService(tenantId, req.body, services.clashes).catch(sysCodeTaken);
      if (id === 'clash') throw clashRefused();
      return ok(req, String(id));
    },
  );
  app.patch(
    '/api/admin/sso-services/:id',
    { ...auth, schema: { ...byId, body: SsoServicePatch, response: done } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      checkAddresses(services, req.body);
      const done = await repo
        .updateSsoService(tenantId, rowId(req.params.id), req.body, services.clashes)
        .catch(sysCodeTaken);
      if (done === 'clash') throw clashRefused();
      if (!done) throw errors.notFound();
      return ok(req, null);
    },
  );
  app.delete('/api/admin/sso-services/:id', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    const { tenantId } = await operatorOf(req);
    if (!(await repo.deleteSsoService(tenantId, rowId(req.params.id)))) throw errors.notFound();
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
    async (req) => {
      const { tenantId } = await operatorOf(req);
      return ok(req, await repo.outbox(tenantId, { ...page(req.query), q: req.query.q?.trim() || undefined }));
    },
  );

  app.get(
    '/api/admin/audit',
    { ...auth, schema: { querystring: AuditQuery, response: { 200: Envelope(Paged(AuditEntry)) } } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const q = req.query;
      return ok(
        req,
        await repo.audit(tenantId, {
          ...page(q),
          actor: q.actor?.trim() || undefined,
          action: q.action?.trim() || undefined,
          from: realTime(q.from),
          to: realTime(q.to),
          lang: langOf(q),
        }),
      );
    },
  );
};
