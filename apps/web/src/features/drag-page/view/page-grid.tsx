import type { PageDocument, Widget } from '@portal/contracts';
import { Grid } from 'antd';
import { WidgetView } from '../widgets/widget-view';

/** The grid's row height and gap in px: the builder's canvas uses the same, so a page looks as built. */
export const ROW_HEIGHT = 40;
export const GAP = 12;

/** Kinds whose height is their content's on a phone; the others keep the height they were given. */
const FLOWING = new Set(['text', 'links', 'stats', 'table', 'notices', 'devices']);

/** Widgets as a phone shows them, one column: row by row, left to right. */
export function readingOrder(widgets: readonly Widget[]): Widget[] {
  return [...widgets].sort((a, b) => a.y - b.y || a.x - b.x);
}

const span = (h: number) => h * ROW_HEIGHT + (h - 1) * GAP;

/**
 * A page's widgets where the builder placed them, on 12 columns; below the md breakpoint (or when
 * asked: the builder's phone preview) one column, row by row and left to right.
 */
export function PageGrid({ doc, column = false }: { doc: PageDocument; column?: boolean }) {
  const phone = Grid.useBreakpoint().md === false;
  if (phone || column) {
    return (
      <div className="dp-column">
        {readingOrder(doc.widgets).map((w) => (
          <div key={w.id} className="dp-cell" style={FLOWING.has(w.kind) ? undefined : { height: span(w.h) }}>
            <WidgetView widget={w} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="dp-grid" style={{ gridAutoRows: ROW_HEIGHT, gap: GAP }}>
      {doc.widgets.map((w) => (
        <div
          key={w.id}
          className="dp-cell"
          style={{ gridColumn: `${w.x + 1} / span ${w.w}`, gridRow: `${w.y + 1} / span ${w.h}` }}
        >
          <WidgetView widget={w} />
        </div>
      ))}
    </div>
  );
}
