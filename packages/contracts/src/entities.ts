/**
 * Schemas of every entity and payload of docs/product/data.md, written once and used by the Fastify routes
 * (validation and serialisation) and by the web forms and API calls (static types).
 */
import { Type, type Static } from 'typebox';

/**
 * A row id in a request (ADR 021): the decimal string answers carry, or the number (docs/product/calls.md#call-list shows
 * `entId` as one). The server reads it with `rowId` (platform/ids.ts), which refuses one that can
 * name no row. Answers carry ids as strings only: `Type.String()`.
 */
const Id = Type.Union([Type.Integer(), Type.String({ maxLength: 64 })]);
const Text = (max = 255) => Type.String({ maxLength: max });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
/** A route's `:id` (a notice, a registered application, a repair request), read with `rowId`. */
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

// ---- Registration (issue: registration) ------------------------------------------------------
export const MemberRegistration = Type.Object({
  /** The tenant the registration is bound to; the default tenant when absent or empty. */
  tenantCode: Type.Optional(Text(64)),
  username: Text(64),
  password: Text(1024),
  mobile: Text(20),
  smsCode: Type.Optional(Text(12)),
  imgCode: Type.Optional(Text(1024)),
  hostUrl: Type.Optional(Text(1024)),
  number: Type.Optional(Text(64)),
});
export type MemberRegistration = Static<typeof MemberRegistration>;

export const CompanyRegistration = Type.Object({
  companyName: Text(128),
  industryCode: Text(32),
  country: Text(32),
  contacts: Text(64),
  position: Text(64),
  tenantCode: Type.Optional(Text(64)),
  password: Text(1024),
  mobile: Text(20),
  smsCode: Type.Optional(Text(12)),
  imgCode: Type.Optional(Text(1024)),
  hostUrl: Type.Optional(Text(1024)),
  number: Type.Optional(Text(64)),
});
export type CompanyRegistration = Static<typeof CompanyRegistration>;

export const SmsRequest = Type.Object({
  phone: Text(20),
  /**
   * 2, registration (docs/product/data.md#sms-request). Password-reset codes (3) come only from the forgot-password flow,
   * which sends them only to an account's own number.
   */
  type: Type.Literal(2),
  /** The captcha: the image's answer (with `number`), or a passed behavioural check. */
  imageCode: Text(1024),
  number: Type.Optional(Text(64)),
  /** The tenant the registration is bound to; the default tenant when absent. */
  tenantCode: Type.Optional(Text(64)),
});
export type SmsRequest = Static<typeof SmsRequest>;

/** `/sys/user/checkOnlyUser`: is a username still free in the tenant (rate-limited). */
export const CheckOnlyUserQuery = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  tenantCode: Type.Optional(Text(64)),
});
export type CheckOnlyUserQuery = Static<typeof CheckOnlyUserQuery>;
export const CheckOnlyUserData = Type.Object({ available: Type.Boolean() });
export type CheckOnlyUserData = Static<typeof CheckOnlyUserData>;

export const AgreementQuery = Type.Object({ tenantCode: Type.Optional(Text(64)) });
export type AgreementQuery = Static<typeof AgreementQuery>;
/** Registration agreement (docs/product/data.md#sub-management): sanitised HTML; empty when the tenant has none. */
export const AgreementData = Type.Object({ registerAgreement: Type.String() });
export type AgreementData = Static<typeof AgreementData>;

// ---- Forgot and change password (ADR 010; paths of our own, see docs/api.md) ---------------
/** Step 1–2 of forgot password: a code goes to `mobile` only if it is the account's own number. */
export const ResetCodeRequest = Type.Object({
  tenantCode: Type.Optional(Text(64)),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  mobile: Text(20),
  /** The captcha, as for sendPhoneCode. */
  imageCode: Text(1024),
  number: Type.Optional(Text(64)),
});
export type ResetCodeRequest = Static<typeof ResetCodeRequest>;

export const ResetVerifyRequest = Type.Object({
  tenantCode: Type.Optional(Text(64)),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  mobile: Text(20),
  smsCode: Type.String({ minLength: 1, maxLength: 12 }),
});
export type ResetVerifyRequest = Static<typeof ResetVerifyRequest>;
export const ResetGrant = Type.Object({ resetToken: Type.String() });
export type ResetGrant = Static<typeof ResetGrant>;

