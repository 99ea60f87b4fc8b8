import {
  PageDocument as PageDocumentSchema,
  ResultCode,
  documentIssue,
  localText,
  pageImageAllowed,
  type PageDocument,
  type PageSummary,
  type PageVersion,
  type PageVersionSummary,
  type PublishedPage,
} from '@portal/contracts';
import { Compile } from 'typebox/compile';
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
  /** The portal's own origin (PUBLIC_URL's): never an image's or a frame's, whose requests could act there. */
  portalOrigin: string;
}

/** The document schema, compiled once: what a stored document must still satisfy to be shown. */
const valid = Compile(PageDocumentSchema);

/** An address's origin, or the address itself when it is no URL at all. */
const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : url);

export function createPagesService({ repo, guard, frameOrigins, portalOrigin }: PagesDeps) {
  /**
   * What the schema cannot say: unique ids, the grid's width, the size, and where frames and
   * images come from: a frame or an http(s) image only at an origin the tenant registered, never
   * the portal's own (checked again when a version is published or restored: an application may
   * be gone since).
   */
  async function check(s: ActiveSession, doc: PageDocument): Promise<void> {
    const issue = documentIssue(doc);
    if (issue) throw new AppError(ResultCode.BAD_REQUEST, issue);
    const images = doc.widgets.flatMap((w, i) => (w.kind === 'image' ? [{ src: w.props.src, i }] : []));
    const imageRefused = ({ src, i }: { src: string; i: number }) =>
      new AppError(ResultCode.BAD_REQUEST, 'imageNotAllowed', {
        field: `document.widgets.${i}.props.src`,
        src: src.length > 80 ? `${src.slice(0, 80)}…` : src,
      });
    const own = images.find(({ src }) => !pageImageAllowed(src, portalOrigin));
    if (own) throw imageRefused(own);
    const frames = doc.widgets.flatMap((w) => (w.kind === 'iframe' ? [w.props.url] : []));
    const linked = images.filter(({ src }) => /^https?:/.test(src));
    if (frames.length + linked.length === 0) return;
    const allowed = new Set(await frameOrigins(s.tenantId));
    allowed.delete(portalOrigin);
    const refused = (url: string) => !URL.canParse(url) || !allowed.has(new URL(url).origin);
    const frame = frames.find(refused);
    if (frame) throw new AppError(ResultCode.BAD_REQUEST, 'frameNotAllowed', { origin: originOf(frame) });
    const image = linked.find(({ src }) => refused(src));
    if (image) throw imageRefused(image);
  }

  /**
   * A stored document as it may be shown: one written outside the builder (by hand, or before a
   * rule of the schema existed) that breaks the schema is refused with a message, never sent.
   */
  function shown(doc: PageDocument): PageDocument {
    if (!valid.Check(doc)) throw new AppError(ResultCode.CONFLICT, 'pageInvalid');
    return doc;
  }

  /** Version `version` of page `code` as it may be published: valid, or a 404/409 that says why. */
  async function stored(s: ActiveSession, code: string, version: number): Promise<PageDocument> {
    const row = await repo.version(s.tenantId, code, version);
    if (!row) throw new AppError(ResultCode.NOT_FOUND, 'pageVersionNotFound');
    return shown(row.document);
  }

  return {
    /** A drag-page view (docs/product/screens.md#menu-routes): the published version, for users whose menu shows the page. */
    async published(s: ActiveSession, code: string): Promise<PublishedPage> {
      const page = s.roleId === null ? null : await repo.visiblePublished(s.tenantId, s.userId, s.roleId, code);
      if (!page) throw new AppError(ResultCode.NOT_FOUND, 'pageNotFound');
      if (page.version === null || !page.document) throw new AppError(ResultCode.NOT_FOUND, 'pageUnpublished');
      return { code, version: page.version, document: shown(page.document) };
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
      return { code, ...row, document: shown(row.document) };
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
      await check(s, await stored(s, code, version));
      if (!(await repo.publish(s.tenantId, code, version)))
        throw new AppError(ResultCode.NOT_FOUND, 'pageVersionNotFound');
    },

    /** Copies an earlier version as the newest and publishes it; the new version's number. */
    async restore(s: ActiveSession, code: string, version: number): Promise<number> {
      await guard.require(s, DESIGN_PERMISSION);
      await check(s, await stored(s, code, version));
      const restored = await repo.restore(s.tenantId, code, version, s.userId);
      if (restored === null) throw new AppError(ResultCode.CONFLICT, 'pageStale');
      return restored;
    },
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
