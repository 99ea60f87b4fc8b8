/**
 * Notices (ADR 024): files in requests and answers, the caller's notices and replies, and publishing
 * one to an audience.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, Text } from './fields.js';

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

/**
 * replyPage (docs/product/calls.md#call-list): the caller's notices, newest first; `title` and `answerStatus` filters
 * are ours.
 */
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

/**
 * editAnswerStatus (docs/product/calls.md#call-list, body not shown): `read` marks it read; `confirm` is 阅办
 * (replyWay 0).
 */
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
  /** Attachments: the caller's own uploads of `POST /api/admin/notices/attachments`. */
  pushFile: Type.Optional(Type.Array(FileRef, { maxItems: 10 })),
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

/**
 * A recipient's state, as the console filters and shows it: `unread`, `read` (opened, not
 * answered), `confirmed` (阅办 of a confirm-only notice), `replied` (a reply, with its text and files).
 */
export const RECIPIENT_STATES = ['unread', 'read', 'confirmed', 'replied'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];
const State = Type.Union([
  Type.Literal('unread'),
  Type.Literal('read'),
  Type.Literal('confirmed'),
  Type.Literal('replied'),
]);

/** One recipient of a notice, for its publisher. */
export const NoticeRecipient = Type.Object({
  userId: Type.String(),
  name: Type.String(),
  username: Type.String(),
  state: State,
  readStatus: Type.Integer({ minimum: 0, maximum: 1 }),
  readTime: Nullable(Type.String()),
  answerStatus: Type.Integer({ minimum: 0, maximum: 1 }),
  replyTime: Nullable(Type.String()),
  replyContent: Nullable(Type.String()),
  replyFile: Type.Array(FileLink),
});
export type NoticeRecipient = Static<typeof NoticeRecipient>;

/** GET /api/admin/notices/:id/recipients (and its CSV export): a page, by state and by name. */
export const RecipientQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  state: Type.Optional(State),
  /** Words of a recipient's name or username. */
  q: Type.Optional(Text(100)),
});
export type RecipientQuery = Static<typeof RecipientQuery>;

/** The recipients as CSV (one row each, a header row; cells a spreadsheet would run are defused). */
export const RecipientsCsv = Type.Object({ fileName: Type.String(), csv: Type.String() });
export type RecipientsCsv = Static<typeof RecipientsCsv>;

/** GET /api/admin/notices: the tenant's notices, newest first; `q` looks in titles. */
export const AdminNoticeQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  q: Type.Optional(Text(100)),
  /** `active` (not withdrawn) or `withdrawn`; all when absent. */
  state: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('withdrawn')])),
});
export type AdminNoticeQuery = Static<typeof AdminNoticeQuery>;

/** GET /api/admin/notices/audience: roles, enterprises or users of the tenant to send to, by name. */
export const AudienceQuery = Type.Object({
  kind: Type.Union([Type.Literal('role'), Type.Literal('enterprise'), Type.Literal('users')]),
  q: Type.Optional(Text(100)),
});
export type AudienceQuery = Static<typeof AudienceQuery>;
export const AudienceChoice = Type.Object({ id: Type.String(), name: Type.String(), detail: Type.String() });
export type AudienceChoice = Static<typeof AudienceChoice>;

/** Who a notice went to, with the names of the roles, enterprises or users it named. */
export const AudienceView = Type.Object({
  kind: Type.Union([Type.Literal('tenant'), Type.Literal('enterprise'), Type.Literal('role'), Type.Literal('users')]),
  names: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
});
export type AudienceView = Static<typeof AudienceView>;

/** A published notice as its publishers see it: the counts of how far its recipients have got. */
export const AdminNotice = Type.Object({
  id: Type.String(),
  title: Type.String(),
  /** The English title, '' when none (ADR 020). */
  titleEn: Type.String(),
  pushTime: Type.String(),
  validityTime: Nullable(Type.String()),
  replyWay: Type.Integer({ minimum: 0, maximum: 2 }),
  audience: AudienceView,
  /** Who published it; null for the system's own (an enterprise review's outcome). */
  sender: Nullable(Type.String()),
  recipients: Type.Integer({ minimum: 0 }),
  read: Type.Integer({ minimum: 0 }),
  confirmed: Type.Integer({ minimum: 0 }),
  replied: Type.Integer({ minimum: 0 }),
  /** When it was withdrawn (China time), and by whom; null while it stands. */
  withdrawnAt: Nullable(Type.String()),
  withdrawnBy: Nullable(Type.String()),
});
export type AdminNotice = Static<typeof AdminNotice>;

/** One notice for its publishers: the list's fields and what its recipients read. */
export const AdminNoticeDetail = Type.Object({
  ...AdminNotice.properties,
  /** HTML, sanitised by the server; `remarkEn` '' when there is no English body. */
  remark: Type.String(),
  remarkEn: Type.String(),
  content: Nullable(Type.String()),
  pushFile: Type.Array(FileLink),
});
export type AdminNoticeDetail = Static<typeof AdminNoticeDetail>;

/** The caller's unread notices (the bell's badge). */
export const UnreadCount = Type.Object({ unread: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;