export const ResetFinishRequest = Type.Object({
  resetToken: Type.String({ minLength: 1, maxLength: 128 }),
  /** base64(RSA-OAEP-SHA256(UTF-8 password)). */
  password: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type ResetFinishRequest = Static<typeof ResetFinishRequest>;

/**
 * The signed-in user's own mobile number (masked; null when the account has none) and whether it
 * is proven to be theirs: only a proven number takes up the enterprise invitations sent to it.
 */
export const OwnMobile = Type.Object({ mobile: Nullable(Type.String()), verified: Type.Boolean() });
export type OwnMobile = Static<typeof OwnMobile>;
/** The code the text message to one's own number carried. */
export const OwnMobileProof = Type.Object({ smsCode: Type.String({ minLength: 1, maxLength: 12 }) });
export type OwnMobileProof = Static<typeof OwnMobileProof>;

/** /user/register-result without a session: the account's credentials and the login captcha. */
export const ChangePasswordRequest = Type.Object({
  tenantCode: Type.Optional(Text(64)),
  username: Type.String({ minLength: 1, maxLength: 64 }),
  oldPwd: Type.String({ minLength: 1, maxLength: 1024 }),
  newPwd: Type.String({ minLength: 1, maxLength: 1024 }),
  imgvercode: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  captchaKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  captchaVerification: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
});
export type ChangePasswordRequest = Static<typeof ChangePasswordRequest>;

/** The signed-in user's own change (docs/product/calls.md#call-list updatePassword): both passwords encrypted. */
export const UpdatePasswordBody = Type.Object({
  oldPwd: Type.String({ minLength: 1, maxLength: 1024 }),
  newPwd: Type.String({ minLength: 1, maxLength: 1024 }),
});
export type UpdatePasswordBody = Static<typeof UpdatePasswordBody>;

// ---- Behavioural captcha (AJ-Captcha protocol) ------------------------------------------------
/** AJ-Captcha's two behavioural types: the slider puzzle and the ordered click on characters. */
export const CAPTCHA_TYPES = ['blockPuzzle', 'clickWord'] as const;
export type CaptchaType = (typeof CAPTCHA_TYPES)[number];

/** AJ-Captcha's result codes (`repCode`), kept as strings as that protocol sends them. */
export const CaptchaRepCode = {
  SUCCESS: '0000',
  BLANK: '0011',
  /** A parameter of the wrong format (an unknown captchaType). */
  FORMAT: '0016',
  EXPIRED: '6110',
  FAILED: '6111',
  GET_LIMIT: '6201',
  LOCKED: '6202',
  CHECK_LIMIT: '6204',
  ERROR: '9999',
} as const;
export type CaptchaRepCode = (typeof CaptchaRepCode)[keyof typeof CaptchaRepCode];

// Fields are checked by the captcha service itself, so that a missing one answers AJ-Captcha's
// repCode 0011 "{0}不能为空" instead of the portal's 400 envelope.
export const CaptchaFetch = Type.Object({
  captchaType: Type.Optional(Text(32)),
  clientUid: Type.Optional(Text(128)),
  ts: Type.Optional(Type.Union([Type.Integer(), Text(32)])),
});
export type CaptchaFetch = Static<typeof CaptchaFetch>;

export const CaptchaData = Type.Object({
  originalImageBase64: Type.Optional(Type.String()),
  jigsawImageBase64: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  secretKey: Type.Optional(Nullable(Type.String())),
  wordList: Type.Optional(Type.Array(Type.String())),
  result: Type.Optional(Type.Boolean()),
  captchaType: Type.Optional(Type.String()),
});
export type CaptchaData = Static<typeof CaptchaData>;

export const CaptchaResponse = Type.Object({
  repCode: Type.String(),
  repMsg: Nullable(Type.String()),
  repData: Nullable(CaptchaData),
  success: Type.Boolean(),
});
export type CaptchaResponse = Static<typeof CaptchaResponse>;

export const CaptchaCheck = Type.Object({
  captchaType: Type.Optional(Text(32)),
  pointJson: Type.Optional(Text(2048)),
  token: Type.Optional(Text(64)),
  clientUid: Type.Optional(Text(128)),
  ts: Type.Optional(Type.Union([Type.Integer(), Text(32)])),
});
export type CaptchaCheck = Static<typeof CaptchaCheck>;

/** What a business call (registration, SMS) carries after a passed behavioural captcha. */
export const CaptchaVerification = Type.String({ minLength: 1, maxLength: 2048 });

/** `data` of getCaptchaType: `anji` turns on the behavioural captcha, else the image captcha. */
export const CaptchaKind = Type.Union([Type.Literal('anji'), Type.Literal('image')]);
export type CaptchaKind = Static<typeof CaptchaKind>;

// ---- Login and session --------------------------------------------------------------------------
export const LoginQuery = Type.Object({
  service: Type.Optional(Text(2048)),
  tenantCode: Type.Optional(Text(64)),
});
export type LoginQuery = Static<typeof LoginQuery>;

export const LoginBody = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64 }),
  /** base64(RSA-OAEP-SHA256(UTF-8 password)) — see docs/api.md#password-transport. */
  password: Type.String({ minLength: 1, maxLength: 1024 }),
  /** The image captcha's answer (when getCaptchaType answers `image`). */
  imgvercode: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })),
  /** The client id that fetched the captcha image (`data` of the captcha call). */
  captchaKey: Type.Optional(Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
  /** A passed behavioural captcha (when getCaptchaType answers `anji`), spent by this call. */
  captchaVerification: Type.Optional(CaptchaVerification),
  host: Type.Optional(Text(255)),
});
export type LoginBody = Static<typeof LoginBody>;

