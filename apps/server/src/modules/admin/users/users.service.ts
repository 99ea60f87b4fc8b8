/**
 * Users of a tenant, for its operators (ADR 031): list, create, edit, disable, set a password,
 * unlock, roles and enterprises. What ends a user's access (disable, a new password, a role or
 * enterprise taken away) ends the sessions concerned on every instance at once. An operator does
 * none of it to their own account: a slip would lock them out (their own password is 修改密码's).
 */
import {
  OPERATOR_PERMISSION,
  ResultCode,
  isValidPhone,
  type AdminUser,
  type StoredNameIssues,
  type UserCreate,
  type UserPatch,
} from '@portal/contracts';
import { violatedConstraint } from '../../../db/violation.js';
import { AppError, errors } from '../../../platform/errors.js';
import { optionalRowId, rowId, type RequestedId } from '../../../platform/ids.js';
import type { Lang } from '../../../platform/i18n.js';
import type { InvalidationBus } from '../../../platform/invalidation.js';
import { acceptOptionalPersonName, acceptPersonName, acceptUsername, nameReport } from '../../../platform/names.js';
import type { Passwords } from '../../../platform/passwords.js';
import { enrolGrace, factorRequired, type SecurityPolicies } from '../../../platform/security-policy.js';
import type { Caller, OperatorGate } from '../operators.service.js';
import type { AdminUserRow, AdminUsersRepository, UserFilter } from './users.repository.js';

/**
 * Codes whose holder reaches other people's accounts: the console (setting passwords and factors,
 * minting OpenID clients) and scripts on the portal's origin (every session a browser holds there).
 */
const ACCOUNT_REACHING = [OPERATOR_PERMISSION, 'microapp:manage'] as const;

export interface AdminUsersServiceDeps {
  repo: AdminUsersRepository;
  operatorOf: OperatorGate;
  /** A new password's rule and hash (ADR 038). */
  passwords: Pick<Passwords, 'accept'>;
  bus: Pick<InvalidationBus, 'publish'>;
  phonePattern: string;
  /** The tenant's policy: whether a listed user must add a second factor, and by when. */
  policies: Pick<SecurityPolicies, 'of'>;
}

