import {
  isOneLine,
  isValidReplyLength,
  ResultCode,
  type AdminNotice,
  type AdminNoticeDetail,
  type AudienceChoice,
  type AudienceView,
  type FileLink,
  type FileRef,
  type Notice,
  type NoticeRecipient,
  type RecipientState,
} from '@portal/contracts';
import type { NoticeAudience, StoredFileRef } from '../../db/schema.js';
import { csvOf } from '../../platform/csv.js';
import { AppError } from '../../platform/errors.js';
import { escapeMarkup, sanitizeRichText } from '../../platform/html.js';
import { localized, type Lang } from '../../platform/i18n.js';
import { optionalRowId, rowId } from '../../platform/ids.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { RateLimiter } from '../../platform/rate-limit.js';
import type { ActiveSession } from '../../platform/session.js';
import type { NoticeFilter, NoticesRepository, RecipientFilter } from './notices.repository.js';

/** The permission code (docs/product/permissions.md#action-codes style) that guards publishing and the per-notice recipient list. */
export const PUBLISH_PERMISSION = 'notice:publish';

/** Notices a tenant's operators may publish in an hour (the system's own do not count). */
export const NOTICES_PER_HOUR = 60;

/** What an upload of an attachment brings (a multipart part). */
export interface AttachmentUpload {
  file: NodeJS.ReadableStream & { truncated?: boolean };
  filename: string;
}

type Row = NonNullable<Awaited<ReturnType<NoticesRepository['one']>>>;
type AdminRow = Awaited<ReturnType<NoticesRepository['adminPage']>>['records'][number];
type Named = { name: string; translations: { en?: { name?: string } } | null };

export interface NoticesServiceDeps {
  repo: NoticesRepository;
  guard: PermissionGuard;
  /** A stored file's reference with its signed download address (the files module's). */
  link: (ref: StoredFileRef) => FileLink;
  /**
   * The attachments named, each the caller's own upload for `purpose` (a reply's, or a notice's);
   * refuses any other (files module).
   */
  ownFiles: (
    owner: { tenantId: number; userId: number },
    purpose: 'reply' | 'notice',
    refs: FileRef[],
  ) => Promise<StoredFileRef[]>;
  /** Keeps an operator's upload of a notice attachment; its stored path (files module). */
  storeAttachment: (
    owner: { tenantId: number; userId: number },
    upload: AttachmentUpload,
    length: number | undefined,
  ) => Promise<string>;
  /** Tells the recipients' live streams (the events module). */
  announce: (userIds: number[]) => Promise<void>;
  limiter: Pick<RateLimiter, 'take'>;
}

/** The system's notice of an enterprise's review, in both languages (the member reads theirs). */
const REVIEW_TEXTS = {
  1: {
    zh: { title: '企业审核已通过', body: (name: string) => `您的企业「${name}」已通过园区审核。` },
    en: {
      title: 'Enterprise review passed',
      body: (name: string) => `Your enterprise “${name}” has passed the park’s review.`,
    },
  },
  2: {
    zh: {
      title: '企业审核未通过',
      body: (name: string, reason: string) => `您的企业「${name}」未通过园区审核。原因：${reason}`,
    },
    en: {
      title: 'Enterprise review not passed',
      body: (name: string, reason: string) =>
        `Your enterprise “${name}” has not passed the park’s review. Reason: ${reason}`,
    },
  },
} as const;

/** The export's header and state words, in the reader's language. */
const CSV_TEXTS = {
  zh: {
    header: ['姓名', '用户名', '状态', '阅读时间', '回复时间', '回复内容', '附件'],
    states: { unread: '未读', read: '已读', confirmed: '已确认', replied: '已回复' },
  },
  en: {
    header: ['Name', 'Username', 'State', 'Read at', 'Replied at', 'Reply', 'Attachments'],
    states: { unread: 'Unread', read: 'Read', confirmed: 'Confirmed', replied: 'Replied' },
  },
} satisfies Record<Lang, { header: string[]; states: Record<RecipientState, string> }>;

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'noticeNotFound');
const status = (v: number | '' | null | undefined): 0 | 1 | undefined => (v === 0 || v === 1 ? v : undefined);