export const TokenData = Type.String();

/** /front/esa/system/sso: the external system to enter. */
export const SystemSignOnBody = Type.Object({
  sysCode: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
});
export type SystemSignOnBody = Static<typeof SystemSignOnBody>;

/**
 * A CAS service ticket as a client accepts it: `ST-` and letters, digits, `-` (CAS 3.0 §3.7), and
 * `.` (Apereo CAS appends its host name; mod_auth_cas accepts it too), up to the 256 characters
 * the protocol recommends. The sign-on server here writes only `ST-` and 43 of [A-Za-z0-9].
 */
export const SERVICE_TICKET = '^ST-[A-Za-z0-9.-]{1,253}$';

/** getTokenBySt: `st` (docs/product/calls.md#call-list) and the exact service address the ticket was issued for. */
export const TokenByStQuery = Type.Object({
  st: Type.String({ minLength: 4, maxLength: 256, pattern: SERVICE_TICKET }),
  service: Type.String({ minLength: 1, maxLength: 2048 }),
});
export type TokenByStQuery = Static<typeof TokenByStQuery>;

/** The registration form's image captcha, bound to a random number the page makes. */
export const RegisterCaptchaQuery = Type.Object({
  number: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export type RegisterCaptchaQuery = Static<typeof RegisterCaptchaQuery>;

export const ImageCaptchaQuery = Type.Object({
  type: Type.Optional(Text(16)),
  data: Type.String({ minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
});
export type ImageCaptchaQuery = Static<typeof ImageCaptchaQuery>;

/** The image itself as a data URL, ready for an <img src>. */
export const ImageCaptchaData = Type.Object({ image: Type.String() });
export type ImageCaptchaData = Static<typeof ImageCaptchaData>;

export const PublicKeyData = Type.Object({ publicKey: Type.String(), keyId: Type.String() });
export type PublicKeyData = Static<typeof PublicKeyData>;

export const UserInfo = Type.Object({
  username: Type.String(),
  name: Type.String(),
  userId: Type.String(),
  groupId: Nullable(Type.String()),
  groupName: Nullable(Type.String()),
  tenantId: Type.String(),
  tenantCode: Type.String(),
  /** Ours (ADR 031): the park's name, in the request's language. */
  tenantName: Type.String(),
  image: Nullable(Type.String()),
  defaultApplyCode: Nullable(Type.String()),
  defaultApplyId: Nullable(Type.String()),
  defaultRoleId: Nullable(Type.String()),
  defaultEntId: Nullable(Type.String()),
  defaultEntGuId: Nullable(Type.String()),
  homeUri: Nullable(Type.String()),
  /** Ours (ADR 011): the default workbench for the next login, like the other defaults. */
  defaultWorkbenchId: Nullable(Type.String()),
  /** Ours (ADR 011): the session's current role, application and workbench, which the switch dialogs preselect. */
  roleId: Nullable(Type.String()),
  applyId: Nullable(Type.String()),
  workbenchId: Nullable(Type.String()),
});
export type UserInfo = Static<typeof UserInfo>;

export const InfoQuery = Type.Object({
  token: Type.Optional(Text(2048)),
  fastRoleCode: Type.Optional(Text(64)),
  roleId: Type.Optional(Text(64)),
  wbCode: Type.Optional(Text(64)),
  benchCode: Type.Optional(Text(64)),
});
export type InfoQuery = Static<typeof InfoQuery>;

// ---- Menus and permissions (docs/product/data.md#menu, docs/product/permissions.md#action-codes) --------------------------------------------------------
export const PermissionItem = Type.Object({
  action: Type.String(),
  describe: Type.String(),
  /** Type 2 entries are ignored by the UI guard (docs/product/permissions.md#action-codes). */
  type: Type.String(),
  /** In allAuth: "0" means the code is not enforced, so the element shows for everyone. */
  status: Type.String(),
});
export type PermissionItem = Static<typeof PermissionItem>;

export const MenuMeta = Type.Object({
  title: Type.String(),
  icon: Type.Optional(Nullable(Type.String())),
  url: Type.Optional(Nullable(Type.String())),
  openKeys: Type.Optional(Type.Array(Type.String())),
  isTabs: Type.Optional(Type.Boolean()),
  isSide: Type.Optional(Type.Boolean()),
  internalOrExternal: Type.Optional(Type.Boolean()),
  componentName: Type.Optional(Nullable(Type.String())),
  permissionList: Type.Optional(Type.Array(PermissionItem)),
  keepAlive: Type.Optional(Type.Boolean()),
  serviceType: Type.Optional(Type.Integer()),
  module: Type.Optional(Nullable(Type.String())),
  pageId: Type.Optional(Nullable(Type.String())),
});
export type MenuMeta = Static<typeof MenuMeta>;

export const MenuItem = Type.Cyclic(
  {
    MenuItem: Type.Object({
      id: Type.String(),
      path: Type.String(),
      name: Type.String(),
      hidden: Type.Boolean(),
      parentId: Nullable(Type.String()),
      component: Type.String(),
      redirect: Type.Optional(Nullable(Type.String())),
      route: Type.Optional(Type.String()),
      meta: MenuMeta,
      children: Type.Optional(Type.Array(Type.Ref('MenuItem'))),
    }),
  },
  'MenuItem',
);
export type MenuItem = Static<typeof MenuItem>;

export const PermissionQuery = Type.Object({
  token: Type.Optional(Text(2048)),
  roleId: Type.Optional(Text(64)),
  appCodes: Type.Optional(Text(512)),
  fastRoleCode: Type.Optional(Text(64)),
  targetWb: Type.Optional(Text(64)),
  partWb: Type.Optional(Text(64)),
  serviceCode: Type.Optional(Text(64)),
});
export type PermissionQuery = Static<typeof PermissionQuery>;

export const MenuData = Type.Object({
  auth: Type.Array(PermissionItem),
  allAuth: Type.Array(PermissionItem),
  menu: Type.Array(MenuItem),
});
export type MenuData = Static<typeof MenuData>;

// ---- Context: micro-apps, applications, roles, workbenches, enterprises -----------------------
/**
 * A registered application of the tenant (docs/product/data.md#micro-app-entry): service type 0 a sub-application the host
 * loads (its menu entries carry `code` as their module), 1 a service shown in a frame. `entry` is
 * an absolute http(s) address or a path on the portal's own origin.
 */
export const MicroApp = Type.Object({
  name: Type.String(),
  code: Type.String(),
  entry: Type.String(),
  serviceType: Type.Integer(),
});
export type MicroApp = Static<typeof MicroApp>;
export const MICRO_APP_CODE = '^[a-z][a-z0-9-]{1,39}$';
export const TenantIdParams = Type.Object({ tenantId: Type.String({ maxLength: 64 }) });

/** The operators' registration of an application (ADR 025): created, or replaced by its code. */
export const MicroAppInput = Type.Object({
  code: Type.String({ pattern: MICRO_APP_CODE }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  entry: Type.String({ minLength: 1, maxLength: 1024 }),
  serviceType: Type.Union([Type.Literal(0), Type.Literal(1)]),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  translations: Type.Optional(
    Type.Object({ en: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ maxLength: 100 })) })) }),
  ),
});
export type MicroAppInput = Static<typeof MicroAppInput>;
/** An application as operators see it: with its id, and its entry's origin (the allow-list). */
export const RegisteredApp = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  entry: Type.String(),
  serviceType: Type.Integer(),
  sort: Type.Integer(),
  origin: Type.String(),
});
export type RegisteredApp = Static<typeof RegisteredApp>;
/** getDefaultSubManList (docs/product/data.md#sub-management): the park's own home page. */
export const SubManagement = Type.Object({ homeUrl: Nullable(Type.String()) });
export type SubManagement = Static<typeof SubManagement>;

