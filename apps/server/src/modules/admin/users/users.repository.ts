import { OPERATOR_PERMISSION, type AdminUser, type UserCreate, type UserPatch } from '@portal/contracts';
import { and, eq, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.js';
import { chinaTime, containing, englishOf, nameIn, pageOf, totalRows } from '../../../db/expressions.js';
import { storePassword } from '../../../db/passwords.js';
import { allOfTenant } from '../../../db/tenant-rows.js';
import type { Lang } from '../../../platform/i18n.js';
import {
  enterpriseMembers,
  enterprises,
  loginChallenges,
  permissions,
  recoveryCodes,
  rolePermissions,
  rememberedBrowsers,
  roles,
  sessions,
  ssoSessions,
  userFactors,
  userRoles,
  users,
} from '../../../db/schema.js';

export interface UserFilter {
  q?: string | undefined;
  roleId?: number | undefined;
  state?: 'active' | 'disabled' | 'locked' | undefined;
  page: number;
  limit: number;
  /** The language role and enterprise names are given in. */
  lang: Lang;
}

export interface NewUser extends Omit<UserCreate, 'password' | 'temporary' | 'roleIds' | 'enterpriseIds'> {
  passwordHash: string;
  /** The operator's password is temporary: the user must change it at their first sign-in (ADR 033). */
  mustChangePassword: boolean;
  roleIds: number[];
  enterpriseIds: number[];
}

export interface StoredUserNames {
  id: number;
  tenantId: number;
  username: string;
  name: string;
  nameEn: string;
  nickname: string | null;
}

const locked = sql<boolean>`coalesce(${users.lockedUntil} > now(), false)`;

/** A listed user, with what the second-factor rule needs (the service makes `secondFactor` of it). */
export type AdminUserRow = Omit<AdminUser, 'secondFactor'> & {
  operator: boolean;
  /** The kinds of the user's confirmed factors, joined by commas ('' for none). */
  factorKinds: string;
  factorDueSince: Date | null;
};

/**
 * The user's roles and enterprises as `[{id, name}]`, ids as text (ADR 021). The outer row is named
 * `users.id` in full: Drizzle writes a column alone as `"id"`, which the subquery's own tables would take.
 */
const rolesOf = (lang: Lang) => sql<AdminUser['roles']>`coalesce((
  SELECT json_agg(json_build_object('id', r.id::text, 'name', ${nameIn(lang, sql`r.title`, sql`r.translations`, 'title')})
    ORDER BY r.id)
  FROM ${userRoles} ur JOIN ${roles} r ON r.id = ur.role_id WHERE ur.user_id = users.id), '[]')`;
const enterprisesOf = (lang: Lang) => sql<AdminUser['enterprises']>`coalesce((
  SELECT json_agg(json_build_object('id', e.id::text, 'name', ${nameIn(lang, sql`e.name`, sql`e.translations`, 'name')})
    ORDER BY e.name)
  FROM ${enterpriseMembers} m JOIN ${enterprises} e ON e.id = m.enterprise_id WHERE m.user_id = users.id), '[]')`;

/**
 * Ends a user's live portal sessions — all of them, or those outside the roles or enterprises they
 * keep — and, with `sso`, their sign-on sessions, so no new ticket is given out for them.
 */
async function endSessions(tx: Tx, userId: number, keep?: SQL): Promise<void> {
  await tx
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? sql`NOT (${keep})` : undefined));
  if (!keep) {
    await tx
      .update(ssoSessions)
      .set({ endedAt: sql`now()` })
      .where(and(eq(ssoSessions.userId, userId), isNull(ssoSessions.endedAt)));
  }
}

