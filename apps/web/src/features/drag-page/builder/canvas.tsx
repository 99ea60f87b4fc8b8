/**
 * The builder's canvas: the page's widgets on react-grid-layout's 12 columns, moved and resized by
 * the pointer, and widgets dropped on it from the palette. Each finished move, resize or drop is
 * one step of the undo history.
 *
 * Drops from the palette are the canvas's own (HTML drag and drop, the cell under the pointer
 * outlined while dragging), not the grid's external-drop mode: that one lost a drop now and then
 * when a drag crossed its placeholder (react-grid-layout 2.3), and a palette drop must never be lost.
 */
import { PAGE_COLUMNS, WIDGET_KINDS, type PageDocument, type WidgetKind } from '@portal/contracts';
import { CloseOutlined } from '@ant-design/icons';
import { useMemo, useState, type DragEvent } from 'react';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import { useTranslation } from '../../../lib/i18n';
import { GAP, ROW_HEIGHT } from '../view/page-grid';
import { WidgetView } from '../widgets/widget-view';
import { DEFAULT_SIZE, type Place } from './document';

/** What the palette puts in a drag's data: the widget kind, under our own type. */
export const DRAG_TYPE = 'application/x-portal-widget';

interface Cell {
  kind: WidgetKind;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The kind a palette drag carries (readable from its types while dragging), or null for any other drag. */
function draggedKind(e: DragEvent): WidgetKind | null {
  const type = [...e.dataTransfer.types].find((t) => t.startsWith(`${DRAG_TYPE}+`));
  const kind = type?.slice(DRAG_TYPE.length + 1);
  return kind && (WIDGET_KINDS as string[]).includes(kind) ? (kind as WidgetKind) : null;
}

export function Canvas({
  doc,
  selected,
  onSelect,
  onLayout,
  onDrop,
  onRemove,
}: {
  doc: PageDocument;
  selected: string | null;
  onSelect: (id: string | null) => void;
  onLayout: (layout: readonly Place[]) => void;
  onDrop: (kind: WidgetKind, at: { x: number; y: number; w: number; h: number }) => void;
  onRemove: (id: string) => void;
}) {
  const { t } = useTranslation();
  const { width, containerRef, mounted } = useContainerWidth();
  const [target, setTarget] = useState<Cell | null>(null);
  const layout = useMemo<Layout>(
    () => doc.widgets.map((w) => ({ i: w.id, x: w.x, y: w.y, w: w.w, h: w.h, minH: 2 })),
    [doc.widgets],
  );
  const column = (width - GAP * (PAGE_COLUMNS - 1)) / PAGE_COLUMNS;

  /** The cell a palette drag points at: the new widget's top left, kept inside the columns. */
  function cellOf(e: DragEvent): Cell | null {
    const kind = draggedKind(e);
    const grid = (e.currentTarget as HTMLElement).querySelector('.react-grid-layout');
    if (!kind || !grid) return null;
    const box = grid.getBoundingClientRect();
    const { w, h } = DEFAULT_SIZE[kind];
    const x = Math.floor((e.clientX - box.left) / (column + GAP));
    const y = Math.floor((e.clientY - box.top) / (ROW_HEIGHT + GAP));
    return { kind, w, h, x: Math.max(0, Math.min(PAGE_COLUMNS - w, x)), y: Math.max(0, y) };
  }

  return (
    <div
      className="pb-canvas"
      onDragOver={(e) => {
        const cell = cellOf(e);
        if (!cell) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        if (cell.x !== target?.x || cell.y !== target.y || cell.kind !== target.kind) setTarget(cell);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setTarget(null);
      }}
      onDrop={(e) => {
        const cell = cellOf(e);
        setTarget(null);
        if (!cell) return;
        e.preventDefault();
        const { kind, ...at } = cell;
        onDrop(kind, at);
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget || (e.target as HTMLElement).classList.contains('react-grid-layout'))
          onSelect(null);
      }}
    >
      {doc.widgets.length === 0 ? <p className="pb-canvas-hint">{t('dragPage.dropHere')}</p> : null}
      <div ref={containerRef} className="pb-grid">
        {mounted ? (
          <ReactGridLayout
            width={width}
            layout={layout}
            style={{ minHeight: 480 }}
            gridConfig={{ cols: PAGE_COLUMNS, rowHeight: ROW_HEIGHT, margin: [GAP, GAP], containerPadding: [0, 0] }}
            dragConfig={{ enabled: true, cancel: '.pb-remove' }}
            resizeConfig={{ enabled: true, handles: ['se'] }}
            compactor={verticalCompactor}
            onDragStop={onLayout}
            onResizeStop={onLayout}
          >
            {doc.widgets.map((w) => (
              <div
                key={w.id}
                className={`pb-item${selected === w.id ? ' pb-item-selected' : ''}`}
                data-widget={w.id}
                data-kind={w.kind}
                onPointerDown={() => onSelect(w.id)}
              >
                <WidgetView widget={w} design />
                <button
                  type="button"
                  className="pb-remove"
                  aria-label={t('dragPage.remove')}
                  title={t('dragPage.remove')}
                  onClick={() => onRemove(w.id)}
                >
                  <CloseOutlined />
                </button>
              </div>
            ))}
          </ReactGridLayout>
        ) : null}
        {target ? (
          <div
            className="pb-drop-target"
            aria-hidden
            style={{
              left: target.x * (column + GAP),
              top: target.y * (ROW_HEIGHT + GAP),
              width: target.w * column + (target.w - 1) * GAP,
              height: target.h * ROW_HEIGHT + (target.h - 1) * GAP,
            }}
          />
        ) : null}
      </div>
    </div>
  );
}
