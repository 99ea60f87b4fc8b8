import { alias } from 'drizzle-orm/pg-core';
import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { chinaTime, containing, pageOf, totalRows } from '../../db/expressions.js';
import {
  enterpriseMembers,
  enterprises,
  roles,
  files as uploads,
  noticeRecipients as rcp,
  notices,
  userEvents,
  userRoles,
  users,
  type NoticeAudience,
  type StoredFileRef,
} from '../../db/schema.js';

export interface NoticeFilter {
  readStatus?: 0 | 1 | undefined;
  answerStatus?: 0 | 1 | undefined;
  title?: string | undefined;
}

export interface NewNotice {
  title: string;
  remark: string;
  content: string | null;
  replyWay: 0 | 1 | 2;
  validityTime: Date | null;
  pushFiles: StoredFileRef[];
  audience: NoticeAudience;
  translations: { en?: { title?: string; remark?: string } };
}

/** The console's filters of a notice's recipients (RecipientState's words). */
export interface RecipientFilter {
  state?: 'unread' | 'read' | 'confirmed' | 'replied' | undefined;
  q?: string | undefined;
}

/** A recipient's state in one word: confirmed or replied once answered, read once opened. */
const recipientState = sql<'unread' | 'read' | 'confirmed' | 'replied'>`CASE
  WHEN ${rcp.answerStatus} = 1 AND ${notices.replyWay} = 0 THEN 'confirmed'
  WHEN ${rcp.answerStatus} = 1 THEN 'replied'
  WHEN ${rcp.readStatus} = 1 THEN 'read'
  ELSE 'unread' END`;

/** A notice its operators have not withdrawn: the only kind its recipients see. */
const standing = isNull(notices.withdrawnAt);

const sender = alias(users, 'sender');
const withdrawer = alias(users, 'withdrawer');
/** How far a notice's recipients have got, counted from their rows. */
const tally = (filter: SQL) =>
  sql<number>`(SELECT count(*) FROM ${rcp} WHERE ${rcp.noticeId} = ${notices.id} AND ${filter})`.mapWith(Number);

/** What the caller sees of a notice: the notice and their own recipient row. */
const view = {
  id: notices.id,
  title: notices.title,
  remark: notices.remark,
  content: notices.content,
  translations: notices.translations,
  replyWay: notices.replyWay,
  pushTime: chinaTime(notices.pushTime),
  validityTime: chinaTime(notices.validityTime),
  expired: sql<boolean>`coalesce(${notices.validityTime} <= now(), false)`,
  pushFiles: notices.pushFiles,
  readStatus: rcp.readStatus,
  answerStatus: rcp.answerStatus,
  replyContent: rcp.replyContent,
  replyFiles: rcp.replyFiles,
  replyTime: chinaTime(rcp.repliedAt),
};

/** A notice as its operators list it: who sent and withdrew it, and its recipients' counts. */
const adminView = {
  id: notices.id,
  title: notices.title,
  translations: notices.translations,
  pushTime: chinaTime(notices.pushTime),
  validityTime: chinaTime(notices.validityTime),
  replyWay: notices.replyWay,
  audience: notices.audience,
  senderName: sender.name,
  senderTranslations: sender.translations,
  withdrawnAt: chinaTime(notices.withdrawnAt),
  withdrawnByName: withdrawer.name,
  withdrawnByTranslations: withdrawer.translations,
  recipients: tally(sql`true`),
  read: tally(sql`${rcp.readStatus} = 1`),
  confirmed: tally(sql`${rcp.answerStatus} = 1 AND ${notices.replyWay} = 0`),
  replied: tally(sql`${rcp.answerStatus} = 1 AND ${notices.replyWay} <> 0`),
};

