import {
  AdminIdParams,
  AdminTenantQuery,
  Envelope,
  LoginHistoryExport,
  LoginHistoryExportQuery,
  LoginHistoryPage,
  LoginHistoryQuery,
  OnlineUsersQuery,
  Paged,
  SignIn,
  SignInParams,
  SignInsEnded,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { langOf } from '../../platform/i18n.js';
import { ok } from '../../platform/reply.js';
import type { Caller, SessionsService } from './sessions.service.js';

/** An operator's call as the console's gate reads it (as every admin route makes it). */
function callerOf(req: FastifyRequest): Caller {
  return {
    session: req.session!,
    tenant: (req.query as { tenant?: string } | undefined)?.tenant,
    actsOn: (tenantId) => {
      req.operatorTenant = tenantId;
    },
  };
}

const done = { 200: Envelope(Type.Null()) };
const OwnHistoryQuery = Type.Omit(LoginHistoryQuery, ['tenant', 'user']);

/**
 * A person's own sign-ins and login history (账户安全), and the tenant's online users and login
 * history for operators (docs/api.md#sessions).
 */
export const sessionsRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionsService }> = async (app, { sessions }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/front/security/sessions',
    { ...auth, schema: { response: { 200: Envelope(Type.Array(SignIn)) } } },
    async (req) => ok(req, await sessions.mySignIns(req.session!, langOf(req.query))),
  );
  app.post(
    '/api/front/security/sessions/:id/end',
    { ...auth, schema: { params: SignInParams, response: done } },
    async (req) => {
      await sessions.endMine(req.session!, req.params.id, req.ip);
      return ok(req, null);
    },
  );
  app.post(
    '/api/front/security/sessions/end-others',
    { ...auth, schema: { response: { 200: Envelope(SignInsEnded) } } },
    async (req) => ok(req, await sessions.endMyOthers(req.session!, req.ip)),
  );
  app.get(
    '/api/front/security/login-history',
    { ...auth, schema: { querystring: OwnHistoryQuery, response: { 200: Envelope(LoginHistoryPage) } } },
    async (req) => ok(req, await sessions.myHistory(req.session!, req.query)),
  );

  app.get(
    '/api/admin/online-users',
    { ...auth, schema: { querystring: OnlineUsersQuery, response: { 200: Envelope(Paged(SignIn)) } } },
    async (req) => ok(req, await sessions.onlineUsers(callerOf(req), req.query, langOf(req.query))),
  );
  app.post(
    '/api/admin/sign-ins/:id/end',
    { ...auth, schema: { querystring: AdminTenantQuery, params: SignInParams, response: done } },
    async (req) => {
      await sessions.endUserSignIn(callerOf(req), req.params.id);
      return ok(req, null);
    },
  );
  app.post(
    '/api/admin/online-users/:id/end',
    {
      ...auth,
      schema: {
        querystring: AdminTenantQuery,
        params: AdminIdParams,
        response: { 200: Envelope(SignInsEnded) },
      },
    },
    async (req) => ok(req, await sessions.endUserSignIns(callerOf(req), req.params.id)),
  );
  app.get(
    '/api/admin/login-history',
    { ...auth, schema: { querystring: LoginHistoryQuery, response: { 200: Envelope(LoginHistoryPage) } } },
    async (req) => ok(req, await sessions.history(callerOf(req), req.query, langOf(req.query))),
  );
  app.get(
    '/api/admin/login-history/export',
    // A copy of the history leaves the console: who took it is recorded.
    {
      ...auth,
      config: { auditedRead: true },
      schema: { querystring: LoginHistoryExportQuery, response: { 200: Envelope(LoginHistoryExport) } },
    },
    async (req) => ok(req, await sessions.exportHistory(callerOf(req), req.query, langOf(req.query))),
  );
};
