import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  applications,
  enterprises,
  roles,
  tenants,
  userApplications,
  userRoles,
  users,
  userWorkbenches,
  workbenches,
} from '../../db/schema.js';

const group = alias(enterprises, 'ge');
const defaultEnterprise = alias(enterprises, 'de');

export function createMembersRepository(db: Db) {
  return {
    /** The user's profile in the context of the session's enterprise; scoped to the tenant. */
    async userInfo(tenantId: number, userId: number, enterpriseId: number | null) {
      const [row] = await db
        .select({
          username: users.username,
          name: users.name,
          translations: users.translations,
          nickname: users.nickname,
          userId: users.id,
          tenantId: users.tenantId,
          tenantCode: tenants.code,
          tenantName: tenants.name,
          tenantTranslations: tenants.translations,
          image: users.image,
          homeUri: users.homeUri,
          groupId: group.id,
          groupName: group.name,
          groupTranslations: group.translations,
          defaultApplyId: applications.id,
          defaultApplyCode: applications.code,
          defaultRoleId: users.defaultRoleId,
          defaultWorkbenchId: users.defaultWorkbenchId,
          defaultEntId: defaultEnterprise.id,
          defaultEntGuId: defaultEnterprise.guid,
        })
        .from(users)
        .innerJoin(tenants, eq(tenants.id, users.tenantId))
        .leftJoin(group, and(eq(group.id, sql`${enterpriseId}::bigint`), eq(group.tenantId, users.tenantId)))
        .leftJoin(
          applications,
          and(eq(applications.id, users.defaultApplicationId), eq(applications.tenantId, users.tenantId)),
        )
        .leftJoin(
          defaultEnterprise,
          and(eq(defaultEnterprise.id, users.defaultEnterpriseId), eq(defaultEnterprise.tenantId, users.tenantId)),
        )
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
      return row ?? null;
    },

    /** The roles the user holds, in the tenant. */
    roles(tenantId: number, userId: number) {
      return db
        .select({ id: roles.id, title: roles.title, translations: roles.translations })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(and(eq(userRoles.userId, userId), eq(roles.tenantId, tenantId)))
        .orderBy(asc(roles.id));
    },

    /** The applications the user is granted, in the tenant. */
    applications(tenantId: number, userId: number) {
      return db
        .select({
          id: applications.id,
          code: applications.code,
          name: applications.name,
          translations: applications.translations,
        })
        .from(userApplications)
        .innerJoin(applications, eq(applications.id, userApplications.applicationId))
        .where(and(eq(userApplications.userId, userId), eq(applications.tenantId, tenantId)))
        .orderBy(asc(applications.id));
    },

    /** The workbenches the user may use, in the tenant. */
    workbenches(tenantId: number, userId: number) {
      return db
        .select({
          id: workbenches.id,
          code: workbenches.code,
          name: workbenches.name,
          translations: workbenches.translations,
        })
        .from(userWorkbenches)
        .innerJoin(workbenches, eq(workbenches.id, userWorkbenches.workbenchId))
        .where(and(eq(userWorkbenches.userId, userId), eq(workbenches.tenantId, tenantId)))
        .orderBy(asc(workbenches.id));
    },

    /** The tenant's application with this code, or null. */
    async application(tenantId: number, code: string) {
      const [row] = await db
        .select({ name: applications.name, translations: applications.translations })
        .from(applications)
        .where(and(eq(applications.tenantId, tenantId), eq(applications.code, code)));
      return row ?? null;
    },

    async setNickname(tenantId: number, userId: number, nickname: string): Promise<void> {
      await db
        .update(users)
        .set({ nickname })
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
    },

    /** Sets the defaults given (null: unchanged); the caller has checked that the user holds them. */
    async setDefaults(
      tenantId: number,
      userId: number,
      d: { roleId?: number | null; workbenchId?: number | null; applicationId?: number | null },
    ): Promise<void> {
      const set = {
        ...(d.roleId != null && { defaultRoleId: d.roleId }),
        ...(d.workbenchId != null && { defaultWorkbenchId: d.workbenchId }),
        ...(d.applicationId != null && { defaultApplicationId: d.applicationId }),
      };
      if (Object.keys(set).length === 0) return;
      await db
        .update(users)
        .set(set)
        .where(and(eq(users.id, userId), eq(users.tenantId, tenantId)));
    },
  };
}

export type MembersRepository = ReturnType<typeof createMembersRepository>;