export function createNoticesService({
  repo,
  guard,
  link,
  ownFiles,
  storeAttachment,
  announce,
  limiter,
}: NoticesServiceDeps) {
  const toNotice = (r: Row, lang: Lang): Notice => ({
    id: String(r.id),
    title: localized(lang, { title: r.title, translations: r.translations }, 'title'),
    pushTime: r.pushTime,
    remark: localized(lang, { remark: r.remark, translations: r.translations }, 'remark'),
    answerStatus: r.answerStatus,
    replyWay: r.replyWay,
    pushFile: r.pushFiles.map(link),
    replyFile: r.replyFiles.map(link),
    content: r.content,
    validityTime: r.validityTime,
    readStatus: r.readStatus,
    replyContent: r.replyContent,
    replyTime: r.replyTime,
  });
  /** A notice id from a request: one that names no row answers as a notice that does not exist. */
  const noticeId = (v: number | string) => {
    try {
      return rowId(v);
    } catch {
      throw notFound();
    }
  };

  const nameOf = (lang: Lang, name: string | null, translations: Named['translations']) =>
    name === null ? null : localized(lang, { name, translations }, 'name');

  /** A role's title or an enterprise's or user's name in `lang` (ADR 020). */
  const translatedName = (
    lang: Lang,
    r: { name: string; translations: Record<string, { name?: string; title?: string } | undefined> | null },
  ) => (lang === 'zh' ? undefined : (r.translations?.[lang]?.name ?? r.translations?.[lang]?.title)) ?? r.name;

  /** An audience whose every role, enterprise or user is the tenant's; else 400. */
  async function ownAudience(tenantId: number, a: NoticeAudience): Promise<NoticeAudience> {
    if (a.kind === 'tenant') return { kind: 'tenant' };
    const ids = [...new Set(a.ids)];
    const found = await repo.audienceMembers(tenantId, a.kind, ids);
    if (found.length !== ids.length) throw new AppError(ResultCode.BAD_REQUEST, 'noticeAudienceInvalid');
    return { kind: a.kind, ids };
  }

  /** Whom a notice named, by name (those since deleted are left out). */
  async function audienceOf(tenantId: number, a: NoticeAudience, lang: Lang): Promise<AudienceView> {
    if (a.kind === 'tenant') return { kind: 'tenant', names: [] };
    const found = await repo.audienceMembers(tenantId, a.kind, a.ids);
    return {
      kind: a.kind,
      names: found.map((r) => ({ id: String(r.id), name: translatedName(lang, r) })),
    };
  }

  const toAdmin = async (tenantId: number, r: AdminRow, lang: Lang): Promise<AdminNotice> => ({
    id: String(r.id),
    title: r.title,
    titleEn: r.translations?.en?.title ?? '',
    pushTime: r.pushTime,
    validityTime: r.validityTime,
    replyWay: r.replyWay,
    audience: await audienceOf(tenantId, r.audience, lang),
    sender: nameOf(lang, r.senderName, r.senderTranslations),
    recipients: r.recipients,
    read: r.read,
    confirmed: r.confirmed,
    replied: r.replied,
    withdrawnAt: r.withdrawnAt,
    withdrawnBy: nameOf(lang, r.withdrawnByName, r.withdrawnByTranslations),
  });

  const filterOf = (q: RecipientFilter): RecipientFilter => ({ state: q.state, q: q.q?.trim() || undefined });

  return {
    /** replyPage: the caller's notices; another user's (receiverId) is refused. */
    async page(
      s: ActiveSession,
      q: {
        page?: number;
        limit?: number;
        readStatus?: number | '' | null;
        answerStatus?: number | '' | null;
        receiverId?: number | string | null;
        title?: string;
      },
      lang: Lang,
    ) {
      const receiver = optionalRowId(q.receiverId ?? null);
      if (receiver !== null && receiver !== s.userId) throw new AppError(ResultCode.NO_PERMISSION, 'receiverNotSelf');
      const filter: NoticeFilter = {
        readStatus: status(q.readStatus),
        answerStatus: status(q.answerStatus),
        title: q.title?.trim() || undefined,
      };
      const { rows, total } = await repo.page(s.tenantId, s.userId, filter, q.page ?? 1, q.limit ?? 10);
      return { rows: rows.map((r) => toNotice(r, lang)), total };
    },

    async one(s: ActiveSession, id: number | string, lang: Lang): Promise<Notice> {
      const row = await repo.one(s.tenantId, s.userId, noticeId(id));
      if (!row) throw notFound();
      return toNotice(row, lang);
    },

    async unread(s: ActiveSession): Promise<number> {
      return (await repo.unreadMany(s.tenantId, [s.userId])).get(s.userId) ?? 0;
    },

    /** editAnswerStatus: `read`, or `confirm` (阅办) of a confirm-only notice not answered yet. */
    async answerStatus(s: ActiveSession, id: number | string, action: 'read' | 'confirm'): Promise<void> {
      const n = noticeId(id);
      const done =
        action === 'read' ? await repo.markRead(s.tenantId, s.userId, n) : await repo.confirm(s.tenantId, s.userId, n);
      if (done) return announce([s.userId]);
      // Nothing written: absent (404), or already so (reading twice is fine; confirming twice is not).
      const row = await repo.one(s.tenantId, s.userId, n);
      if (!row) throw notFound();
      if (action === 'confirm') throw new AppError(ResultCode.CONFLICT, 'noticeClosed');
    },

    /** The reply (docs/product/data.md#notices) to a notice that takes one, once, within its validity. */
    async reply(s: ActiveSession, body: { id: number | string; content?: string; fileList?: FileRef[] }) {
      const n = noticeId(body.id);
      const row = await repo.one(s.tenantId, s.userId, n);
      if (!row) throw notFound();
      const content = (body.content ?? '').trim();
      if (!isValidReplyLength(content)) throw new AppError(ResultCode.BAD_REQUEST, 'replyLength');
      const wanted = body.fileList ?? [];
      if (wanted.length > 0 && row.replyWay !== 2) throw new AppError(ResultCode.CONFLICT, 'noticeClosed');
      const files = await ownFiles({ tenantId: s.tenantId, userId: s.userId }, 'reply', wanted);
      if (!(await repo.reply(s.tenantId, s.userId, n, content, files))) {
        throw new AppError(ResultCode.CONFLICT, 'noticeClosed');
      }
      await announce([s.userId]);
    },

    /**
     * Publishes a notice to an audience of the caller's tenant (operators: `notice:publish`): every
     * role, enterprise or user it names must be the tenant's, every attachment the caller's own
     * upload; at most NOTICES_PER_HOUR a tenant.
     */
    async publish(
      s: ActiveSession,
      n: {
        title: string;
        remark: string;
        content?: string | null;
        replyWay: 0 | 1 | 2;
        validityTime?: string | null;
        audience: NoticeAudience;
        pushFile?: FileRef[];
        translations?: { en?: { title?: string; remark?: string } };
      },
    ): Promise<{ id: string; recipients: number }> {
      await guard.require(s, PUBLISH_PERMISSION);
      const title = n.title.trim();
      if (!title) throw new AppError(ResultCode.BAD_REQUEST, 'noticeTitleRequired');
      // A title is shown in one line everywhere (bells, lists, CSV, the CLI's table): nothing that
      // breaks it or hides in it (a line break, a control, bidi or zero-width character).
      const titleEn = n.translations?.en?.title?.trim();
      if (!isOneLine(title) || (titleEn && !isOneLine(titleEn)))
        throw new AppError(ResultCode.BAD_REQUEST, 'noticeTitleOneLine');
      const validity = n.validityTime ? new Date(n.validityTime) : null;
      if (validity && (Number.isNaN(validity.getTime()) || validity.getTime() <= Date.now())) {
        throw new AppError(ResultCode.BAD_REQUEST, 'noticeValidityPast');
      }
      const audience = await ownAudience(s.tenantId, n.audience);
      const pushFiles = await ownFiles({ tenantId: s.tenantId, userId: s.userId }, 'notice', n.pushFile ?? []);
      const quota = await limiter.take([
        { key: `notice:publish:${s.tenantId}`, amount: 1, limit: NOTICES_PER_HOUR, windowSeconds: 3600 },
      ]);
      if ('refused' in quota) {
        throw new AppError(
          ResultCode.TOO_MANY_REQUESTS,
          'noticeQuota',
          { limit: NOTICES_PER_HOUR },
          { 'retry-after': String(Math.max(1, Math.ceil(quota.retrySeconds))) },
        );
      }
      const en = n.translations?.en;
      const enTitle = en?.title?.trim();
      const published = await repo.publish(s.tenantId, s.userId, {
        title,
        remark: sanitizeRichText(n.remark),
        content: n.content?.trim() || null,
        replyWay: n.replyWay,
        validityTime: validity,
        pushFiles,
        audience,
        translations: en
          ? { en: { ...(enTitle && { title: enTitle }), ...(en.remark && { remark: sanitizeRichText(en.remark) }) } }
          : {},
      });
      await announce(published.recipients);
      return { id: String(published.id), recipients: published.recipients.length };
    },

    /** Keeps an attachment for a notice the caller is writing (operators: `notice:publish`); its stored path. */
    async uploadAttachment(
      s: ActiveSession,
      part: () => Promise<AttachmentUpload>,
      length: number | undefined,
    ): Promise<string> {
      await guard.require(s, PUBLISH_PERMISSION);
      return storeAttachment({ tenantId: s.tenantId, userId: s.userId }, await part(), length);
    },

    /** Roles, enterprises or users of the caller's tenant a notice may go to, by name (operators). */
    async audienceChoices(
      s: ActiveSession,
      q: { kind: 'role' | 'enterprise' | 'users'; q?: string },
      lang: Lang,
    ): Promise<AudienceChoice[]> {
      await guard.require(s, PUBLISH_PERMISSION);
      const rows = await repo.audienceChoices(s.tenantId, q.kind, q.q?.trim() || undefined);
      return rows.map((r) => ({ id: String(r.id), name: translatedName(lang, r), detail: r.detail }));
    },

    /** The tenant's notices, withdrawn ones too, with how far their recipients have got (operators). */
    async list(
      s: ActiveSession,
      q: { page?: number; limit?: number; q?: string; state?: 'active' | 'withdrawn' },
      lang: Lang,
    ): Promise<{ records: AdminNotice[]; total: number }> {
      await guard.require(s, PUBLISH_PERMISSION);
      const { records, total } = await repo.adminPage(
        s.tenantId,
        { q: q.q?.trim() || undefined, state: q.state },
        q.page ?? 1,
        q.limit ?? 20,
      );
      return { records: await Promise.all(records.map((r) => toAdmin(s.tenantId, r, lang))), total };
    },

    /** One notice of the tenant as its publishers see it (operators). */
    async detail(s: ActiveSession, id: string, lang: Lang): Promise<AdminNoticeDetail> {
      await guard.require(s, PUBLISH_PERMISSION);
      const row = await repo.adminOne(s.tenantId, noticeId(id));
      if (!row) throw notFound();
      return {
        ...(await toAdmin(s.tenantId, row, lang)),
        remark: row.remark,
        remarkEn: row.translations?.en?.remark ?? '',
        content: row.content,
        pushFile: row.pushFiles.map(link),
      };
    },

    /** Who a notice went to and how far each has got, by state and name (operators). */
    async recipients(
      s: ActiveSession,
      id: string,
      q: RecipientFilter & { page?: number; limit?: number },
      lang: Lang,
    ): Promise<{ records: NoticeRecipient[]; total: number }> {
      await guard.require(s, PUBLISH_PERMISSION);
      const found = await repo.recipients(s.tenantId, noticeId(id), filterOf(q), {
        page: q.page ?? 1,
        limit: q.limit ?? 20,
      });
      if (!found) throw notFound();
      return {
        records: found.records.map((r) => ({
          userId: String(r.userId),
          name: localized(lang, r, 'name'),
          username: r.username,
          state: r.state,
          readStatus: r.readStatus,
          readTime: r.readTime,
          answerStatus: r.answerStatus,
          replyTime: r.replyTime,
          replyContent: r.replyContent,
          replyFile: r.replyFiles.map(link),
        })),
        total: found.total,
      };
    },

    /** The recipients as CSV, every one the filter keeps, in the reader's language (operators). */
    async exportRecipients(
      s: ActiveSession,
      id: string,
      q: RecipientFilter,
      lang: Lang,
    ): Promise<{ fileName: string; csv: string }> {
      await guard.require(s, PUBLISH_PERMISSION);
      const n = noticeId(id);
      const found = await repo.recipients(s.tenantId, n, filterOf(q), null);
      if (!found) throw notFound();
      const words = CSV_TEXTS[lang];
      const csv = csvOf(
        words.header,
        found.records.map((r) => [
          localized(lang, r, 'name'),
          r.username,
          words.states[r.state],
          r.readTime,
          r.replyTime,
          r.replyContent,
          r.replyFiles.map((f) => f.fileName).join('; '),
        ]),
      );
      return { fileName: `notice-${n}-recipients.csv`, csv };
    },

    /**
     * Withdraws a notice (operators): it leaves its recipients' lists, bells and counts at once (their
     * live streams are told) and stays in the console as withdrawn. Withdrawing twice is refused.
     */
    async withdraw(s: ActiveSession, id: string): Promise<void> {
      await guard.require(s, PUBLISH_PERMISSION);
      const done = await repo.withdraw(s.tenantId, noticeId(id), s.userId);
      if (done === null) throw notFound();
      if (done === 'already') throw new AppError(ResultCode.CONFLICT, 'noticeWithdrawn');
      await announce(done);
    },

    /**
     * Tells an enterprise's members that its review was decided (the admin module's review calls it
     * in the review's own transaction): a confirm-only notice from the system, in Chinese and English.
     */
    async reviewDecided(tenantId: number, enterpriseId: number, estatus: 1 | 2, reason: string | null): Promise<void> {
      const e = await repo.enterprise(tenantId, enterpriseId);
      if (!e) return;
      const texts = REVIEW_TEXTS[estatus];
      const body = (l: Lang) =>
        estatus === 1
          ? REVIEW_TEXTS[1][l].body(localized(l, e, 'name'))
          : REVIEW_TEXTS[2][l].body(localized(l, e, 'name'), reason ?? '');
      const published = await repo.publish(tenantId, null, {
        title: texts.zh.title,
        remark: `<p>${escapeMarkup(body('zh'))}</p>`,
        content: body('zh'),
        replyWay: 0,
        validityTime: null,
        pushFiles: [],
        audience: { kind: 'enterprise', ids: [enterpriseId] },
        translations: { en: { title: texts.en.title, remark: `<p>${escapeMarkup(body('en'))}</p>` } },
      });
      await announce(published.recipients);
    },

    /**
     * A notice to one person from the system (a new device signed in, a factor changed): the
     * Chinese text of record and its English, each reader sees theirs.
     */
    async tell(tenantId: number, userId: number, text: Record<Lang, { title: string; body: string }>): Promise<void> {
      const published = await repo.publish(tenantId, null, {
        title: text.zh.title,
        remark: `<p>${escapeMarkup(text.zh.body)}</p>`,
        content: text.zh.body,
        replyWay: 0,
        validityTime: null,
        pushFiles: [],
        audience: { kind: 'users', ids: [userId] },
        translations: { en: { title: text.en.title, remark: `<p>${escapeMarkup(text.en.body)}</p>` } },
      });
      await announce(published.recipients);
    },
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;