export function createAdminUsersService(deps: AdminUsersServiceDeps) {
  const { repo, operatorOf } = deps;

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
    caller: Caller,
    requested: RequestedId,
    named: { roleIds?: RequestedId[]; enterpriseIds?: RequestedId[] } = {},
  ) => {
    const operator = await operatorOf(caller);
    const userId = rowId(requested);
    const roleIds = (named.roleIds ?? []).map(rowId);
    const enterpriseIds = (named.enterpriseIds ?? []).map(rowId);
    if (!(await repo.allTenants(operator.tenantId, roleIds, enterpriseIds))) throw errors.notFound();
    if (userId === operator.session.userId) throw new AppError(ResultCode.BAD_REQUEST, 'operatorSelf');
    return { tenantId: operator.tenantId, userId, roleIds, enterpriseIds };
  };
  /**
   * What stays with people though a service account may provision users (ADR 056): giving a role
   * that reaches people's accounts (`ACCOUNT_REACHING`: the person it makes, with a password the
   * account set, would hold every power kept from the account) and changing a user's number (a
   * password reset by SMS, and an SMS code as a second factor, go to it).
   */
  const peopleOnly = async (
    caller: Caller,
    tenantId: number,
    userId: number | null,
    change: { roleIds?: number[]; mobile?: unknown },
  ) => {
    if (!caller.session.serviceAccount) return;
    const refused = () => new AppError(ResultCode.NO_PERMISSION, 'serviceAccountPeopleOnly');
    if (userId !== null && change.mobile !== undefined) throw refused();
    if (change.roleIds && (await repo.grantsRoleWith(tenantId, userId, change.roleIds, ACCOUNT_REACHING)))
      throw refused();
  };
  const found = async (userId: number, result: boolean | 'done' | 'none' | 'foreign') => {
    if (result === false || result === 'none' || result === 'foreign') throw errors.notFound();
    await deps.bus.publish({ kind: 'user', id: userId });
  };

  return {
    /** A page of the tenant's users; `roleId` as the request names it (none or empty: any role). */
    async list(
      caller: Caller,
      filter: Omit<UserFilter, 'lang' | 'roleId'> & { roleId?: string | undefined },
      lang: Lang,
    ) {
      const { tenantId } = await operatorOf(caller);
      const [page, policy] = await Promise.all([
        repo.list(tenantId, { ...filter, roleId: optionalRowId(filter.roleId) ?? undefined, lang }),
        deps.policies.of(tenantId),
      ]);
      // The sign-in's own rule (platform/security-policy.ts): who must have a factor, and the grace.
      const standing = ({ operator, factorKinds, factorDueSince, ...u }: AdminUserRow): AdminUser => {
        const allowed = factorKinds.split(',').some((k) => (policy.allowedFactors as readonly string[]).includes(k));
        const due = factorRequired(policy, operator) && !allowed;
        return { ...u, secondFactor: due ? enrolGrace(policy, factorDueSince) : null };
      };
      return { total: page.total, records: page.records.map(standing) };
    },

    /** Stored names the grammar refuses (ADR 032): told, for an operator to rename; nothing changes. */
    async nameIssues(caller: Caller): Promise<StoredNameIssues> {
      const { tenantId } = await operatorOf(caller);
      const report = await nameReport(repo.storedNames(tenantId));
      return {
        total: report.total,
        records: report.records.map((r) => ({
          id: String(r.id),
          username: r.username,
          name: r.name,
          issues: r.issues,
        })),
      };
    },

    /** A new user, with a password the operator gives (temporary unless told otherwise); its id. */
    async create(caller: Caller, u: UserCreate): Promise<number> {
      const { tenantId } = await operatorOf(caller);
      const username = acceptUsername(u.username);
      const name = acceptPersonName(u.name);
      const nameEn = acceptOptionalPersonName(u.nameEn);
      checkMobile(u.mobile);
      const roleIds = (u.roleIds ?? []).map(rowId);
      const enterpriseIds = (u.enterpriseIds ?? []).map(rowId);
      if (!(await repo.allTenants(tenantId, roleIds, enterpriseIds))) throw errors.notFound();
      await peopleOnly(caller, tenantId, null, { roleIds });
      const id = await repo
        .create(tenantId, {
          username,
          name,
          nameEn,
          mobile: u.mobile?.trim() || null,
          passwordHash: await (await deps.passwords.accept(u.password, { tenantId, username })).hash(),
          // The operator knows it: the user sets their own at the first sign-in unless told otherwise.
          mustChangePassword: u.temporary !== false,
          roleIds,
          enterpriseIds,
        })
        .catch(taken);
      if (id === null) throw errors.notFound();
      return id;
    },

    async update(caller: Caller, requested: RequestedId, p: UserPatch): Promise<void> {
      const { tenantId, session } = await operatorOf(caller);
      const userId = rowId(requested);
      checkMobile(p.mobile);
      await peopleOnly(caller, tenantId, userId, { mobile: p.mobile });
      // Their own sign-in name is not an operator's to slip on: another operator renames them.
      if (p.username !== undefined && userId === session.userId)
        throw new AppError(ResultCode.BAD_REQUEST, 'operatorSelf');
      const change = {
        // A rename is how an operator mends a stored name the grammar reports (ADR 032).
        ...(p.username !== undefined ? { username: acceptUsername(p.username) } : {}),
        ...(p.name !== undefined ? { name: acceptPersonName(p.name) } : {}),
        ...(p.nameEn !== undefined ? { nameEn: acceptOptionalPersonName(p.nameEn) } : {}),
        ...(p.mobile !== undefined ? { mobile: p.mobile?.trim() || null } : {}),
      };
      // A number an operator gives another user is the tenant's word for it; their own is not (ADR 023).
      const vouch = userId !== session.userId;
      await found(userId, await repo.update(tenantId, userId, change, { vouch }).catch(taken));
    },

    /** Disables (every session and sign-on session ends) or enables the user. */
    async setDisabled(caller: Caller, requested: RequestedId, disabled: boolean): Promise<void> {
      const { tenantId, userId } = await target(caller, requested);
      await found(userId, await repo.setDisabled(tenantId, userId, disabled));
    },

    /** A new password (temporary unless told otherwise, ADR 033): the lock is lifted and every session ends. */
    async setPassword(
      caller: Caller,
      requested: RequestedId,
      cipher: string,
      temporary: boolean | undefined,
    ): Promise<void> {
      const { tenantId, userId } = await target(caller, requested);
      const username = await repo.usernameOf(tenantId, userId);
      if (username === null) throw errors.notFound();
      const hash = await (await deps.passwords.accept(cipher, { tenantId, username, userId })).hash();
      await found(userId, await repo.setPassword(tenantId, userId, hash, temporary !== false));
    },

    /** Removes every second factor of the user (a lost phone, a lost key): told so at their next sign-in. */
    async resetFactors(caller: Caller, requested: RequestedId): Promise<void> {
      const { tenantId, userId } = await target(caller, requested);
      await found(userId, await repo.resetFactors(tenantId, userId));
    },

    async unlock(caller: Caller, requested: RequestedId): Promise<void> {
      const { tenantId, userId } = await target(caller, requested);
      await found(userId, await repo.unlock(tenantId, userId));
    },

    /** The user's roles become these; sessions acting in a role taken away end. */
    async setRoles(caller: Caller, requested: RequestedId, requestedRoles: RequestedId[]): Promise<void> {
      const { tenantId, userId, roleIds } = await target(caller, requested, { roleIds: requestedRoles });
      await peopleOnly(caller, tenantId, userId, { roleIds });
      await found(userId, await repo.setRoles(tenantId, userId, roleIds));
    },

    /** The user's enterprises become these; sessions acting in an enterprise taken away end. */
    async setEnterprises(caller: Caller, requested: RequestedId, requestedEnterprises: RequestedId[]): Promise<void> {
      const { tenantId, userId, enterpriseIds } = await target(caller, requested, {
        enterpriseIds: requestedEnterprises,
      });
      await found(userId, await repo.setEnterprises(tenantId, userId, enterpriseIds));
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