export const ApplicationItem = Type.Object({ id: Type.String(), appCode: Type.String(), appName: Type.String() });
export type ApplicationItem = Static<typeof ApplicationItem>;

export const RoleItem = Type.Object({ id: Type.String(), title: Type.String() });
export type RoleItem = Static<typeof RoleItem>;

export const WorkbenchItem = Type.Object({ id: Type.String(), appCode: Type.String(), appName: Type.String() });
export type WorkbenchItem = Static<typeof WorkbenchItem>;

export const JoinedEnterprise = Type.Object({
  entId: Type.String(),
  entName: Type.String(),
  creditCode: Nullable(Type.String()),
  crtTime: Type.String(),
  /** 0 unreviewed, 1 passed, 2 not passed. */
  estatus: Type.Integer({ minimum: 0, maximum: 2 }),
});
export type JoinedEnterprise = Static<typeof JoinedEnterprise>;

/** The caller's current enterprise (the 企业信息 page, docs/product/screens.md#menu-routes `ent/colist`): its profile and the caller's joining. */
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

/** An invitation of a mobile number into the caller's current enterprise (ours, docs/product/calls.md#call-list shows none). */
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

/** A switch of role, application or workbench (ours, ADR 011): the ids from the lists; absent ones stay. */
export const SwitchContextBody = Type.Object({
  roleId: Type.Optional(Id),
  applyId: Type.Optional(Id),
  workbenchId: Type.Optional(Id),
});
export type SwitchContextBody = Static<typeof SwitchContextBody>;

