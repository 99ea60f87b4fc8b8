import {
  AdminIdParams,
  AdminTenantQuery,
  AdminUser,
  EnterpriseIdsBody,
  Envelope,
  Paged,
  PasswordSet,
  RoleIdsBody,
  StoredNameIssues,
  UserCreate,
  UserPatch,
  UserQuery,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { langOf } from '../../../platform/i18n.js';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { AdminUsersService } from './users.service.js';

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };

/** Users of a tenant, for its operators (ADR 031): the rules are the service's. */
export const adminUsersRoutes: FastifyPluginAsyncTypebox<{ users: AdminUsersService }> = async (app, { users }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/users',
    { ...auth, schema: { querystring: UserQuery, response: { 200: Envelope(Paged(AdminUser)) } } },
    async (req) => {
      const q = req.query;
      const filter = {
        q: q.q?.trim() || undefined,
        roleId: q.roleId,
        state: q.state,
        page: q.page ?? 1,
        limit: q.limit ?? 20,
      };
      return ok(req, await users.list(callerOf(req), filter, langOf(q)));
    },
  );

  app.get(
    '/api/admin/users/name-issues',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(StoredNameIssues) } } },
    async (req) => ok(req, await users.nameIssues(callerOf(req))),
  );

  app.post(
    '/api/admin/users',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: UserCreate, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => {
      return ok(req, String(await users.create(callerOf(req), req.body)));
    },
  );

  app.patch('/api/admin/users/:id', { ...auth, schema: { ...byId, body: UserPatch, response: done } }, async (req) => {
    await users.update(callerOf(req), req.params.id, req.body);
    return ok(req, null);
  });

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(`/api/admin/users/:id/${action}`, { ...auth, schema: { ...byId, response: done } }, async (req) => {
      await users.setDisabled(callerOf(req), req.params.id, disabled);
      return ok(req, null);
    });
  }

  app.post(
    '/api/admin/users/:id/password',
    { ...auth, schema: { ...byId, body: PasswordSet, response: done } },
    async (req) => {
      await users.setPassword(callerOf(req), req.params.id, req.body.password, req.body.temporary);
      return ok(req, null);
    },
  );

  app.post('/api/admin/users/:id/factors/reset', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    await users.resetFactors(callerOf(req), req.params.id);
    return ok(req, null);
  });

  app.post('/api/admin/users/:id/unlock', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    await users.unlock(callerOf(req), req.params.id);
    return ok(req, null);
  });

  app.put(
    '/api/admin/users/:id/roles',
    { ...auth, schema: { ...byId, body: RoleIdsBody, response: done } },
    async (req) => {
      await users.setRoles(callerOf(req), req.params.id, req.body.roleIds);
      return ok(req, null);
    },
  );

  app.put(
    '/api/admin/users/:id/enterprises',
    { ...auth, schema: { ...byId, body: EnterpriseIdsBody, response: done } },
    async (req) => {
      await users.setEnterprises(callerOf(req), req.params.id, req.body.enterpriseIds);
      return ok(req, null);
    },
  );
};
