/**
 * The audit log as CSV (ADR 044): one line per entry, in the reader's language: when, who, from
 * where, the action's label, the sentence, the object and what changed, all in words. Written by
 * csv-stringify (ADR 041) as the admin CLI writes its CSV: a cell a spreadsheet would read as a
 * formula (=, +, -, @, tab or return first; a self-registered username or an enterprise's name may
 * be one) gets a leading apostrophe, cells with space at either end are quoted; a byte-order mark
 * first, so that a spreadsheet opens the Chinese as UTF-8. Pure.
 */
import {
  auditChangeText,
  auditLabel,
  auditNameIn,
  auditSentence,
  auditSubjectTypeLabel,
  type AuditEntry,
} from '@portal/contracts';
import { stringify } from 'csv-stringify/sync';

type Lang = 'zh' | 'en';

const HEADERS: Record<Lang, string[]> = {
  zh: ['时间', '操作人', '用户名', 'IP 地址', '操作', '说明', '对象类型', '对象', '对象 ID', '变更'],
  en: [
    'Time',
    'Who',
    'Username',
    'IP address',
    'Action',
    'What happened',
    'Object type',
    'Object',
    'Object ID',
    'Changes',
  ],
};

export function auditCsv(entries: AuditEntry[], lang: Lang): string {
  const lines = entries.map((e) => [
    e.at,
    e.actor?.name ?? '',
    e.actor?.username ?? '',
    e.ip ?? '',
    auditLabel(e.action, lang),
    auditSentence(e, lang),
    e.subject ? auditSubjectTypeLabel(e.subject.type, lang) : '',
    e.subject ? auditNameIn(e.subject, lang) : '',
    e.subject?.id ?? '',
    e.changes.map((c) => auditChangeText(c, lang)).join(lang === 'zh' ? '；' : '; '),
  ]);
  return stringify([HEADERS[lang], ...lines], {
    bom: true,
    record_delimiter: 'windows',
    escape_formulas: true,
    quoted_match: /^\s|\s$|\r/,
  });
}
