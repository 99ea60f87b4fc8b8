import type { UserInfo } from '@portal/contracts';
import { errors } from '../../platform/errors.js';
import type { InvalidationBus } from '../../platform/invalidation.js';
import { createLocalCache } from '../../platform/local-cache.js';
import type { MembersRepository } from './members.repository.js';

const str = (v: number | string | null) => (v === null ? null : String(v));

export interface MembersServiceDeps {
  repo: MembersRepository;
  bus: Pick<InvalidationBus, 'subscribe'>;
  /** How long a profile may be served from memory (0: always read it). */
  cacheMs: number;
}

export function createMembersService({ repo, bus, cacheMs }: MembersServiceDeps) {
  // "userId:enterpriseId" → profile; changes to a user are announced on the bus.
  const profiles = createLocalCache<UserInfo>({ ttlMs: cacheMs, max: 50_000 });
  bus.subscribe((e) => {
    if (e.kind === 'all') profiles.clear();
    else if (e.kind === 'user') profiles.deleteWhere((p) => p.userId === String(e.id));
  });

  return {
    async info(session: { tenantId: number; userId: number; enterpriseId: number | null }): Promise<UserInfo> {
      const key = `${session.userId}:${session.enterpriseId}`;
      const cached = profiles.get(key);
      if (cached) return cached;
      const version = profiles.version;
      const row = await repo.userInfo(session.tenantId, session.userId, session.enterpriseId);
      if (!row) throw errors.unauthorized();
      const info: UserInfo = {
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
      profiles.set(key, info, { version });
      return info;
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
