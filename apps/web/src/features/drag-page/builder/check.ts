import { PageDocument, WIDGET_PROPS, documentIssue } from '@portal/contracts';
import { Value } from 'typebox/value';

export interface Issue {
  /** The widget at fault, if one is. */
  widget: string | null;
  key: string;
  /** Where in the widget (or the page), dotted: `props.items.0.label.zh`. */
  field?: string;
}

const dotted = (path: string) => path.replace(/^\//, '').replaceAll('/', '.');

/**
 * The first thing wrong with a document before it is saved: the server's own checks, run here.
 * Each widget is checked against its own kind's settings (a union reports every branch's
 * failures, most of them about kinds the widget is not), then the page as a whole.
 */
export function firstIssue(doc: PageDocument): Issue | null {
  for (const w of doc.widgets) {
    const settings = WIDGET_PROPS[w.kind];
    if (!settings) return { widget: w.id, key: 'dragPage.issues.invalid', field: 'kind' };
    const [e] = Value.Errors(settings, w.props);
    if (e) {
      const field = dotted(`props${e.instancePath}`);
      const markup = e.keyword === 'pattern' && /\.(zh|en)$/.test(field);
      return { widget: w.id, key: markup ? 'dragPage.issues.markup' : 'dragPage.issues.invalid', field };
    }
  }
  for (const e of Value.Errors(PageDocument, doc)) {
    if (e.keyword === 'anyOf' || e.keyword === 'const') continue;
    const m = /^\/widgets\/(\d+)(\/.*)?$/.exec(e.instancePath);
    return {
      widget: m ? doc.widgets[Number(m[1])]!.id : null,
      key: 'dragPage.issues.invalid',
      field: dotted(m ? (m[2] ?? '') : e.instancePath),
    };
  }
  const issue = documentIssue(doc);
  return issue ? { widget: null, key: `dragPage.issues.${issue}` } : null;
}
