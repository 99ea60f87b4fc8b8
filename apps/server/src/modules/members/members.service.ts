import type { UserInfo } from '@portal/contracts';
import { errors } from '../../platform/errors.js';
import type { MembersRepository } from './members.repository.js';

const str = (v: number | string | null) => (v === null ? null : String(v));

export function createMembersService({ repo }: { repo: MembersRepository }) {
  return {
    async info(session: { tenantId: number; userId: number; enterpriseId: number | null }): Promise<UserInfo> {
      const row = await repo.userInfo(session.tenantId, session.userId, session.enterpriseId);
      if (!row) throw errors.unauthorized();
      return {
        username: row.username,
        name: row.nickname || row.name,
        userId: String(row.userId),
        groupId: str(row.groupId),
        groupName: row.groupName,
        tenantId: String(row.tenantId),
        tenantCode: row.tenantCode,
        image: row.image,
        defaultApplyCode: row.defaultApplyCode,
        defaultApplyId: str(row.defaultApplyId),
        defaultRoleId: str(row.defaultRoleId),
        defaultEntId: str(row.defaultEntId),
        defaultEntGuId: row.defaultEntGuId,
        homeUri: row.homeUri,
      };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
