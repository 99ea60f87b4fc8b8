/**
 * The drag-page builder's document (ADR 028; docs/product/screens.md#lazy-pages, menu entries of the drag-page
 * kind): one schema, checked by the editor before it saves and by the server on every save.
 */
import { Type, type Static } from 'typebox';
import { UPLOADED_IMAGE } from './admin-rules.js';
import type { Dashboard } from './dashboard.js';

/** Columns of the page grid; a phone shows one column, widgets in reading order. */
export const PAGE_COLUMNS = 12;
export const PAGE_MAX_WIDGETS = 60;
/** A saved definition's JSON at most this long (images included). */
export const PAGE_MAX_BYTES = 200_000;

/**
 * Text a widget shows is plain text, rendered as text: markup is refused outright (`<` right before
 * a letter, `/`, `?` or `!`: a tag, a closing tag, a comment or a doctype), so nothing that looks
 * like HTML is ever stored; `a < b` is still text.
 */
const NO_MARKUP = '^(?![\\s\\S]*<(?:[/?]?[A-Za-z]|!))[\\s\\S]*$';
const Plain = (max: number) => Type.String({ maxLength: max, pattern: NO_MARKUP });

/** A text in the product's language, and optionally in English (shown when the portal is in English). */
export const LocalText = (max: number) => Type.Object({ zh: Plain(max), en: Type.Optional(Plain(max)) });
export type LocalText = { zh: string; en?: string };

const Title = Type.Optional(LocalText(100));
/**
 * An address inside the portal (a menu path); links never leave it or run script. It may carry a
 * query and a fragment (`/park/news?tab=2#top`): a link goes to the path, with the query added to
 * the viewer's own and the fragment kept (inAppLink below).
 */
const InAppPath = Type.String({ pattern: '^/(?!/)[^\\s\\\\]*$', maxLength: 500 });

/**
 * Where a link's in-app address goes, in the router's parts: the path, the viewer's query (their
 * tenant and context) with the link's own parameters on top, and the fragment. A path never holds
 * `?` or `#` (a router refuses that), whatever was saved.
 */
export function inAppLink(path: string, currentSearch = ''): { pathname: string; search: string; hash: string } {
  const hashAt = path.indexOf('#');
  const hash = hashAt === -1 ? '' : path.slice(hashAt);
  const beforeHash = hashAt === -1 ? path : path.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const pathname = (queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)) || '/';
  const params = new URLSearchParams(currentSearch);
  if (queryAt !== -1) for (const [k, v] of new URLSearchParams(beforeHash.slice(queryAt + 1))) params.set(k, v);
  const search = params.toString();
  return { pathname, search: search ? `?${search}` : '', hash: hash === '#' ? '' : hash };
}
/**
 * Where a page's image comes from (ADR 036): embedded in the page (a PNG, JPEG, GIF or WebP data URL,
 * what the editor makes of a chosen picture; never SVG, which can hold script), an image the tenant
 * uploaded, or an http(s) address (at an origin the tenant registered, checked when saved). Never
 * another path of the portal: every viewer's browser requests an image with their cookies, and a
 * request there can act (`/cas/logout` signs the viewer out).
 */
export const PAGE_IMAGE_SRC = `^(?:data:image/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}|${UPLOADED_IMAGE}|https?://[^\\s"'<>\\\\]+)$`;
const ImageSrc = Type.String({ maxLength: 65_000, pattern: PAGE_IMAGE_SRC });

/**
 * Whether a page may show the image `src` to a viewer of the portal at `portalOrigin`: the rule
 * above, and an http(s) address never at the portal's own origin. The server checks it when a page
 * is saved or published, and the view again before it renders.
 */
export function pageImageAllowed(src: string, portalOrigin: string): boolean {
  if (!new RegExp(PAGE_IMAGE_SRC).test(src)) return false;
  if (!/^https?:/.test(src)) return true;
  return URL.canParse(src) && new URL(src).origin !== portalOrigin;
}
/** A framed page's address: http(s), at an origin the tenant registered (checked when saved). */
const FrameUrl = Type.String({ maxLength: 2000, pattern: '^https?://[^\\s]+$' });

/**
 * The live figures a figure (stats) widget may show: what the park's dashboard computes for its
 * tenant (GET /api/open/dashboard), read when the page is shown, never typed in.
 */
export const PAGE_MEASURES = [
  'residentEnterprises',
  'registeredThisMonth',
  'devices',
  'devicesOnline',
  'openAlerts',
] as const;
export type PageMeasure = (typeof PAGE_MEASURES)[number];

/** A measure's value in the dashboard's answer. */
export function measureValue(d: Dashboard, measure: PageMeasure): number {
  switch (measure) {
    case 'residentEnterprises':
      return d.enterprises.total;
    case 'registeredThisMonth':
      return d.enterprises.registeredThisMonth;
    case 'devices':
      return d.devices.total;
    case 'devicesOnline':
      return d.devices.online;
    case 'openAlerts':
      return d.alerts.open;
  }
}

