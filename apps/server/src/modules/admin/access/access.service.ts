/** Roles, permission codes, applications and workbenches of a tenant, for its operators (ADR 031). */
import {
  ResultCode,
  isOperatorCode,
  type AdminNamed,
  type AdminPermission,
  type AdminRole,
  type NamedInput,
  type NamedPatch,
  type PermissionInput,
  type PermissionPatch,
  type RoleInput,
  type RolePatch,
} from '@portal/contracts';
import { defaultRoleRefusal } from '../../../db/role-powers.js';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { rowId, type RequestedId } from '../../../platform/ids.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import type { Caller, OperatorGate } from '../operators.service.js';
import type { AdminAccessRepository } from './access.repository.js';

export interface AdminAccessServiceDeps {
  repo: AdminAccessRepository;
  operatorOf: OperatorGate;
  bus: Pick<InvalidationBus, 'publish'>;
}

/** What an operator lists, creates and renames: a tenant's applications or workbenches. */
export type NamedKind = 'applications' | 'workbenches';

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

export function createAdminAccessService(deps: AdminAccessServiceDeps) {
  const { repo, operatorOf, bus } = deps;

  return {
    async roles(caller: Caller): Promise<AdminRole[]> {
      return repo.roles((await operatorOf(caller)).tenantId);
    },

    async createRole(caller: Caller, r: RoleInput): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      return repo.createRole(tenantId, r).catch(refused);
    },

    async updateRole(caller: Caller, id: RequestedId, p: RolePatch): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      if (!(await repo.updateRole(tenantId, rowId(id), p).catch(refused))) throw errors.notFound();
    },

    /** The role's codes become these; never those of the role the operator acts in (a lock-out). */
    async setRolePermissions(caller: Caller, role: RequestedId, permissionIds: RequestedId[]): Promise<void> {
      const { tenantId, session } = await operatorOf(caller);
      const roleId = rowId(role);
      const ids = permissionIds.map(rowId);
      if (!(await repo.permissionsOfTenant(tenantId, ids))) throw errors.notFound();
      // Taking the console's own code from the role one acts in would lock oneself out.
      if (roleId === session.roleId) throw new AppError(ResultCode.BAD_REQUEST, 'operatorOwnRole');
      const result = await repo.setRolePermissions(tenantId, roleId, ids).catch(refused);
      if (result !== 'done') throw errors.notFound();
      // Cached menus and permission answers of everyone in the tenant may have changed.
      await bus.publish({ kind: 'tenant', tenant: tenantId });
    },

    async permissions(caller: Caller): Promise<AdminPermission[]> {
      return repo.permissions((await operatorOf(caller)).tenantId);
    },

    async createPermission(caller: Caller, p: PermissionInput): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      const { code, type, status } = p;
      // A code that administers is enforced from the start: status 0 would give it to everybody.
      if (isOperatorCode(code) && ((type ?? 1) !== 1 || (status ?? 1) !== 1))
        throw new AppError(ResultCode.BAD_REQUEST, 'operatorCodeFixed', { code });
      return repo.createPermission(tenantId, p).catch(refused);
    },

    async updatePermission(caller: Caller, requested: RequestedId, p: PermissionPatch): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      const id = rowId(requested);
      // A code that administers stays enforced: status 0 would give it to everyone of the tenant.
      if (p.status !== undefined || p.type !== undefined) {
        const code = await repo.operatorCodeOf(tenantId, id);
        if (code) throw new AppError(ResultCode.BAD_REQUEST, 'operatorCodeFixed', { code });
      }
      if (!(await repo.updatePermission(tenantId, id, p).catch(refused))) throw errors.notFound();
    },

    async named(caller: Caller, kind: NamedKind): Promise<AdminNamed[]> {
      return repo[kind].list((await operatorOf(caller)).tenantId);
    },

    async createNamed(caller: Caller, kind: NamedKind, i: NamedInput): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      return repo[kind].create(tenantId, i).catch(refused);
    },

    async updateNamed(caller: Caller, kind: NamedKind, id: RequestedId, p: NamedPatch): Promise<void> {
      const { tenantId } = await operatorOf(caller);
      if (!(await repo[kind].update(tenantId, rowId(id), p))) throw errors.notFound();
    },
  };
}

export type AdminAccessService = ReturnType<typeof createAdminAccessService>;
