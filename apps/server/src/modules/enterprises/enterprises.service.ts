/**
 * The caller's enterprises (the enterprise calls of docs/product/calls.md#call-list); the switch to one is the auth
 * module's (a new token).
 */
import { maskMobile, type CurrentEnterprise, type EnterpriseMember, type JoinedEnterprise } from '@portal/contracts';
import { localized, type Lang } from '../../platform/i18n.js';
import type { ActiveSession } from '../../platform/session.js';
import type { EnterprisesRepository } from './enterprises.repository.js';

export interface EnterprisesServiceDeps {
  repo: EnterprisesRepository;
  /** The names of a region from the province down (the catalog's), or null for an unknown code. */
  regionPath: (code: string) => string[] | null;
}

export function createEnterprisesService(deps: EnterprisesServiceDeps) {
  const { repo, regionPath } = deps;

  return {
    /** The 企业信息 page: the session's current enterprise, with the reason of a refused review. */
    async current(s: ActiveSession, lang: Lang): Promise<CurrentEnterprise | null> {
      const r = s.enterpriseId === null ? null : await repo.current(s.tenantId, s.userId, s.enterpriseId);
      return (
        r && {
          entId: String(r.id),
          entName: localized(lang, r, 'name'),
          creditCode: r.creditCode,
          industry: r.industry,
          region: r.regionCode ? regionPath(r.regionCode) : null,
          estatus: r.estatus,
          reviewReason: r.estatus === 2 ? r.reviewReason : null,
          crtTime: r.joinedAt,
        }
      );
    },

    /** The enterprises the caller belongs to, a page at a time. */
    async joined(s: ActiveSession, page: number, limit: number, lang: Lang) {
      const { rows, total } = await repo.joined(s.tenantId, s.userId, page, limit);
      return {
        rows: rows.map((r): JoinedEnterprise => ({
          entId: String(r.id),
          entName: localized(lang, r, 'name'),
          creditCode: r.creditCode,
          crtTime: r.joinedAt,
          estatus: r.estatus,
        })),
        total,
      };
    },

    /** The 成员列表 page: the people of the session's enterprise, mobile numbers masked. */
    async members(s: ActiveSession, page: number, limit: number, lang: Lang) {
      if (s.enterpriseId === null) return { rows: [], total: 0 };
      const { rows, total } = await repo.members(s.tenantId, s.userId, s.enterpriseId, page, limit);
      return {
        rows: rows.map((r): EnterpriseMember => ({
          userId: String(r.id),
          name: localized(lang, r, 'name'),
          username: r.username,
          mobile: r.mobile && maskMobile(r.mobile),
          crtTime: r.joinedAt,
        })),
        total,
      };
    },

    /** Whether the caller belongs to any enterprise (joined or registered one). */
    async joinedOrCreated(s: ActiveSession): Promise<boolean> {
      return (await repo.count(s.tenantId, s.userId)) > 0;
    },
  };
}

export type EnterprisesService = ReturnType<typeof createEnterprisesService>;
