import type { PageDocument, Widget } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { firstIssue } from './check';
import { addWidget, blankDocument } from './document';

const page = (widgets: Widget[]): PageDocument => ({ ...blankDocument({ zh: '页' }), widgets });
const one = (kind: Widget['kind'], props: object): Widget =>
  ({
    ...addWidget(blankDocument({ zh: '页' }), kind, { x: 0, y: 0 }, 'https://park.example.com/').doc.widgets[0]!,
    props,
  }) as Widget;

describe('firstIssue', () => {
  it('finds nothing in a good page', () => {
    expect(firstIssue(page([one('text', { text: { zh: 'a < b' } })]))).toBeNull();
  });

  it("names the widget and the field of its own kind's settings", () => {
    const stats = one('stats', { items: [{ label: { zh: '<b>x</b>' }, value: '1' }] });
    expect(firstIssue(page([stats]))).toEqual({
      widget: stats.id,
      key: 'dragPage.issues.markup',
      field: 'props.items.0.label.zh',
    });
    const links = one('links', { items: [{ title: { zh: 'x' }, path: 'http://evil' }] });
    expect(firstIssue(page([links]))).toEqual({
      widget: links.id,
      key: 'dragPage.issues.invalid',
      field: 'props.items.0.path',
    });
    const image = one('image', { src: '/cas/logout', alt: { zh: 'x' }, fit: 'cover' });
    expect(firstIssue(page([image]))).toMatchObject({ widget: image.id, field: 'props.src' });
  });

  it('names a widget placed off the grid, and what only the page as a whole breaks', () => {
    const text = { ...one('text', { text: { zh: 'a' } }), x: 12 };
    expect(firstIssue(page([text]))).toMatchObject({ widget: text.id, field: 'x' });
    const twins = [one('text', { text: { zh: 'a' } }), one('text', { text: { zh: 'b' } })];
    expect(firstIssue(page(twins))).toEqual({ widget: null, key: 'dragPage.issues.duplicateWidget' });
  });
});