/** Each widget kind's settings. */
export const WIDGET_PROPS = {
  text: Type.Object({ title: Title, text: LocalText(5000) }),
  image: Type.Object({
    src: ImageSrc,
    alt: LocalText(200),
    fit: Type.Enum(['cover', 'contain']),
  }),
  links: Type.Object({
    title: Title,
    items: Type.Array(Type.Object({ title: LocalText(50), path: InAppPath }), { maxItems: 24 }),
  }),
  stats: Type.Object({
    title: Title,
    items: Type.Array(
      Type.Object({
        label: LocalText(50),
        /** The figure as typed; shown when no measure is chosen. */
        value: Type.String({ maxLength: 30 }),
        /** A figure the server computes for the viewer's park, shown live instead of `value`. */
        measure: Type.Optional(Type.Enum(PAGE_MEASURES)),
        suffix: Type.Optional(LocalText(10)),
      }),
      { maxItems: 12 },
    ),
  }),
  chart: Type.Object({
    title: Title,
    type: Type.Enum(['bar', 'line', 'pie']),
    points: Type.Array(Type.Object({ label: LocalText(30), value: Type.Number({ minimum: -1e9, maximum: 1e9 }) }), {
      minItems: 1,
      maxItems: 24,
    }),
  }),
  table: Type.Object({
    title: Title,
    columns: Type.Array(LocalText(30), { minItems: 1, maxItems: 8 }),
    rows: Type.Array(Type.Array(LocalText(200), { maxItems: 8 }), { maxItems: 50 }),
  }),
  iframe: Type.Object({ title: Title, url: FrameUrl }),
  notices: Type.Object({ title: Title, count: Type.Integer({ minimum: 1, maximum: 10 }) }),
  devices: Type.Object({ title: Title, count: Type.Integer({ minimum: 1, maximum: 20 }) }),
};
export type WidgetKind = keyof typeof WIDGET_PROPS;
export const WIDGET_KINDS = Object.keys(WIDGET_PROPS) as WidgetKind[];

/** Where a widget sits on the grid, in columns and rows. */
const Place = {
  id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' }),
  x: Type.Integer({ minimum: 0, maximum: PAGE_COLUMNS - 1 }),
  y: Type.Integer({ minimum: 0, maximum: 2000 }),
  w: Type.Integer({ minimum: 1, maximum: PAGE_COLUMNS }),
  h: Type.Integer({ minimum: 1, maximum: 60 }),
};

const widget = <K extends WidgetKind>(kind: K) =>
  Type.Object({ ...Place, kind: Type.Literal(kind), props: WIDGET_PROPS[kind] });

export const Widget = Type.Union([
  widget('text'),
  widget('image'),
  widget('links'),
  widget('stats'),
  widget('chart'),
  widget('table'),
  widget('iframe'),
  widget('notices'),
  widget('devices'),
]);
export type Widget = Static<typeof Widget>;
export type WidgetOf<K extends WidgetKind> = Extract<Widget, { kind: K }>;

/** A page: its title and widgets. `format` names this shape, for the day it changes. */
export const PageDocument = Type.Object(
  {
    format: Type.Literal(1),
    title: LocalText(100),
    widgets: Type.Array(Widget, { maxItems: PAGE_MAX_WIDGETS }),
  },
  { examples: [{ format: 1, title: { zh: '新页面', en: 'New page' }, widgets: [] }] },
);
export type PageDocument = Static<typeof PageDocument>;

/** What a saved document must satisfy beyond its shape; null when nothing. */
export function documentIssue(doc: PageDocument): 'duplicateWidget' | 'outsideGrid' | 'pageTooLarge' | null {
  const ids = new Set(doc.widgets.map((w) => w.id));
  if (ids.size !== doc.widgets.length) return 'duplicateWidget';
  if (doc.widgets.some((w) => w.x + w.w > PAGE_COLUMNS)) return 'outsideGrid';
  if (new TextEncoder().encode(JSON.stringify(doc)).length > PAGE_MAX_BYTES) return 'pageTooLarge';
  return null;
}

export const PageCodeParams = Type.Object({ code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) });
export type PageCodeParams = Static<typeof PageCodeParams>;
/** A version number (every page has its version 1). */
const Version = Type.Integer({ minimum: 1, maximum: 1_000_000, examples: [1] });
export const PageVersionParams = Type.Object({ code: PageCodeParams.properties.code, version: Version });
export type PageVersionParams = Static<typeof PageVersionParams>;

/** A drag-page view as its menu entry shows it: the published version. */
export const PublishedPage = Type.Object({ code: Type.String(), version: Type.Integer(), document: PageDocument });
export type PublishedPage = Static<typeof PublishedPage>;

/** A page in the builder's list. */
export const PageSummary = Type.Object({
  code: Type.String(),
  title: Type.String(),
  latestVersion: Type.Integer(),
  publishedVersion: Type.Union([Type.Integer(), Type.Null()]),
  /** Menu entries that show it (drag-page entries naming its code). */
  menuEntries: Type.Integer(),
  updatedAt: Type.String(),
});
export type PageSummary = Static<typeof PageSummary>;

export const PageVersionSummary = Type.Object({
  version: Type.Integer(),
  title: Type.String(),
  createdAt: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  /** The version this one restored, if it was a restore. */
  restoredFrom: Type.Union([Type.Integer(), Type.Null()]),
});
export type PageVersionSummary = Static<typeof PageVersionSummary>;

export const PageVersion = Type.Object({
  code: Type.String(),
  version: Type.Integer(),
  publishedVersion: Type.Union([Type.Integer(), Type.Null()]),
  document: PageDocument,
});
export type PageVersion = Static<typeof PageVersion>;

/** Saving: a new version on top of `baseVersion` (0 makes a new page); a stale base is refused. */
export const SavePageBody = Type.Object({
  baseVersion: Type.Integer({ minimum: 0, maximum: 1_000_000, examples: [1] }),
  document: PageDocument,
});
export type SavePageBody = Static<typeof SavePageBody>;

export const PageVersionBody = Type.Object({ version: Version });
export type PageVersionBody = Static<typeof PageVersionBody>;

/**
 * The text of `t` in the reader's language: English when asked and given (an empty English text is
 * given: a unit that English leaves out), else the product's own.
 */
export const localText = (t: LocalText | undefined, lang: 'zh' | 'en'): string =>
  (lang === 'en' && t?.en !== undefined ? t.en : t?.zh) ?? '';