// ---- Account context (ADR 011): queries and bodies ------------------------------------------------
export const UserRolesQuery = Type.Object({
  userId: Type.Optional(Id),
  benchCode: Type.Optional(Text(64)),
});
export type UserRolesQuery = Static<typeof UserRolesQuery>;

export const NickNameBody = Type.Object({
  userId: Id,
  /** Required (docs/product/validation.md#account); trimmed, at most 32 characters. */
  nickName: Type.String({ maxLength: 64 }),
});
export type NickNameBody = Static<typeof NickNameBody>;

export const DefaultLoginBody = Type.Object({
  defaultRoleId: Type.Optional(Id),
  defaultWorkbenchCode: Type.Optional(Text(64)),
});
export type DefaultLoginBody = Static<typeof DefaultLoginBody>;

export const DefaultApplyBody = Type.Object({ defaultApplyId: Id });
export type DefaultApplyBody = Static<typeof DefaultApplyBody>;

export const AppCodeQuery = Type.Object({ fastAppCode: Type.String({ minLength: 1, maxLength: 64 }) });
export type AppCodeQuery = Static<typeof AppCodeQuery>;

export const AppCodeParams = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' }),
});
export type AppCodeParams = Static<typeof AppCodeParams>;

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
});
export type PageQuery = Static<typeof PageQuery>;
export type SwitchEnterprise = Static<typeof SwitchEnterprise>;

// ---- Notices (docs/product/data.md#notices, docs/product/behaviour.md#notice-reply) -------------------------------------------------------------------------
/** A file in a request: the stored path an upload answered, and the name to show. */
export const FileRef = Type.Object({ addr: Text(1024), fileName: Text(255) });
export type FileRef = Static<typeof FileRef>;

/**
 * uploadReplyFile's `data`: the stored path, `files/<uuid>`, which a reply names as a FileRef's
 * `addr`. The answer is the envelope alone: the name shown is the one the client chose the file by,
 * and the server keeps its own cleaned copy of it (docs/api.md).
 */
export const UploadedPath = Type.String({
  pattern: '^files/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
});
export type UploadedPath = Static<typeof UploadedPath>;

/** A file in an answer: also `url`, a download address signed for a few minutes (ours, ADR 024). */
export const FileLink = Type.Object({ addr: Type.String(), fileName: Type.String(), url: Type.String() });
export type FileLink = Static<typeof FileLink>;

