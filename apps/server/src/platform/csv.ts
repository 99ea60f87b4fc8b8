/**
 * CSV the server hands out (ADR 041: csv-stringify), the one writer of its downloads (the audit log,
 * a notice's recipients): RFC 4180 with a header row; a cell a spreadsheet would read as a formula
 * (=, +, -, @, tab or return first, or their full-width forms — a self-registered name or a
 * member's reply may be one) gets a leading apostrophe, as OWASP advises; a cell with space at
 * either end is quoted. It starts with a byte-order mark, so that a spreadsheet opens the Chinese as
 * UTF-8, and ends its lines with CRLF. (The admin
 * CLI prints to a terminal and has its own rule, `neutralised` in programs/admin/format.ts, which
 * also keeps numbers as numbers and takes out control characters.)
 */
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | null | undefined;

export function csvOf(header: string[], rows: CsvCell[][]): string {
  return stringify([header, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))))], {
    bom: true,
    record_delimiter: 'windows',
    escape_formulas: true,
    quoted_match: /^\s|\s$|\r/,
  });
}
