import { PageDocument, WIDGET_KINDS, documentIssue, type Widget } from '@portal/contracts';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { readingOrder } from '../view/page-grid';
import { addWidget, applyLayout, blankDocument, removeWidget, settle, updateProps } from './document';
import { commit, historyOf, redo, undo } from './history';

const blank = blankDocument({ zh: '页面' });

describe('the page document', () => {
  it("gives every kind of widget defaults the server's schema accepts", () => {
    let doc = blank;
    for (const [n, kind] of WIDGET_KINDS.entries()) {
      doc = addWidget(doc, kind, { x: 0, y: n * 10 }, 'https://park.example.com/').doc;
    }
    expect([...Value.Errors(PageDocument, doc)]).toEqual([]);
    expect(documentIssue(doc)).toBeNull();
    expect(new Set(doc.widgets.map((w) => w.id)).size).toBe(WIDGET_KINDS.length);
  });

  it('clamps a dropped widget into the 12 columns', () => {
    const { doc } = addWidget(blank, 'text', { x: 10, y: 2 });
    expect(doc.widgets[0]).toMatchObject({ x: 6, y: 2, w: 6 });
  });

  it('applies a layout, and gives the same document back when nothing moved', () => {
    const { doc, id } = addWidget(blank, 'chart', { x: 0, y: 0 });
    const same = applyLayout(doc, [{ i: id, x: 0, y: 0, w: 6, h: 7 }]);
    expect(same).toBe(doc);
    const moved = applyLayout(doc, [{ i: id, x: 3, y: 1, w: 9, h: 4 }]);
    expect(moved.widgets[0]).toMatchObject({ x: 3, y: 1, w: 9, h: 4 });
  });

  it('changes and removes one widget, and orders widgets for one column', () => {
    let doc = addWidget(blank, 'text', { x: 6, y: 0 }).doc;
    doc = addWidget(doc, 'notices', { x: 0, y: 0 }).doc;
    doc = addWidget(doc, 'stats', { x: 0, y: 4 }).doc;
    expect(readingOrder(doc.widgets).map((w) => w.kind)).toEqual(['notices', 'text', 'stats']);
    const changed = updateProps(doc, 'w2', { count: 3 });
    expect(changed.widgets[1]!.props).toEqual({ count: 3 });
    expect(removeWidget(changed, 'w1').widgets.map((w) => w.id)).toEqual(['w2', 'w3']);
  });
});

describe('settling', () => {
  it('moves a widget dropped below the others up, and one dropped onto another below it', () => {
    let doc = addWidget(blank, 'text', { x: 0, y: 0 }).doc;
    doc = settle(addWidget(doc, 'chart', { x: 0, y: 9 }).doc);
    expect(doc.widgets.map((w) => [w.id, w.y])).toEqual([
      ['w1', 0],
      ['w2', 4],
    ]);
    doc = settle(addWidget(doc, 'links', { x: 2, y: 0 }).doc);
    const ys = Object.fromEntries(doc.widgets.map((w) => [w.id, w.y]));
    expect(ys.w1).toBe(0);
    expect(ys.w3).toBe(4);
    const overlap = (a: Widget, b: Widget) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    expect(doc.widgets.some((a, i) => doc.widgets.some((b, j) => i < j && overlap(a, b)))).toBe(false);
    expect(settle(doc)).toBe(doc);
  });
});

describe('undo and redo', () => {
  it('steps back and forth over real changes only, and a change after undo drops the redo', () => {
    let h = historyOf(1);
    h = commit(h, 2);
    h = commit(h, 2);
    h = commit(h, 3);
    expect(h.past).toEqual([1, 2]);
    h = undo(undo(h));
    expect(h.present).toBe(1);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe(2);
    h = commit(h, 9);
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
  });

  it('keeps at most the limit of steps', () => {
    let h = historyOf(0);
    for (let n = 1; n <= 10; n++) h = commit(h, n, 4);
    expect(h.past).toEqual([6, 7, 8, 9]);
  });
});
