import {
  AdminIdParams,
  AdminTenantQuery,
  AdminUser,
  EnterpriseIdsBody,
  Envelope,
  Paged,
  PasswordSet,
  ResultCode,
  RoleIdsBody,
  StoredNameIssues,
  UserCreate,
  UserPatch,
  UserQuery,
  checkPassword,
  isValidPhone,
} from '@portal/contracts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { optionalRowId, rowId } from '../../../platform/ids.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import type { OperatorGate } from '../../../platform/operators.js';
import type { PasswordDecryptor } from '../../../platform/password-transport.js';
import { langOf } from '../../../platform/i18n.js';
import { acceptOptionalPersonName, acceptPersonName, acceptUsername, nameReport } from '../../../platform/names.js';
import { ok } from '../../../platform/reply.js';
import type { AdminUsersRepository } from './users.repository.js';

export interface AdminUsersDeps {
  repo: AdminUsersRepository;
  operatorOf: OperatorGate;
  decryptor: PasswordDecryptor;
  hashPassword: (password: string) => Promise<string>;
  bus: Pick<InvalidationBus, 'publish'>;
  phonePattern: string;
}

const done = { 200: Envelope(Type.Null()) };
const byId = { querystring: AdminTenantQuery, params: AdminIdParams };

/**
 * Users of a tenant, for its operators (ADR 031): list, create, edit, disable, set a password,
 * unlock, roles and enterprises. What ends a user's access (disable, a new password, a role or
 * enterprise taken away) ends the sessions concerned on every instance at once. An operator does
 * none of it to their own account: a slip would lock them out (their own password is 修改密码's).
 */
