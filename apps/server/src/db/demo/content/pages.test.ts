/**
 * The demo's drag pages show no made-up figure as if it were the park's: every figure is bound to
 * a measure the server computes for the tenant (live), or its widget says it shows sample figures.
 */
import { PageDocument, PAGE_MEASURES } from '@portal/contracts';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { DEMO_PAGES } from './pages.js';

describe("the demo's drag pages", () => {
  it('are documents the server accepts', () => {
    for (const { code, document } of DEMO_PAGES) expect(Value.Check(PageDocument, document), code).toBe(true);
  });

  it('show figures that are live, or say they are samples', () => {
    for (const { code, document } of DEMO_PAGES) {
      for (const w of document.widgets) {
        if (w.kind !== 'stats' && w.kind !== 'chart') continue;
        const sample = /示例/.test(w.props.title?.zh ?? '') && /sample/i.test(w.props.title?.en ?? '');
        if (w.kind === 'chart') {
          expect(sample, `${code} ${w.id}: a chart of typed-in points`).toBe(true);
          continue;
        }
        for (const item of w.props.items) {
          const live = item.measure !== undefined && PAGE_MEASURES.includes(item.measure);
          expect(live || sample, `${code} ${w.id} ${item.label.zh}: ${item.value}`).toBe(true);
        }
      }
    }
  });

  it('show the resident enterprises on 运营看板 as the dashboard counts them', () => {
    const board = DEMO_PAGES.find((p) => p.code === 'ops-board')!.document;
    const figures = board.widgets.flatMap((w) => (w.kind === 'stats' ? w.props.items : []));
    expect(figures.find((f) => f.label.zh === '入驻企业')?.measure).toBe('residentEnterprises');
  });
});
