import {
  AdminIdParams,
  AdminNamed,
  AdminPermission,
  AdminRole,
  AdminTenantQuery,
  Envelope,
  NamedInput,
  NamedPatch,
  PermissionIdsBody,
  PermissionInput,
  PermissionPatch,
  RoleInput,
  RolePatch,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ok } from '../../../platform/reply.js';
import { callerOf } from '../caller.js';
import type { AdminAccessService } from './access.service.js';

const done = { 200: Envelope(Type.Null()) };
const created = { 200: Envelope(Type.String()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };

/** Roles, permission codes, applications and workbenches of a tenant (ADR 031): the rules are the service's. */
export const adminAccessRoutes: FastifyPluginAsyncTypebox<{ access: AdminAccessService }> = async (app, { access }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/roles',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminRole)) } } },
    async (req) => ok(req, await access.roles(callerOf(req))),
  );
  app.post(
    '/api/admin/roles',
    { ...auth, schema: { querystring: AdminTenantQuery, body: RoleInput, response: created } },
    async (req) => ok(req, String(await access.createRole(callerOf(req), req.body))),
  );
  app.patch('/api/admin/roles/:id', { ...auth, schema: { ...byId, body: RolePatch, response: done } }, async (req) => {
    await access.updateRole(callerOf(req), req.params.id, req.body);
    return ok(req, null);
  });
  app.put(
    '/api/admin/roles/:id/permissions',
    { ...auth, schema: { ...byId, body: PermissionIdsBody, response: done } },
    async (req) => {
      await access.setRolePermissions(callerOf(req), req.params.id, req.body.permissionIds);
      return ok(req, null);
    },
  );

  app.get(
    '/api/admin/permissions',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminPermission)) } } },
    async (req) => ok(req, await access.permissions(callerOf(req))),
  );
  app.post(
    '/api/admin/permissions',
    { ...auth, schema: { querystring: AdminTenantQuery, body: PermissionInput, response: created } },
    async (req) => ok(req, String(await access.createPermission(callerOf(req), req.body))),
  );
  app.patch(
    '/api/admin/permissions/:id',
    { ...auth, schema: { ...byId, body: PermissionPatch, response: done } },
    async (req) => {
      await access.updatePermission(callerOf(req), req.params.id, req.body);
      return ok(req, null);
    },
  );

  for (const kind of ['applications', 'workbenches'] as const) {
    app.get(
      `/api/admin/${kind}`,
      { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminNamed)) } } },
      async (req) => ok(req, await access.named(callerOf(req), kind)),
    );
    app.post(
      `/api/admin/${kind}`,
      { ...auth, schema: { querystring: AdminTenantQuery, body: NamedInput, response: created } },
      async (req) => ok(req, String(await access.createNamed(callerOf(req), kind, req.body))),
    );
    app.patch(
      `/api/admin/${kind}/:id`,
      { ...auth, schema: { ...byId, body: NamedPatch, response: done } },
      async (req) => {
        await access.updateNamed(callerOf(req), kind, req.params.id, req.body);
        return ok(req, null);
      },
    );
  }
};
