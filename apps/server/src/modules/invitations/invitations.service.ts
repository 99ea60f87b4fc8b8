import { isValidPhone, maskMobile, ResultCode, type Invitation, type InvitationStatus } from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import { localized, type Lang } from '../../platform/i18n.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ActiveSession } from '../../platform/session.js';
import type { InvitationsRepository } from './invitations.repository.js';

/** The permission code (docs/product/permissions.md#action-codes) that guards inviting, on the server as on the page. */
export const INVITE_PERMISSION = 'ent:invite';
/** An invitation is open for a week; sending it again starts the week anew. */
const OPEN_DAYS = 7;
/** Invitations one person may send a day: enough for onboarding a team, not for a flood. */
const INVITES_PER_DAY = 100;

export interface InvitationsServiceDeps {
  repo: InvitationsRepository;
  guard: PermissionGuard;
  limiter: RateLimiter;
  phonePattern: string;
}

type Named = { name: string | null; translations: { en?: { name?: string } } | null } | null;
const nameOf = (lang: Lang, who: Named): string | null =>
  who?.name == null ? null : localized(lang, { name: who.name, translations: who.translations }, 'name');

/**
 * 邀请成员: an administrator of the session's enterprise (permission `ent:invite`) invites a mobile
 * number; its owner joins at their next sign-in, also right after registering (auth's open-session
 * statement). Every call is about the session's current enterprise and needs the caller to be one
 * of its members still.
 */
export function createInvitationsService({ repo, guard, limiter, phonePattern }: InvitationsServiceDeps) {
  /** The session's enterprise, once the caller may manage its invitations. */
  const enterpriseOf = async (session: ActiveSession): Promise<number> => {
    await guard.require(session, INVITE_PERMISSION);
    if (session.enterpriseId === null) throw new AppError(ResultCode.BAD_REQUEST, 'noCurrentEnterprise');
    if (!(await repo.isMember(session.enterpriseId, session.userId))) {
      throw new AppError(ResultCode.NO_PERMISSION, 'entNotJoined');
    }
    return session.enterpriseId;
  };

  return {
    async invite(session: ActiveSession, input: string): Promise<void> {
      const enterpriseId = await enterpriseOf(session);
      const mobile = input.trim();
      if (!isValidPhone(mobile, phonePattern)) throw new AppError(ResultCode.BAD_REQUEST, 'phoneInvalid');
      if (await repo.numberIsMember(session.tenantId, enterpriseId, mobile)) {
        throw new AppError(ResultCode.CONFLICT, 'alreadyMember');
      }
      await limiter.hit(`invite:user:${session.userId}`, INVITES_PER_DAY, 86_400);
      await repo.invite({
        tenantId: session.tenantId,
        enterpriseId,
        mobile,
        invitedBy: session.userId,
        days: OPEN_DAYS,
      });
    },

    async list(session: ActiveSession, page: number, limit: number, lang: Lang) {
      const enterpriseId = await enterpriseOf(session);
      const { rows, total } = await repo.list(session.tenantId, session.userId, enterpriseId, page, limit);
      return {
        rows: rows.map((r): Invitation => ({
          id: String(r.id),
          mobile: maskMobile(r.mobile),
          status: ((): InvitationStatus => {
            if (r.joined) return 'joined';
            if (r.revoked) return 'revoked';
            return r.expired ? 'expired' : 'pending';
          })(),
          invitedBy: nameOf(lang, r.invitedBy),
          joinedName: nameOf(lang, r.joiner),
          crtTime: r.crtTime,
          expireTime: r.expireTime,
          joinTime: r.joinTime,
        })),
        total,
      };
    },

    async revoke(session: ActiveSession, id: number): Promise<void> {
      const enterpriseId = await enterpriseOf(session);
      if (!(await repo.revoke(session.tenantId, enterpriseId, id)))
        throw new AppError(ResultCode.NOT_FOUND, 'invitationClosed');
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