export const Notice = Type.Object({
  id: Type.String(),
  title: Type.String(),
  /** `YYYY-MM-DD HH:mm:ss`, China time; lists show its first 11 characters. */
  pushTime: Type.String(),
  /** HTML, sanitised by the server; show it through DOMPurify all the same. */
  remark: Type.String(),
  /** 0 not replied, 1 replied (or confirmed, for replyWay 0). */
  answerStatus: Type.Integer({ minimum: 0, maximum: 1 }),
  /** 0 confirm only, 1 text, 2 text plus attachments. */
  replyWay: Type.Integer({ minimum: 0, maximum: 2 }),
  pushFile: Type.Array(FileLink),
  replyFile: Type.Array(FileLink),
  /** The notice's plain-text summary, if it has one. */
  content: Nullable(Type.String()),
  validityTime: Nullable(Type.String()),
  /** Ours: 0 unread, 1 read; the caller's reply text and when they replied. */
  readStatus: Type.Integer({ minimum: 0, maximum: 1 }),
  replyContent: Nullable(Type.String()),
  replyTime: Nullable(Type.String()),
});
export type Notice = Static<typeof Notice>;

/** replyPage (docs/product/calls.md#call-list): the caller's notices, newest first; `title` and `answerStatus` filters are ours. */
export const ReplyPageBody = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  readStatus: Type.Optional(Nullable(Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Literal('')]))),
  answerStatus: Type.Optional(Nullable(Type.Union([Type.Integer({ minimum: 0, maximum: 1 }), Type.Literal('')]))),
  /** Must be the caller (or absent): another user's notices are 40303. */
  receiverId: Type.Optional(Nullable(Id)),
  title: Type.Optional(Text(100)),
});
export type ReplyPageBody = Static<typeof ReplyPageBody>;

/** editAnswerStatus (docs/product/calls.md#call-list, body not shown): `read` marks it read; `confirm` is 阅办 (replyWay 0). */
export const AnswerStatusBody = Type.Object({ id: Id, action: Type.Enum(['read', 'confirm']) });
export type AnswerStatusBody = Static<typeof AnswerStatusBody>;

export const ReplySubmission = Type.Object({
  id: Id,
  replyName: Text(64),
  /** 2–255 characters after trimming, checked by the server with docs/product/validation.md#notice-reply's message. */
  content: Type.Optional(Text(1000)),
  fileList: Type.Optional(Type.Array(FileRef, { maxItems: 20 })),
});
export type ReplySubmission = Static<typeof ReplySubmission>;

/** Who a published notice goes to, fixed when it is published (ours; ADR 024). */
export const NoticeAudience = Type.Union([
  Type.Object({ kind: Type.Literal('tenant') }),
  Type.Object({
    kind: Type.Union([Type.Literal('enterprise'), Type.Literal('role'), Type.Literal('users')]),
    ids: Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), { minItems: 1, maxItems: 1000 }),
  }),
]);
export type NoticeAudience = Static<typeof NoticeAudience>;

/** POST /api/admin/notices (operators, permission `notice:publish`). */
export const PublishNotice = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  /** HTML; sanitised when stored. */
  remark: Type.String({ maxLength: 60_000 }),
  content: Type.Optional(Nullable(Text(2000))),
  replyWay: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
  /** ISO 8601; after it the notice takes no more answers. */
  validityTime: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$',
        maxLength: 40,
      }),
    ),
  ),
  audience: NoticeAudience,
  translations: Type.Optional(
    Type.Object({
      en: Type.Optional(
        Type.Object({ title: Type.Optional(Text(200)), remark: Type.Optional(Type.String({ maxLength: 60_000 })) }),
      ),
    }),
  ),
});
export type PublishNotice = Static<typeof PublishNotice>;

export const Published = Type.Object({ id: Type.String(), recipients: Type.Integer({ minimum: 0 }) });
export type Published = Static<typeof Published>;

/** One recipient of a notice, for its publisher. */
export const NoticeRecipient = Type.Object({
  userId: Type.String(),
  name: Type.String(),
  username: Type.String(),
  readStatus: Type.Integer({ minimum: 0, maximum: 1 }),
  readTime: Nullable(Type.String()),
  answerStatus: Type.Integer({ minimum: 0, maximum: 1 }),
  replyTime: Nullable(Type.String()),
});
export type NoticeRecipient = Static<typeof NoticeRecipient>;

/** The caller's unread notices (the bell's badge). */
export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;

export const DefaultSubManagement = Type.Object({ homeUrl: Nullable(Type.String()) });
export type DefaultSubManagement = Static<typeof DefaultSubManagement>;

export const RegisterAgreement = Type.Object({ registerAgreement: Type.String() });
export type RegisterAgreement = Static<typeof RegisterAgreement>;

// ---- Catalog (industry, region pickers) ----
/** `indTree`: the whole industry tree, or with `parentCode` only that node's direct children. */
export const IndustryTreeQuery = Type.Object({
  parentCode: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{0,8}$' })),
});
export type IndustryTreeQuery = Static<typeof IndustryTreeQuery>;

