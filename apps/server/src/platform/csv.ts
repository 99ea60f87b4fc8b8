/**
 * CSV the product hands out (ADR 041: csv-stringify), the one writer of the server's downloads and
 * the admin CLI: RFC 4180 with a header row; a cell a spreadsheet would read as a formula (=, +, -,
 * @, tab or return first — a self-registered name or a member's reply may be one) gets a leading
 * apostrophe, as OWASP advises; a cell with space at either end is quoted. A download for a
 * spreadsheet (`download`, the default) starts with a byte-order mark, so that the Chinese opens as
 * UTF-8, and ends its lines with CRLF; the CLI's output (`download: false`) is plain text for pipes.
 */
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | null | undefined;

export function csvOf(header: string[], rows: CsvCell[][], { download = true } = {}): string {
  return stringify([header, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))))], {
    bom: download,
    record_delimiter: download ? 'windows' : 'unix',
    escape_formulas: true,
    quoted_match: /^\s|\s$|\r/,
  });
}