export function createAdminUsersRepository(db: Db) {
  /** Runs `work` on a user of the tenant inside one transaction; false when there is no such user. */
  const onUser = (tenantId: number, userId: number, work: (tx: Tx) => Promise<void>) =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)))
        .for('update');
      if (!row) return false;
      await work(tx);
      return true;
    });

  return {
    async list(tenantId: number, f: UserFilter): Promise<{ records: AdminUserRow[]; total: number }> {
      const where = and(
        eq(users.tenantId, tenantId),
        f.q
          ? or(
              sql`${users.username} ILIKE ${containing(f.q)}`,
              sql`${users.name} ILIKE ${containing(f.q)}`,
              sql`${users.mobile} ILIKE ${containing(f.q)}`,
            )
          : undefined,
        f.roleId
          ? sql`EXISTS (SELECT 1 FROM ${userRoles} ur WHERE ur.user_id = users.id AND ur.role_id = ${f.roleId})`
          : undefined,
        f.state === 'disabled' ? sql`${users.disabledAt} IS NOT NULL` : undefined,
        f.state === 'locked' ? locked : undefined,
        f.state === 'active' ? sql`${users.disabledAt} IS NULL AND NOT ${locked}` : undefined,
      );
      const rows = await db
        .select({
          id: sql<string>`${users.id}::text`,
          username: users.username,
          name: users.name,
          nameEn: englishOf(users.translations, 'name'),
          mobile: users.mobile,
          disabled: sql<boolean>`${users.disabledAt} IS NOT NULL`,
          locked,
          lastLoginAt: chinaTime(users.lastLoginAt),
          createdAt: chinaTime(users.createdAt),
          roles: rolesOf(f.lang),
          enterprises: enterprisesOf(f.lang),
          operator: sql<boolean>`EXISTS (SELECT 1 FROM ${userRoles} ur
            JOIN ${rolePermissions} rp ON rp.role_id = ur.role_id
            JOIN ${permissions} p ON p.id = rp.permission_id
            WHERE ur.user_id = users.id AND p.code = ${OPERATOR_PERMISSION})`,
          // A proven mobile is the SMS factor where the policy allows it, as at sign-in.
          factorKinds: sql<string>`concat_ws(',', (SELECT string_agg(DISTINCT uf.kind, ',') FROM ${userFactors} uf
            WHERE uf.user_id = users.id AND uf.confirmed_at IS NOT NULL),
            CASE WHEN ${users.verifiedMobile} = ${users.mobile} THEN 'sms' END)`,
          factorDueSince: users.factorDueSince,
          total: totalRows(),
        })
        .from(users)
        .where(where)
        .orderBy(users.id)
        .limit(f.limit)
        .offset((f.page - 1) * f.limit);
      return pageOf(rows);
    },

    /** Creates the user with its roles and enterprises; null when one of those is not the tenant's. */
    async create(tenantId: number, u: NewUser): Promise<number | null> {
      return db.transaction(async (tx) => {
        if (!(await allOfTenant(tx, roles, tenantId, u.roleIds))) return null;
        if (!(await allOfTenant(tx, enterprises, tenantId, u.enterpriseIds))) return null;
        const [row] = await tx
          .insert(users)
          .values({
            tenantId,
            username: u.username,
            passwordHash: u.passwordHash,
            mustChangePassword: u.mustChangePassword,
            name: u.name,
            translations: u.nameEn ? { en: { name: u.nameEn } } : {},
            mobile: u.mobile || null,
            // The tenant's word for a number its operator gives: see `update`.
            verifiedMobile: u.mobile || null,
            defaultRoleId: u.roleIds[0] ?? null,
            defaultEnterpriseId: u.enterpriseIds[0] ?? null,
          })
          .returning({ id: users.id });
        const userId = row!.id;
        if (u.roleIds.length) await tx.insert(userRoles).values(u.roleIds.map((roleId) => ({ userId, roleId })));
        if (u.enterpriseIds.length)
          await tx
            .insert(enterpriseMembers)
            .values(u.enterpriseIds.map((enterpriseId) => ({ userId, enterpriseId })))
            .onConflictDoNothing();
        return userId;
      });
    },

    /** Whether every role and enterprise named is the tenant's (checked before anything costly). */
    async allTenants(tenantId: number, roleIds: number[], enterpriseIds: number[]): Promise<boolean> {
      return db.transaction(
        async (tx) =>
          (await allOfTenant(tx, roles, tenantId, roleIds)) &&
          (await allOfTenant(tx, enterprises, tenantId, enterpriseIds)),
      );
    },

    /**
     * Whether giving `roleIds` would give the user (none yet: `userId` null) a role granted one of
     * `codes` that they do not hold already.
     */
    async grantsRoleWith(
      tenantId: number,
      userId: number | null,
      roleIds: number[],
      codes: readonly string[],
    ): Promise<boolean> {
      if (roleIds.length === 0) return false;
      const [r] = await db
        .select({ one: sql`1` })
        .from(roles)
        .innerJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(
          and(
            eq(roles.tenantId, tenantId),
            inArray(roles.id, roleIds),
            inArray(permissions.code, [...codes]),
            userId === null
              ? undefined
              : sql`NOT EXISTS (SELECT 1 FROM ${userRoles} ur WHERE ur.user_id = ${userId} AND ur.role_id = ${roles.id})`,
          ),
        )
        .limit(1);
      return r !== undefined;
    },

    /**
     * Every user's stored names, a batch at a time in id order (the tenant's, or every tenant's
     * for null): what the name grammar's report reads (ADR 032), at start-up and for operators.
     */
    async *storedNames(tenantId: number | null, batch = 2000): AsyncGenerator<StoredUserNames[]> {
      for (let after = 0; ;) {
        const rows = await db
          .select({
            id: users.id,
            tenantId: users.tenantId,
            username: users.username,
            name: users.name,
            nameEn: englishOf(users.translations, 'name'),
            nickname: users.nickname,
          })
          .from(users)
          .where(and(sql`${users.id} > ${after}`, tenantId === null ? undefined : eq(users.tenantId, tenantId)))
          .orderBy(users.id)
          .limit(batch);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]!.id;
      }
    },

    async usernameOf(tenantId: number, userId: number): Promise<string | null> {
      const [row] = await db
        .select({ username: users.username })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
      return row?.username ?? null;
    },

    /**
     * A change of names and number. A new number an operator gives another user counts as proven
     * (`vouch`): the operator acts for the tenant and can add the user to any enterprise directly,
     * so an invitation taken up through it grants nothing they could not (ADR 023). Without
     * `vouch` (an operator's own number) a new number is unproven until its SMS code is checked;
     * the number kept as it was keeps its state either way.
     */
    update(tenantId: number, userId: number, p: UserPatch, { vouch }: { vouch: boolean }): Promise<boolean> {
      const mobile = p.mobile === undefined ? undefined : p.mobile || null;
      return onUser(tenantId, userId, async (tx) => {
        await tx
          .update(users)
          .set({
            ...(p.username !== undefined ? { username: p.username } : {}),
            ...(p.name !== undefined ? { name: p.name } : {}),
            ...(mobile !== undefined ? { mobile } : {}),
            ...(mobile && vouch
              ? {
                  verifiedMobile: sql`CASE WHEN ${users.mobile} IS DISTINCT FROM ${mobile} THEN ${mobile} ELSE ${users.verifiedMobile} END`,
                }
              : {}),
            ...(p.nameEn !== undefined
              ? {
                  translations: sql`jsonb_set(${users.translations}, '{en}', jsonb_build_object('name', ${p.nameEn}::text))`,
                }
              : {}),
          })
          .where(eq(users.id, userId));
      });
    },

    /** Disables (ending every session and sign-on session at once) or enables the user. */
    setDisabled(tenantId: number, userId: number, disabled: boolean): Promise<boolean> {
      return onUser(tenantId, userId, async (tx) => {
        await tx
          .update(users)
          .set({ disabledAt: disabled ? sql`coalesce(${users.disabledAt}, now())` : null })
          .where(eq(users.id, userId));
        if (disabled) await endSessions(tx, userId);
      });
    },

    /**
     * A new password set by an operator: the lock is lifted and every session of the user ends; a
     * temporary one must be changed at the user's next sign-in (ADR 033).
     */
    setPassword(tenantId: number, userId: number, passwordHash: string, mustChangePassword: boolean): Promise<boolean> {
      return onUser(tenantId, userId, async (tx) => {
        await storePassword(tx, userId, { passwordHash, temporary: mustChangePassword });
      });
    },

    /**
     * The user's second factors reset (ADR 053): every factor, recovery code, remembered browser and
     * pending sign-in of theirs goes, in one transaction; `factors_reset_at` tells their next
     * sign-in, and a grace to enrol again starts anew. Their sessions stay: the password still holds.
     */
    resetFactors(tenantId: number, userId: number): Promise<boolean> {
      return onUser(tenantId, userId, async (tx) => {
        await tx.delete(userFactors).where(eq(userFactors.userId, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.delete(rememberedBrowsers).where(eq(rememberedBrowsers.userId, userId));
        await tx.delete(loginChallenges).where(eq(loginChallenges.userId, userId));
        await tx
          .update(users)
          .set({ factorsResetAt: sql`now()`, factorDueSince: null })
          .where(eq(users.id, userId));
      });
    },

    unlock(tenantId: number, userId: number): Promise<boolean> {
      return onUser(tenantId, userId, async (tx) => {
        await tx
          .update(users)
          .set({ failedLogins: 0, lockedUntil: null, lastFailedAt: null })
          .where(eq(users.id, userId));
      });
    },

    /**
     * The user's roles become `roleIds` (all the tenant's, else nothing changes: 'foreign'); a
     * default outside them is cleared, and sessions acting in a role taken away end.
     */
    async setRoles(tenantId: number, userId: number, roleIds: number[]): Promise<'done' | 'none' | 'foreign'> {
      let foreign = false;
      const found = await onUser(tenantId, userId, async (tx) => {
        if (!(await allOfTenant(tx, roles, tenantId, roleIds))) {
          foreign = true;
          return;
        }
        await tx
          .delete(userRoles)
          .where(and(eq(userRoles.userId, userId), roleIds.length ? notInArray(userRoles.roleId, roleIds) : undefined));
        if (roleIds.length)
          await tx
            .insert(userRoles)
            .values(roleIds.map((roleId) => ({ userId, roleId })))
            .onConflictDoNothing();
        const kept = roleIds.length ? inArray(users.defaultRoleId, roleIds) : sql`false`;
        await tx
          .update(users)
          .set({ defaultRoleId: sql`CASE WHEN ${kept} THEN ${users.defaultRoleId} ELSE ${roleIds[0] ?? null} END` })
          .where(eq(users.id, userId));
        await endSessions(
          tx,
          userId,
          roleIds.length ? sql`${sessions.roleId} IS NULL OR ${inArray(sessions.roleId, roleIds)}` : sql`false`,
        );
      });
      return foreign ? 'foreign' : found ? 'done' : 'none';
    },

    /** As setRoles, for the enterprises the user is a member of. */
    async setEnterprises(tenantId: number, userId: number, ids: number[]): Promise<'done' | 'none' | 'foreign'> {
      let foreign = false;
      const found = await onUser(tenantId, userId, async (tx) => {
        if (!(await allOfTenant(tx, enterprises, tenantId, ids))) {
          foreign = true;
          return;
        }
        await tx
          .delete(enterpriseMembers)
          .where(
            and(
              eq(enterpriseMembers.userId, userId),
              ids.length ? notInArray(enterpriseMembers.enterpriseId, ids) : undefined,
            ),
          );
        if (ids.length)
          await tx
            .insert(enterpriseMembers)
            .values(ids.map((enterpriseId) => ({ userId, enterpriseId })))
            .onConflictDoNothing();
        const kept = ids.length ? inArray(users.defaultEnterpriseId, ids) : sql`false`;
        await tx
          .update(users)
          .set({
            defaultEnterpriseId: sql`CASE WHEN ${kept} THEN ${users.defaultEnterpriseId} ELSE ${ids[0] ?? null} END`,
          })
          .where(eq(users.id, userId));
        await endSessions(
          tx,
          userId,
          ids.length ? sql`${sessions.enterpriseId} IS NULL OR ${inArray(sessions.enterpriseId, ids)}` : sql`false`,
        );
      });
      return foreign ? 'foreign' : found ? 'done' : 'none';
    },
  };
}

export type AdminUsersRepository = ReturnType<typeof createAdminUsersRepository>;
