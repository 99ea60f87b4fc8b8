import { PageDocument, documentIssue } from '@portal/contracts';
import { Value } from 'typebox/value';

/** The first thing wrong with a document before it is saved: the server's own checks, run here. */
export function firstIssue(doc: PageDocument): { widget: string | null; key: string; field?: string } | null {
  const issue = documentIssue(doc);
  if (issue) return { widget: null, key: `dragPage.issues.${issue}` };
  for (const e of Value.Errors(PageDocument, doc)) {
    if (e.keyword === 'anyOf' || e.keyword === 'const') continue;
    const m = /^\/widgets\/(\d+)\/(.*)$/.exec(e.instancePath);
    const field = (m ? m[2]! : e.instancePath.slice(1)).replaceAll('/', '.');
    return {
      widget: m ? doc.widgets[Number(m[1])]!.id : null,
      key: e.keyword === 'pattern' && /\.(zh|en)$/.test(field) ? 'dragPage.issues.markup' : 'dragPage.issues.invalid',
      field,
    };
  }
  return null;
}
