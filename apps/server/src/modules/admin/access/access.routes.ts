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
  ResultCode,
  RoleInput,
  RolePatch,
  isOperatorCode,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { defaultRoleRefusal } from '../../../db/role-powers.js';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { rowId } from '../../../platform/ids.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import type { OperatorGate } from '../../../platform/operators.js';
import { ok } from '../../../platform/reply.js';
import type { AdminAccessRepository } from './access.repository.js';

const done = { 200: Envelope(Type.Null()) };
const created = { 200: Envelope(Type.String()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };

/**
 * A code already used in the tenant (a unique index said so) is a 409 that names it; so is a change
 * that would give the default role, which every newcomer gets, a code that administers (ADR 036).
 */
const refused = (err: unknown): never => {
  if (violatedConstraint(err)) throw new AppError(ResultCode.CONFLICT, 'codeTaken');
  const codes = defaultRoleRefusal(err);
  if (codes) throw new AppError(ResultCode.CONFLICT, 'defaultRoleOperatorCode', { codes: codes.join(', ') });
  throw err;
};

/** Roles, permission codes, applications and workbenches of a tenant (ADR 031). */
export const adminAccessRoutes: FastifyPluginAsyncTypebox<{
  repo: AdminAccessRepository;
  operatorOf: OperatorGate;
  bus: Pick<InvalidationBus, 'publish'>;
}> = async (app, { repo, operatorOf, bus }) => {
  const auth = { preHandler: app.authenticate };

  app.get(
    '/api/admin/roles',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminRole)) } } },
    async (req) => ok(req, await repo.roles((await operatorOf(req)).tenantId)),
  );
  app.post(
    '/api/admin/roles',
    { ...auth, schema: { querystring: AdminTenantQuery, body: RoleInput, response: created } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      return ok(req, String(await repo.createRole(tenantId, req.body).catch(refused)));
    },
  );
  app.patch('/api/admin/roles/:id', { ...auth, schema: { ...byId, body: RolePatch, response: done } }, async (req) => {
    const { tenantId } = await operatorOf(req);
    if (!(await repo.updateRole(tenantId, rowId(req.params.id), req.body).catch(refused))) throw errors.notFound();
    return ok(req, null);
  });
  app.put(
    '/api/admin/roles/:id/permissions',
    { ...auth, schema: { ...byId, body: PermissionIdsBody, response: done } },
    async (req) => {
      const { tenantId, session } = await operatorOf(req);
      const roleId = rowId(req.params.id);
      const ids = req.body.permissionIds.map(rowId);
      if (!(await repo.permissionsOfTenant(tenantId, ids))) throw errors.notFound();
      // Taking the console's own code from the role one acts in would lock oneself out.
      if (roleId === session.roleId) throw new AppError(ResultCode.BAD_REQUEST, 'operatorOwnRole');
      const result = await repo.setRolePermissions(tenantId, roleId, ids).catch(refused);
      if (result !== 'done') throw errors.notFound();
      // Cached menus and permission answers of everyone in the tenant may have changed.
      await bus.publish({ kind: 'tenant', tenant: tenantId });
      return ok(req, null);
    },
  );

  app.get(
    '/api/admin/permissions',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminPermission)) } } },
    async (req) => ok(req, await repo.permissions((await operatorOf(req)).tenantId)),
  );
  app.post(
    '/api/admin/permissions',
    { ...auth, schema: { querystring: AdminTenantQuery, body: PermissionInput, response: created } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const { code, type, status } = req.body;
      // A code that administers is enforced from the start: status 0 would give it to everybody.
      if (isOperatorCode(code) && ((type ?? 1) !== 1 || (status ?? 1) !== 1))
        throw new AppError(ResultCode.BAD_REQUEST, 'operatorCodeFixed', { code });
      return ok(req, String(await repo.createPermission(tenantId, req.body).catch(refused)));
    },
  );
  app.patch(
    '/api/admin/permissions/:id',
    { ...auth, schema: { ...byId, body: PermissionPatch, response: done } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const id = rowId(req.params.id);
      // A code that administers stays enforced: status 0 would give it to everyone of the tenant.
      if (req.body.status !== undefined || req.body.type !== undefined) {
        const code = await repo.operatorCodeOf(tenantId, id);
        if (code) throw new AppError(ResultCode.BAD_REQUEST, 'operatorCodeFixed', { code });
      }
      if (!(await repo.updatePermission(tenantId, id, req.body).catch(refused))) throw errors.notFound();
      return ok(req, null);
    },
  );

  for (const kind of ['applications', 'workbenches'] as const) {
    const named = repo[kind];
    app.get(
      `/api/admin/${kind}`,
      { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(Type.Array(AdminNamed)) } } },
      async (req) => ok(req, await named.list((await operatorOf(req)).tenantId)),
    );
    app.post(
      `/api/admin/${kind}`,
      { ...auth, schema: { querystring: AdminTenantQuery, body: NamedInput, response: created } },
      async (req) => {
        const { tenantId } = await operatorOf(req);
        return ok(req, String(await named.create(tenantId, req.body).catch(refused)));
      },
    );
    app.patch(
      `/api/admin/${kind}/:id`,
      { ...auth, schema: { ...byId, body: NamedPatch, response: done } },
      async (req) => {
        const { tenantId } = await operatorOf(req);
        if (!(await named.update(tenantId, rowId(req.params.id), req.body))) throw errors.notFound();
        return ok(req, null);
      },
    );
  }
};
