/**
 * The editor's operations on a page document, pure: each returns a new document (or the same one
 * when nothing changed, so the undo history records only real changes).
 */
import { verticalCompactor } from 'react-grid-layout';
import {
  PAGE_COLUMNS,
  type LocalText,
  type PageDocument,
  type Widget,
  type WidgetKind,
  type WidgetOf,
} from '@portal/contracts';

export interface Place {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A new widget's size in columns and rows. */
export const DEFAULT_SIZE: Record<WidgetKind, { w: number; h: number }> = {
  text: { w: 6, h: 4 },
  image: { w: 4, h: 5 },
  links: { w: 4, h: 4 },
  stats: { w: 12, h: 3 },
  chart: { w: 6, h: 7 },
  table: { w: 6, h: 6 },
  iframe: { w: 12, h: 10 },
  notices: { w: 6, h: 6 },
  devices: { w: 6, h: 6 },
};

/** A 4×3 light grey PNG: an image widget's picture until one is chosen. */
export const BLANK_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEUlEQVR4nGN48eYjHDHg5AAAh+shPWpq6B4AAAAASUVORK5CYII=';

const text = (zh: string, en: string): LocalText => ({ zh, en });

/** What a new widget of each kind shows until the operator changes it. */
export function defaultProps(kind: WidgetKind, frameUrl: string | null): Widget['props'] {
  switch (kind) {
    case 'text':
      return { title: text('标题', 'Title'), text: text('在右侧输入文字。', 'Type the text on the right.') };
    case 'image':
      return { src: BLANK_IMAGE, alt: text('图片', 'Picture'), fit: 'cover' };
    case 'links':
      return {
        title: text('常用入口', 'Shortcuts'),
        items: [{ title: text('我的消息', 'My messages'), path: '/message/index' }],
      };
    case 'stats':
      return {
        title: text('概况', 'Overview'),
        items: [
          { label: text('指标一', 'Figure one'), value: '0' },
          { label: text('指标二', 'Figure two'), value: '0' },
        ],
      };
    case 'chart':
      return {
        title: text('图表', 'Chart'),
        type: 'bar',
        points: [
          { label: text('一月', 'Jan'), value: 3 },
          { label: text('二月', 'Feb'), value: 5 },
          { label: text('三月', 'Mar'), value: 4 },
        ],
      };
    case 'table':
      return {
        title: text('表格', 'Table'),
        columns: [text('名称', 'Name'), text('说明', 'Notes')],
        rows: [[text('第一行', 'Row one'), text('', '')]],
      };
    case 'iframe':
      return { title: text('嵌入页面', 'Embedded page'), url: frameUrl ?? '' };
    case 'notices':
      return { title: text('最新通知', 'Latest notices'), count: 5 };
    case 'devices':
      return { title: text('设备状态', 'Device status'), count: 6 };
  }
}

/** An id no widget of the page has. */
export function nextId(doc: PageDocument): string {
  const taken = new Set(doc.widgets.map((w) => w.id));
  let n = doc.widgets.length + 1;
  while (taken.has(`w${n}`)) n++;
  return `w${n}`;
}

export function blankDocument(title: LocalText): PageDocument {
  return { format: 1, title, widgets: [] };
}

/** Adds a widget of `kind` at `at` (clamped into the grid); the new document and the widget's id. */
export function addWidget(
  doc: PageDocument,
  kind: WidgetKind,
  at: { x: number; y: number; w?: number; h?: number },
  frameUrl: string | null = null,
): { doc: PageDocument; id: string } {
  const id = nextId(doc);
  const w = Math.min(at.w ?? DEFAULT_SIZE[kind].w, PAGE_COLUMNS);
  const h = at.h ?? DEFAULT_SIZE[kind].h;
  const x = Math.max(0, Math.min(at.x, PAGE_COLUMNS - w));
  const widget = { id, kind, x, y: Math.max(0, at.y), w, h, props: defaultProps(kind, frameUrl) } as Widget;
  return { doc: { ...doc, widgets: [...doc.widgets, widget] }, id };
}

/** The grid's arrangement applied to the widgets; the same document when nothing moved. */
export function applyLayout(doc: PageDocument, layout: readonly Place[]): PageDocument {
  const byId = new Map(layout.map((p) => [p.i, p]));
  let changed = false;
  const widgets = doc.widgets.map((w) => {
    const p = byId.get(w.id);
    if (!p || (p.x === w.x && p.y === w.y && p.w === w.w && p.h === w.h)) return w;
    changed = true;
    return { ...w, x: p.x, y: p.y, w: p.w, h: p.h };
  });
  return changed ? { ...doc, widgets } : doc;
}

export function updateProps<K extends WidgetKind>(
  doc: PageDocument,
  id: string,
  props: WidgetOf<K>['props'],
): PageDocument {
  return { ...doc, widgets: doc.widgets.map((w) => (w.id === id ? ({ ...w, props } as Widget) : w)) };
}

export function removeWidget(doc: PageDocument, id: string): PageDocument {
  return { ...doc, widgets: doc.widgets.filter((w) => w.id !== id) };
}

/**
 * The widgets as the canvas's grid settles them: moved up into free rows, out of each other's way
 * (the grid's own vertical compaction), so the document saved is the layout the canvas shows.
 */
export function settle(doc: PageDocument): PageDocument {
  const layout = doc.widgets.map((w) => ({ i: w.id, x: w.x, y: w.y, w: w.w, h: w.h }));
  return applyLayout(doc, verticalCompactor.compact(layout, PAGE_COLUMNS));
}