/**
 * An industry of GB/T 4754-2017: level 1 section (门类, a letter), 2 division (大类, 2 digits),
 * 3 group (中类, 3 digits), 4 class (小类, 4 digits). `children` only in the whole-tree answer,
 * and only under a node that has any.
 */
export const IndustryNode = Type.Cyclic(
  {
    IndustryNode: Type.Object({
      code: Type.String(),
      name: Type.String(),
      level: Type.Integer({ minimum: 1, maximum: 4 }),
      isLeaf: Type.Boolean(),
      children: Type.Optional(Type.Array(Type.Ref('IndustryNode'))),
    }),
  },
  'IndustryNode',
);
export type IndustryNode = Static<typeof IndustryNode>;

/** `regionTreeListByCode`: `qhCode` 0 (or absent, or empty) for the provinces, else a node's code. */
export const RegionQuery = Type.Object({
  qhCode: Type.Optional(Type.String({ pattern: '^[0-9]{0,12}$' })),
});
export type RegionQuery = Static<typeof RegionQuery>;

/**
 * A region of GB/T 2260 by administrative level: 1 province, 2 prefecture city, 3 county/district,
 * 4 town/street (12-digit code). A municipality's children are its districts (level 3).
 */
export const RegionNode = Type.Object({
  code: Type.String(),
  name: Type.String(),
  level: Type.Integer({ minimum: 1, maximum: 4 }),
  isLeaf: Type.Boolean(),
});
export type RegionNode = Static<typeof RegionNode>;

export { Id };

// ---- Park services: the demo sub-application's data (ADR 025; apps/demo-micro-app) ------------
/** 物业报修: 0 submitted (待受理), 1 accepted (处理中), 2 done (已完成). */
export const RepairStatus = Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]);
export type RepairStatus = Static<typeof RepairStatus>;
export const RepairInput = Type.Object({
  title: Type.String({ minLength: 2, maxLength: 60 }),
  location: Type.String({ minLength: 2, maxLength: 60 }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
});
export type RepairInput = Static<typeof RepairInput>;
export const Repair = Type.Object({
  id: Type.String(),
  title: Type.String(),
  location: Type.String(),
  description: Type.String(),
  status: Type.Integer(),
  /** Who reported it, in the request's language. */
  reporter: Type.String(),
  mine: Type.Boolean(),
  crtTime: Type.String(),
  updateTime: Type.String(),
});
export type Repair = Static<typeof Repair>;
export const RepairQuery = Type.Object({
  page: PageQuery.properties.page,
  limit: PageQuery.properties.limit,
  status: Type.Optional(RepairStatus),
});
export type RepairQuery = Static<typeof RepairQuery>;
/** Accept (1) or finish (2) a request: permission `repair:handle`. */
export const RepairStatusBody = Type.Object({ status: Type.Union([Type.Literal(1), Type.Literal(2)]) });
export type RepairStatusBody = Static<typeof RepairStatusBody>;

export const Room = Type.Object({ id: Type.String(), name: Type.String(), capacity: Type.Integer() });
export type Room = Static<typeof Room>;
/** A park-local (China) day and time, to the minute: `YYYY-MM-DD HH:mm`. */
const LocalMinute = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}$',
  maxLength: 16,
  examples: ['2026-12-01 10:00'],
});
export const BookingQuery = Type.Object({
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10, examples: ['2026-12-01'] }),
  roomId: Type.Optional(Id),
});
export type BookingQuery = Static<typeof BookingQuery>;
export const BookingInput = Type.Object({
  roomId: Id,
  subject: Type.String({ minLength: 2, maxLength: 60 }),
  startTime: LocalMinute,
  endTime: LocalMinute,
});
export type BookingInput = Static<typeof BookingInput>;
/** A booking of the day; another person's shows no subject. */
export const Booking = Type.Object({
  id: Type.String(),
  roomId: Type.String(),
  subject: Nullable(Type.String()),
  startTime: Type.String(),
  endTime: Type.String(),
  mine: Type.Boolean(),
});
export type Booking = Static<typeof Booking>;