export const adminUsersRoutes: FastifyPluginAsyncTypebox<AdminUsersDeps> = async (app, deps) => {
  const { repo, operatorOf } = deps;
  const auth = { preHandler: app.authenticate };

  const newPassword = async (cipher: string, username: string) => {
    const password = deps.decryptor.decrypt(cipher);
    if (checkPassword(password, username).length > 0) throw new AppError(ResultCode.BAD_REQUEST, 'passwordRule');
    return deps.hashPassword(password);
  };
  const checkMobile = (mobile: string | null | undefined) => {
    if (mobile && !isValidPhone(mobile, deps.phonePattern)) throw new AppError(ResultCode.BAD_REQUEST, 'phoneInvalid');
  };
  const taken = (err: unknown): never => {
    const constraint = violatedConstraint(err);
    if (constraint === 'users_tenant_username') throw new AppError(ResultCode.CONFLICT, 'usernameTaken');
    if (constraint === 'users_tenant_mobile') throw new AppError(ResultCode.CONFLICT, 'mobileTaken');
    throw err;
  };
  /**
   * The user a call names, of the tenant acted on, not the operator themself; the roles and
   * enterprises it names must be the tenant's (an unknown id's answer, whoever the user is).
   */
  const target = async (
    req: Parameters<OperatorGate>[0] & { params: { id: string } },
    named: { roleIds?: number[]; enterpriseIds?: number[] } = {},
  ) => {
    const operator = await operatorOf(req);
    const userId = rowId(req.params.id);
    if (!(await repo.allTenants(operator.tenantId, named.roleIds ?? [], named.enterpriseIds ?? [])))
      throw errors.notFound();
    if (userId === operator.session.userId) throw new AppError(ResultCode.BAD_REQUEST, 'operatorSelf');
    return { tenantId: operator.tenantId, userId };
  };
  const found = async (userId: number, result: boolean | 'done' | 'none' | 'foreign') => {
    if (result === false || result === 'none' || result === 'foreign') throw errors.notFound();
    await deps.bus.publish({ kind: 'user', id: userId });
  };

  app.get(
    '/api/admin/users',
    { ...auth, schema: { querystring: UserQuery, response: { 200: Envelope(Paged(AdminUser)) } } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const q = req.query;
      const page = await repo.list(tenantId, {
        q: q.q?.trim() || undefined,
        roleId: optionalRowId(q.roleId) ?? undefined,
        state: q.state,
        page: q.page ?? 1,
        limit: q.limit ?? 20,
        lang: langOf(q),
      });
      return ok(req, page);
    },
  );

  // Stored names the grammar refuses (ADR 032): told, for an operator to rename; nothing changes.
  app.get(
    '/api/admin/users/name-issues',
    { ...auth, schema: { querystring: AdminTenantQuery, response: { 200: Envelope(StoredNameIssues) } } },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const report = await nameReport(repo.storedNames(tenantId));
      return ok(req, {
        total: report.total,
        records: report.records.map((r) => ({
          id: String(r.id),
          username: r.username,
          name: r.name,
          issues: r.issues,
        })),
      });
    },
  );

  app.post(
    '/api/admin/users',
    {
      ...auth,
      schema: { querystring: AdminTenantQuery, body: UserCreate, response: { 200: Envelope(Type.String()) } },
    },
    async (req) => {
      const { tenantId } = await operatorOf(req);
      const b = req.body;
      const username = acceptUsername(b.username);
      const name = acceptPersonName(b.name);
      const nameEn = acceptOptionalPersonName(b.nameEn);
      checkMobile(b.mobile);
      const roleIds = (b.roleIds ?? []).map(rowId);
      const enterpriseIds = (b.enterpriseIds ?? []).map(rowId);
      if (!(await repo.allTenants(tenantId, roleIds, enterpriseIds))) throw errors.notFound();
      const id = await repo
        .create(tenantId, {
          username,
          name,
          nameEn,
          mobile: b.mobile?.trim() || null,
          passwordHash: await newPassword(b.password, username),
          // The operator knows it: the user sets their own at the first sign-in unless told otherwise.
          mustChangePassword: b.temporary !== false,
          roleIds,
          enterpriseIds,
        })
        .catch(taken);
      if (id === null) throw errors.notFound();
      return ok(req, String(id));
    },
  );

  app.patch('/api/admin/users/:id', { ...auth, schema: { ...byId, body: UserPatch, response: done } }, async (req) => {
    const { tenantId, session } = await operatorOf(req);
    const b = req.body;
    checkMobile(b.mobile);
    const userId = rowId(req.params.id);
    // Their own sign-in name is not an operator's to slip on: another operator renames them.
    if (b.username !== undefined && userId === session.userId)
      throw new AppError(ResultCode.BAD_REQUEST, 'operatorSelf');
    const change = {
      // A rename is how an operator mends a stored name the grammar reports (ADR 032).
      ...(b.username !== undefined ? { username: acceptUsername(b.username) } : {}),
      ...(b.name !== undefined ? { name: acceptPersonName(b.name) } : {}),
      ...(b.nameEn !== undefined ? { nameEn: acceptOptionalPersonName(b.nameEn) } : {}),
      ...(b.mobile !== undefined ? { mobile: b.mobile?.trim() || null } : {}),
    };
    // A number an operator gives another user is the tenant's word for it; their own is not (ADR 023).
    const vouch = userId !== session.userId;
    await found(userId, await repo.update(tenantId, userId, change, { vouch }).catch(taken));
    return ok(req, null);
  });

  for (const [action, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(`/api/admin/users/:id/${action}`, { ...auth, schema: { ...byId, response: done } }, async (req) => {
      const { tenantId, userId } = await target(req);
      await found(userId, await repo.setDisabled(tenantId, userId, disabled));
      return ok(req, null);
    });
  }

  app.post(
    '/api/admin/users/:id/password',
    { ...auth, schema: { ...byId, body: PasswordSet, response: done } },
    async (req) => {
      const { tenantId, userId } = await target(req);
      const username = await repo.usernameOf(tenantId, userId);
      if (username === null) throw errors.notFound();
      const hash = await newPassword(req.body.password, username);
      await found(userId, await repo.setPassword(tenantId, userId, hash, req.body.temporary !== false));
      return ok(req, null);
    },
  );

  app.post('/api/admin/users/:id/unlock', { ...auth, schema: { ...byId, response: done } }, async (req) => {
    const { tenantId, userId } = await target(req);
    await found(userId, await repo.unlock(tenantId, userId));
    return ok(req, null);
  });

  app.put(
    '/api/admin/users/:id/roles',
    { ...auth, schema: { ...byId, body: RoleIdsBody, response: done } },
    async (req) => {
      const roleIds = req.body.roleIds.map(rowId);
      const { tenantId, userId } = await target(req, { roleIds });
      await found(userId, await repo.setRoles(tenantId, userId, roleIds));
      return ok(req, null);
    },
  );

  app.put(
    '/api/admin/users/:id/enterprises',
    { ...auth, schema: { ...byId, body: EnterpriseIdsBody, response: done } },
    async (req) => {
      const enterpriseIds = req.body.enterpriseIds.map(rowId);
      const { tenantId, userId } = await target(req, { enterpriseIds });
      await found(userId, await repo.setEnterprises(tenantId, userId, enterpriseIds));
      return ok(req, null);
    },
  );
};