export function createNoticesRepository(db: Db) {
  /**
   * Writes the user's read or answer state on their own row of a notice of the tenant, while the
   * row still is as `still` says and the notice as `notice` says (not past its validity for an
   * answer); true when written. An event tells the user's streams the count may have changed.
   */
  const answer = (
    tenantId: number,
    userId: number,
    noticeId: number,
    set: PgUpdateSetSource<typeof rcp>,
    still: SQL,
    notice?: SQL,
  ): Promise<boolean> =>
    db.transaction(async (tx) => {
      const open = tx
        .select({ id: notices.id })
        .from(notices)
        .where(
          and(
            eq(notices.id, noticeId),
            eq(notices.tenantId, tenantId),
            standing,
            notice && and(notice, sql`coalesce(${notices.validityTime} > now(), true)`),
          ),
        );
      const done = await tx
        .update(rcp)
        .set(set)
        .where(and(eq(rcp.noticeId, noticeId), eq(rcp.userId, userId), inArray(rcp.noticeId, open), still))
        .returning({ noticeId: rcp.noticeId });
      if (done.length === 0) return false;
      await tx.insert(userEvents).values({ tenantId, userId, kind: 'read', noticeId });
      return true;
    });

  return {
    /** One page of the user's notices, newest first, with their read and reply state. */
    async page(tenantId: number, userId: number, f: NoticeFilter, page: number, limit: number) {
      const where: (SQL | undefined)[] = [eq(rcp.userId, userId), eq(notices.tenantId, tenantId), standing];
      if (f.readStatus !== undefined) where.push(eq(rcp.readStatus, f.readStatus));
      if (f.answerStatus !== undefined) where.push(eq(rcp.answerStatus, f.answerStatus));
      if (f.title) {
        const like = containing(f.title);
        where.push(or(ilike(notices.title, like), sql`${notices.translations} #>> '{en,title}' ILIKE ${like}`));
      }
      const rows = await db
        .select({ ...view, total: totalRows() })
        .from(rcp)
        .innerJoin(notices, eq(notices.id, rcp.noticeId))
        .where(and(...where))
        .orderBy(desc(notices.pushTime), desc(notices.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return { rows, total: rows[0]?.total ?? 0 };
    },

    /** The user's notice `noticeId`, or null when it is not one of theirs in the tenant. */
    async one(tenantId: number, userId: number, noticeId: number) {
      const [row] = await db
        .select(view)
        .from(rcp)
        .innerJoin(notices, eq(notices.id, rcp.noticeId))
        .where(and(eq(rcp.noticeId, noticeId), eq(rcp.userId, userId), eq(notices.tenantId, tenantId), standing));
      return row ?? null;
    },

    /** How many unread notices each of these users of the tenant has (absent: none). */
    async unreadMany(tenantId: number, userIds: number[]): Promise<Map<number, number>> {
      const rows = await db
        .select({ userId: rcp.userId, n: count() })
        .from(rcp)
        .innerJoin(notices, eq(notices.id, rcp.noticeId))
        .where(and(inArray(rcp.userId, userIds), eq(rcp.readStatus, 0), eq(notices.tenantId, tenantId), standing))
        .groupBy(rcp.userId);
      return new Map(rows.map((r) => [r.userId, r.n]));
    },

    /** Marks the notice read; false when it is not the user's or was read already. */
    markRead(tenantId: number, userId: number, noticeId: number) {
      return answer(tenantId, userId, noticeId, { readStatus: 1, readAt: sql`now()` }, eq(rcp.readStatus, 0));
    },

    /** 阅办: confirms a confirm-only notice still open; false when there is none such of the user's. */
    confirm(tenantId: number, userId: number, noticeId: number) {
      return answer(
        tenantId,
        userId,
        noticeId,
        { answerStatus: 1, repliedAt: sql`now()`, readStatus: 1, readAt: sql`coalesce(${rcp.readAt}, now())` },
        eq(rcp.answerStatus, 0),
        eq(notices.replyWay, 0),
      );
    },

    /**
     * Replies to a notice that takes replies and is still open; false when there is none such, or
     * when a file it names is gone. The files are locked until the reply commits, so housekeeping,
     * which removes uploads nothing names, waits for it or has removed them first.
     */
    reply(tenantId: number, userId: number, noticeId: number, content: string, files: StoredFileRef[]) {
      const ids = [...new Set(files.map((f) => f.addr.slice('files/'.length)))];
      const present =
        ids.length === 0
          ? undefined
          : sql`(SELECT count(*) FROM (SELECT 1 FROM ${uploads} WHERE ${inArray(uploads.id, ids)} FOR KEY SHARE) AS held) = ${ids.length}`;
      return answer(
        tenantId,
        userId,
        noticeId,
        {
          answerStatus: 1,
          replyContent: content,
          replyFiles: files,
          repliedAt: sql`now()`,
          readStatus: 1,
          readAt: sql`coalesce(${rcp.readAt}, now())`,
        },
        and(eq(rcp.answerStatus, 0), present)!,
        inArray(notices.replyWay, [1, 2]),
      );
    },

    /**
     * Publishes a notice: the notice, one recipient row per user of the audience in the tenant
     * (fixed now: who joins later does not get it), and an event per recipient; one transaction.
     */
    async publish(
      tenantId: number,
      senderId: number | null,
      n: NewNotice,
    ): Promise<{ id: number; recipients: number[] }> {
      return db.transaction(async (tx) => {
        const [notice] = await tx
          .insert(notices)
          .values({ tenantId, senderId, ...n })
          .returning({ id: notices.id });
        const id = notice!.id;
        const a = n.audience;
        const audience =
          a.kind === 'tenant'
            ? tx.select({ userId: users.id }).from(users).where(eq(users.tenantId, tenantId))
            : a.kind === 'users'
              ? tx
                  .select({ userId: users.id })
                  .from(users)
                  .where(and(eq(users.tenantId, tenantId), inArray(users.id, a.ids)))
              : a.kind === 'role'
                ? tx
                    .selectDistinct({ userId: users.id })
                    .from(users)
                    .innerJoin(userRoles, eq(userRoles.userId, users.id))
                    .where(and(eq(users.tenantId, tenantId), inArray(userRoles.roleId, a.ids)))
                : tx
                    .selectDistinct({ userId: users.id })
                    .from(users)
                    .innerJoin(enterpriseMembers, eq(enterpriseMembers.userId, users.id))
                    .where(and(eq(users.tenantId, tenantId), inArray(enterpriseMembers.enterpriseId, a.ids)));
        const people = (await audience).map((r) => r.userId);
        if (people.length > 0) {
          await tx.insert(rcp).values(people.map((userId) => ({ noticeId: id, userId })));
          await tx
            .insert(userEvents)
            .values(people.map((userId) => ({ tenantId, userId, kind: 'notice', noticeId: id })));
        }
        return { id, recipients: people };
      });
    },

    /** The tenant's notices for its operators, newest first, withdrawn ones too, with their counts. */
    async adminPage(
      tenantId: number,
      f: { q?: string | undefined; state?: 'active' | 'withdrawn' | undefined },
      page: number,
      limit: number,
    ) {
      const like = f.q ? containing(f.q) : undefined;
      const rows = await db
        .select({ ...adminView, total: totalRows() })
        .from(notices)
        .leftJoin(sender, eq(sender.id, notices.senderId))
        .leftJoin(withdrawer, eq(withdrawer.id, notices.withdrawnBy))
        .where(
          and(
            eq(notices.tenantId, tenantId),
            f.state === 'active' ? standing : f.state === 'withdrawn' ? isNotNull(notices.withdrawnAt) : undefined,
            like
              ? or(ilike(notices.title, like), sql`${notices.translations} #>> '{en,title}' ILIKE ${like}`)
              : undefined,
          ),
        )
        .orderBy(desc(notices.pushTime), desc(notices.id))
        .limit(limit)
        .offset((page - 1) * limit);
      return pageOf(rows);
    },

    /** One notice of the tenant for its operators, with its body and attachments; null for none such. */
    async adminOne(tenantId: number, noticeId: number) {
      const [row] = await db
        .select({
          ...adminView,
          remark: notices.remark,
          content: notices.content,
          pushFiles: notices.pushFiles,
        })
        .from(notices)
        .leftJoin(sender, eq(sender.id, notices.senderId))
        .leftJoin(withdrawer, eq(withdrawer.id, notices.withdrawnBy))
        .where(and(eq(notices.id, noticeId), eq(notices.tenantId, tenantId)));
      return row ?? null;
    },

    /**
     * The roles, enterprises or users of the tenant among `ids`, with their names: an audience names
     * only those of its own tenant, and a publisher is shown whom a notice named.
     */
    async audienceMembers(tenantId: number, kind: 'role' | 'enterprise' | 'users', ids: number[]) {
      if (ids.length === 0) return [];
      const table = kind === 'role' ? roles : kind === 'enterprise' ? enterprises : users;
      const name = kind === 'role' ? roles.title : kind === 'enterprise' ? enterprises.name : users.name;
      return db
        .select({ id: table.id, name, translations: table.translations })
        .from(table)
        .where(and(eq(table.tenantId, tenantId), inArray(table.id, ids)))
        .orderBy(table.id) as Promise<
        { id: number; name: string; translations: Record<string, { name?: string; title?: string }> | null }[]
      >;
    },

    /** Up to 30 roles, enterprises or users of the tenant whose name (or code, username) holds `q`. */
    async audienceChoices(tenantId: number, kind: 'role' | 'enterprise' | 'users', q: string | undefined) {
      const like = q ? containing(q) : undefined;
      if (kind === 'role') {
        return db
          .select({ id: roles.id, name: roles.title, translations: roles.translations, detail: roles.code })
          .from(roles)
          .where(
            and(eq(roles.tenantId, tenantId), like ? or(ilike(roles.title, like), ilike(roles.code, like)) : undefined),
          )
          .orderBy(roles.id)
          .limit(30);
      }
      if (kind === 'enterprise') {
        return db
          .select({
            id: enterprises.id,
            name: enterprises.name,
            translations: enterprises.translations,
            detail: sql<string>`coalesce(${enterprises.creditCode}, '')`,
          })
          .from(enterprises)
          .where(and(eq(enterprises.tenantId, tenantId), like ? ilike(enterprises.name, like) : undefined))
          .orderBy(enterprises.id)
          .limit(30);
      }
      return db
        .select({ id: users.id, name: users.name, translations: users.translations, detail: users.username })
        .from(users)
        .where(
          and(
            eq(users.tenantId, tenantId),
            like ? or(ilike(users.name, like), ilike(users.username, like)) : undefined,
          ),
        )
        .orderBy(users.id)
        .limit(30);
    },

    /** An enterprise of the tenant's name and English name; null for none such. */
    async enterprise(tenantId: number, id: number) {
      const [row] = await db
        .select({ name: enterprises.name, translations: enterprises.translations })
        .from(enterprises)
        .where(and(eq(enterprises.id, id), eq(enterprises.tenantId, tenantId)));
      return row ?? null;
    },

    /**
     * Who a notice of the tenant went to and how far each has got, by state and name; null for no
     * such notice. `page` null reads them all (the export).
     */
    async recipients(
      tenantId: number,
      noticeId: number,
      f: RecipientFilter,
      page: { page: number; limit: number } | null,
    ) {
      const [exists] = await db
        .select({ id: notices.id })
        .from(notices)
        .where(and(eq(notices.id, noticeId), eq(notices.tenantId, tenantId)));
      if (!exists) return null;
      const like = f.q ? containing(f.q) : undefined;
      const query = db
        .select({
          userId: users.id,
          name: users.name,
          translations: users.translations,
          username: users.username,
          state: recipientState,
          readStatus: rcp.readStatus,
          readTime: chinaTime(rcp.readAt),
          answerStatus: rcp.answerStatus,
          replyTime: chinaTime(rcp.repliedAt),
          replyContent: rcp.replyContent,
          replyFiles: rcp.replyFiles,
          total: totalRows(),
        })
        .from(rcp)
        .innerJoin(notices, eq(notices.id, rcp.noticeId))
        .innerJoin(users, eq(users.id, rcp.userId))
        .where(
          and(
            eq(rcp.noticeId, noticeId),
            f.state ? sql`${recipientState} = ${f.state}` : undefined,
            like
              ? or(
                  ilike(users.name, like),
                  ilike(users.username, like),
                  sql`${users.translations} #>> '{en,name}' ILIKE ${like}`,
                )
              : undefined,
          ),
        )
        .orderBy(users.id);
      const rows = page ? await query.limit(page.limit).offset((page.page - 1) * page.limit) : await query;
      return pageOf(rows);
    },

    /**
     * Withdraws a notice of the tenant: marked withdrawn (by whom, when), and an event for each of its
     * recipients, whose lists and counts lose it; one transaction. `null` for no such notice,
     * `'already'` when it was withdrawn before; else the recipients to tell.
     */
    async withdraw(tenantId: number, noticeId: number, by: number): Promise<number[] | 'already' | null> {
      return db.transaction(async (tx) => {
        const [done] = await tx
          .update(notices)
          .set({ withdrawnAt: sql`now()`, withdrawnBy: by })
          .where(and(eq(notices.id, noticeId), eq(notices.tenantId, tenantId), standing))
          .returning({ id: notices.id });
        if (!done) {
          const [found] = await tx
            .select({ id: notices.id })
            .from(notices)
            .where(and(eq(notices.id, noticeId), eq(notices.tenantId, tenantId)));
          return found ? 'already' : null;
        }
        const people = (await tx.select({ userId: rcp.userId }).from(rcp).where(eq(rcp.noticeId, noticeId))).map(
          (r) => r.userId,
        );
        if (people.length > 0) {
          await tx
            .insert(userEvents)
            .values(people.map((userId) => ({ tenantId, userId, kind: 'withdrawn', noticeId })));
        }
        return people;
      });
    },
  };
}

export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