// ---- Devices and alerts (ADR 026): the open pages, the operators' API, the ingest API ----------
export const DEVICE_TYPES = ['meter', 'sensor', 'camera', 'hvac', 'lift', 'gate'] as const;
export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export const ALERT_STATES = ['open', 'acknowledged', 'closed'] as const;
const TenantQuery = {
  tc: Type.Optional(Text(64)),
  tenantCode: Type.Optional(Text(64)),
};
export const OpenDeviceQuery = Type.Object({
  ...TenantQuery,
  page: PageQuery.properties.page,
  limit: PageQuery.properties.limit,
  type: Type.Optional(Type.Union([Type.Enum([...DEVICE_TYPES]), Type.Literal('')])),
  status: Type.Optional(Type.Union([Type.Enum(['online', 'offline']), Type.Literal('')])),
  /** Contained in the name, code or location (either language). */
  q: Type.Optional(Text(60)),
});
export type OpenDeviceQuery = Static<typeof OpenDeviceQuery>;
export const Device = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  type: Type.String(),
  location: Type.String(),
  status: Type.Union([Type.Literal('online'), Type.Literal('offline')]),
  /** `YYYY-MM-DD HH:mm:ss` China time, or null when it never reported. */
  lastSeen: Nullable(Type.String()),
  latest: Type.Record(Type.String(), Type.Number()),
});
export type Device = Static<typeof Device>;
export const OpenAlertQuery = Type.Object({
  ...TenantQuery,
  page: PageQuery.properties.page,
  limit: PageQuery.properties.limit,
  severity: Type.Optional(Type.Union([Type.Enum([...ALERT_SEVERITIES]), Type.Literal('')])),
  state: Type.Optional(Type.Union([Type.Enum([...ALERT_STATES]), Type.Literal('')])),
});
export type OpenAlertQuery = Static<typeof OpenAlertQuery>;
export const DeviceAlert = Type.Object({
  id: Type.String(),
  deviceCode: Type.String(),
  deviceName: Type.String(),
  location: Type.String(),
  severity: Type.String(),
  message: Type.String(),
  state: Type.String(),
  raisedTime: Type.String(),
  handledTime: Nullable(Type.String()),
});
export type DeviceAlert = Static<typeof DeviceAlert>;

/** The operators' registration of a device (created, or replaced by its code). */
export const DeviceInput = Type.Object({
  code: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$' }),
  name: Type.String({ minLength: 1, maxLength: 60 }),
  type: Type.Enum([...DEVICE_TYPES]),
  location: Type.String({ minLength: 1, maxLength: 100 }),
  isPublic: Type.Boolean(),
  translations: Type.Optional(
    Type.Object({
      en: Type.Optional(Type.Object({ name: Type.Optional(Text(60)), location: Type.Optional(Text(100)) })),
    }),
  ),
});
export type DeviceInput = Static<typeof DeviceInput>;
export const AdminDevice = Type.Object({
  ...Device.properties,
  isPublic: Type.Boolean(),
  credentials: Type.Integer({ minimum: 0 }),
});
export type AdminDevice = Static<typeof AdminDevice>;
/** A new credential: `token` (key id and secret) is shown this once; only its hash is kept. */
export const NewDeviceCredential = Type.Object({ id: Type.String(), keyId: Type.String(), token: Type.String() });
export type NewDeviceCredential = Static<typeof NewDeviceCredential>;
export const DeviceCredential = Type.Object({
  id: Type.String(),
  keyId: Type.String(),
  createdTime: Type.String(),
  lastUsedTime: Nullable(Type.String()),
  revokedTime: Nullable(Type.String()),
});
export type DeviceCredential = Static<typeof DeviceCredential>;

/** The ingest API's body (`Authorization: Bearer <keyId>.<secret>`): readings and alerts of one device. */
export const IngestBody = Type.Object({
  readings: Type.Optional(
    Type.Array(
      Type.Object({
        metric: Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' }),
        value: Type.Number({ minimum: -1e9, maximum: 1e9 }),
        /** ISO 8601 with a zone; absent: now. At most 24 h old and 5 min ahead. */
        at: Type.Optional(
          Type.String({
            pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$',
            maxLength: 40,
            examples: ['2026-11-24T10:00:00Z'],
          }),
        ),
      }),
      { maxItems: 100 },
    ),
  ),
  alerts: Type.Optional(
    Type.Array(
      Type.Object({
        severity: Type.Enum([...ALERT_SEVERITIES]),
        message: Type.String({ minLength: 1, maxLength: 200 }),
        messageEn: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      }),
      { maxItems: 5 },
    ),
  ),
});
export type IngestBody = Static<typeof IngestBody>;
export const Ingested = Type.Object({ readings: Type.Integer(), alerts: Type.Integer() });
