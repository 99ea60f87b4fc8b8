import {
  ResultCode,
  documentIssue,
  localText,
  type PageDocument,
  type PageSummary,
  type PageVersion,
  type PageVersionSummary,
  type PublishedPage,
} from '@portal/contracts';
import { AppError } from '../../platform/errors.js';
import type { Lang } from '../../platform/i18n.js';
import type { PermissionGuard } from '../../platform/permissions.js';
import type { ActiveSession } from '../../platform/session.js';
import type { PagesRepository } from './pages.repository.js';

/** Composing, publishing and restoring pages in the builder. */
export const DESIGN_PERMISSION = 'page:design';

export interface PagesDeps {
  repo: PagesRepository;
  guard: PermissionGuard;
  /** The origins the tenant registered (its applications): the only ones a page may frame. */
  frameOrigins: (tenantId: number) => Promise<string[]>;
}

export function createPagesService({ repo, guard, frameOrigins }: PagesDeps) {
  /** What the schema cannot say: unique ids, the grid's width, the size, and the frames' origins. */
  async function check(s: ActiveSession, doc: PageDocument): Promise<void> {
    const issue = documentIssue(doc);
    if (issue) throw new AppError(ResultCode.BAD_REQUEST, issue);
    const frames = doc.widgets.flatMap((w) => (w.kind === 'iframe' ? [new URL(w.props.url).origin] : []));
    if (frames.length === 0) return;
    const allowed = new Set(await frameOrigins(s.tenantId));
    const refused = frames.find((o) => !allowed.has(o));
    if (refused) throw new AppError(ResultCode.BAD_REQUEST, 'frameNotAllowed', { origin: refused });
  }

  return {
    /** A drag-page view (spec §2): the published version, for users whose menu shows the page. */
    async published(s: ActiveSession, code: string): Promise<PublishedPage> {
      const page = s.roleId === null ? null : await repo.visiblePublished(s.tenantId, s.userId, s.roleId, code);
      if (!page) throw new AppError(ResultCode.NOT_FOUND, 'pageNotFound');
      if (page.version === null || !page.document) throw new AppError(ResultCode.NOT_FOUND, 'pageUnpublished');
      return { code, version: page.version, document: page.document };
    },

    async list(s: ActiveSession, lang: Lang): Promise<PageSummary[]> {
      await guard.require(s, DESIGN_PERMISSION);
      return (await repo.list(s.tenantId)).map((r) => ({ ...r, title: localText(r.title, lang) }));
    },

    async versions(s: ActiveSession, code: string, lang: Lang): Promise<PageVersionSummary[]> {
      await guard.require(s, DESIGN_PERMISSION);
      const rows = await repo.versions(s.tenantId, code);
      if (rows.length === 0) throw new AppError(ResultCode.NOT_FOUND, 'pageVersionNotFound');
      return rows.map((r) => ({ ...r, title: localText(r.title, lang) }));
    },

    /** Version `version` of a page; 0 is its latest. */
    async version(s: ActiveSession, code: string, version: number): Promise<PageVersion> {
      await guard.require(s, DESIGN_PERMISSION);
      const row = await repo.version(s.tenantId, code, version);
      if (!row) throw new AppError(ResultCode.NOT_FOUND, 'pageVersionNotFound');
      return { code, ...row };
    },

    /** Saves a new version on top of `base` (0: a new page); the new version's number. */
    async save(s: ActiveSession, code: string, base: number, doc: PageDocument): Promise<number> {
      await guard.require(s, DESIGN_PERMISSION);
      await check(s, doc);
      if (base === 0) {
        if (!(await repo.create(s.tenantId, code, s.userId, doc)))
          throw new AppError(ResultCode.CONFLICT, 'pageExists');
        return 1;
      }
      const version = await repo.append(s.tenantId, code, base, s.userId, doc);
      if (version === null) {
        const exists = await repo.version(s.tenantId, code, 0);
        throw new AppError(
          exists ? ResultCode.CONFLICT : ResultCode.NOT_FOUND,
          exists ? 'pageStale' : 'pageVersionNotFound',
        );
      }
      return version;
    },

    async publish(s: ActiveSession, code: string, version: number): Promise<void> {
      await guard.require(s, DESIGN_PERMISSION);
      if (!(await repo.publish(s.tenantId, code, version)))
        throw new AppError(ResultCode.NOT_FOUND, 'pageVersionNotFound');
    },

    /** Copies an earlier version as the newest and publishes it; the new version's number. */
    async restore(s: ActiveSession, code: string, version: number): Promise<number> {
      await guard.require(s, DESIGN_PERMISSION);
      const restored = await repo.restore(s.tenantId, code, version, s.userId);
      if (restored !== null) return restored;
      const exists = await repo.version(s.tenantId, code, version);
      throw new AppError(
        exists ? ResultCode.CONFLICT : ResultCode.NOT_FOUND,
        exists ? 'pageStale' : 'pageVersionNotFound',
      );
    },
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
