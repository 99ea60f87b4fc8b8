/**
 * Enterprises of the signed-in user: those joined, the current one with its members, invitations
 * into it, and switching to another.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Text } from './fields.js';

export const JoinedEnterprise = Type.Object({
  entId: Type.String(),
  entName: Type.String(),
  creditCode: Nullable(Type.String()),
  crtTime: Type.String(),
  /** 0 unreviewed, 1 passed, 2 not passed. */
  estatus: Type.Integer({ minimum: 0, maximum: 2 }),
});
export type JoinedEnterprise = Static<typeof JoinedEnterprise>;

/**
 * The caller's current enterprise (the 企业信息 page, the menu's `ent/colist` entry,
 * docs/product/screens.md#account-dialogs): its profile and the caller's joining.
 */
export const CurrentEnterprise = Type.Object({
  entId: Type.String(),
  entName: Type.String(),
  creditCode: Nullable(Type.String()),
  /** The industry class's name, or null when none was given. */
  industry: Nullable(Type.String()),
  /** The region's names from the province down, or null when none was given. */
  region: Nullable(Type.Array(Type.String())),
  /** 0 unreviewed, 1 passed, 2 not passed. */
  estatus: Type.Integer({ minimum: 0, maximum: 2 }),
  /** Why the park's review did not pass it (estatus 2), for its members; else null. */
  reviewReason: Nullable(Type.String()),
  /** When the caller joined it. */
  crtTime: Type.String(),
});
export type CurrentEnterprise = Static<typeof CurrentEnterprise>;
/** data of /api/front/ent/current: null when the session has no enterprise (or is no longer a member). */
export const CurrentEnterpriseData = Nullable(CurrentEnterprise);

/** A member of the caller's current enterprise (the 成员列表 page); the mobile as others may see it. */
export const EnterpriseMember = Type.Object({
  userId: Type.String(),
  name: Type.String(),
  username: Type.String(),
  /** 138****0001, or null when the account has none. */
  mobile: Nullable(Type.String()),
  /** When the member joined, China time. */
  crtTime: Type.String(),
});
export type EnterpriseMember = Static<typeof EnterpriseMember>;

/** The 邀请成员 page: how an invitation into the caller's current enterprise stands. */
export const INVITATION_STATUSES = ['pending', 'joined', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An invitation of a mobile number into the caller's current enterprise (ours, ADR 023). */
export const Invitation = Type.Object({
  id: Type.String(),
  /** The invited number, masked as members see each other's (138****0001). */
  mobile: Type.String(),
  status: Type.Enum(INVITATION_STATUSES),
  /** Who invited, and who joined through it (null while nobody has, or when they left). */
  invitedBy: Nullable(Type.String()),
  joinedName: Nullable(Type.String()),
  /** China time: when it was sent, when it expires, and when it was taken up. */
  crtTime: Type.String(),
  expireTime: Type.String(),
  joinTime: Nullable(Type.String()),
});
export type Invitation = Static<typeof Invitation>;

export const InviteBody = Type.Object({ mobile: Text(20) });
export type InviteBody = Static<typeof InviteBody>;

export const InvitationIdBody = Type.Object({ id: Id });
export type InvitationIdBody = Static<typeof InvitationIdBody>;

export const EnterpriseTarget = Type.Object({ entId: Type.String(), entName: Type.String(), entGuId: Type.String() });
export type EnterpriseTarget = Static<typeof EnterpriseTarget>;

export const SwitchEnterprise = Type.Object({ entId: Id });
export type SwitchEnterprise = Static<typeof SwitchEnterprise>;
