import { isValidReplyLength, ResultCode, type FileLink, type FileRef, type Notice } from '@portal/contracts';
import type { NoticeAudience, StoredFileRef } from '../../db/schema.js';
import { AppError } from '../../platform/errors.js';
import { sanitizeRichText } from '../../platform/html.js';
import { localized, type Lang } from '../../platform/i18n.js';
import { optionalRowId, rowId } from '../../platform/ids.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { ActiveSession } from '../../platform/session.js';
import type { NoticeFilter, NoticesRepository } from './notices.repository.js';

/** The permission code (docs/product/permissions.md#action-codes style) that guards publishing and the per-notice recipient list. */
export const PUBLISH_PERMISSION = 'notice:publish';

type Row = NonNullable<Awaited<ReturnType<NoticesRepository['one']>>>;

export interface NoticesServiceDeps {
  repo: NoticesRepository;
  guard: PermissionGuard;
  /** A stored file's reference with its signed download address (the files module's). */
  link: (ref: StoredFileRef) => FileLink;
  /** The reply attachments named, each the caller's own upload; refuses any other (files module). */
  ownFiles: (owner: { tenantId: number; userId: number }, refs: FileRef[]) => Promise<StoredFileRef[]>;
  /** Tells the recipients' live streams (the events module). */
  announce: (userIds: number[]) => Promise<void>;
}

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'noticeNotFound');
const status = (v: number | '' | null | undefined): 0 | 1 | undefined => (v === 0 || v === 1 ? v : undefined);

export function createNoticesService({ repo, guard, link, ownFiles, announce }: NoticesServiceDeps) {
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
      const files = await ownFiles({ tenantId: s.tenantId, userId: s.userId }, wanted);
      if (!(await repo.reply(s.tenantId, s.userId, n, content, files))) {
        throw new AppError(ResultCode.CONFLICT, 'noticeClosed');
      }
      await announce([s.userId]);
    },

    /** Publishes a notice to an audience of the caller's tenant (operators: `notice:publish`). */
    async publish(
      s: ActiveSession,
      n: {
        title: string;
        remark: string;
        content?: string | null;
        replyWay: 0 | 1 | 2;
        validityTime?: string | null;
        audience: NoticeAudience;
        translations?: { en?: { title?: string; remark?: string } };
      },
    ): Promise<{ id: string; recipients: number }> {
      await guard.require(s, PUBLISH_PERMISSION);
      const en = n.translations?.en;
      const published = await repo.publish(s.tenantId, s.userId, {
        title: n.title.trim(),
        remark: sanitizeRichText(n.remark),
        content: n.content?.trim() || null,
        replyWay: n.replyWay,
        validityTime: n.validityTime ? new Date(n.validityTime) : null,
        pushFiles: [],
        audience: n.audience,
        translations: en
          ? { en: { ...(en.title && { title: en.title }), ...(en.remark && { remark: sanitizeRichText(en.remark) }) } }
          : {},
      });
      await announce(published.recipients);
      return { id: String(published.id), recipients: published.recipients.length };
    },

    /** Who a notice went to and how far each has got (operators). */
    async recipients(s: ActiveSession, id: number | string, page: number, limit: number, lang: Lang) {
      await guard.require(s, PUBLISH_PERMISSION);
      const found = await repo.recipients(s.tenantId, noticeId(id), page, limit);
      if (!found) throw notFound();
      return {
        rows: found.rows.map((r) => ({
          userId: String(r.userId),
          name: localized(lang, r, 'name'),
          username: r.username,
          readStatus: r.readStatus,
          readTime: r.readTime,
          answerStatus: r.answerStatus,
          replyTime: r.replyTime,
        })),
        total: found.total,
      };
    },
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;
