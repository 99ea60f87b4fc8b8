/**
 * The audit log as CSV (ADR 044): one line per entry, in the reader's language: when, who, from
 * where, the action's label, the sentence, the object and what changed, all in words, by the one
 * CSV writer (`platform/csv.ts`: formulas neutralised, a byte-order mark for spreadsheets). Pure.
 */
import {
  auditChangeText,
  auditLabel,
  auditNameIn,
  auditSentence,
  auditSubjectTypeLabel,
  type AuditEntry,
} from '@portal/contracts';
import { csvOf } from '../../../platform/csv.js';

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
  return csvOf(HEADERS[lang], lines);
}
