/**
 * CSV the server hands out (ADR 041: csv-stringify), as the admin CLI writes it: RFC 4180 with a
 * header row; a cell a spreadsheet would read as a formula (=, +, -, @, tab or return first — a
 * self-registered name or a member's reply may be one) gets a leading apostrophe, as OWASP advises.
 */
import { stringify } from 'csv-stringify/sync';

export function csvOf(header: string[], rows: (string | number | null)[][]): string {
  return stringify([header, ...rows.map((r) => r.map((c) => (c === null ? '' : String(c))))], {
    record_delimiter: 'unix',
    escape_formulas: true,
    quoted_match: /^\s|\s$|\r/,
  });
}
