/**
 * How `get` prints: JSON (default, 2-space indented), CSV (RFC 4180, a header row) or an aligned
 * table, optionally only `--fields` (dotted names reach inside objects and lists:
 * `roles.name` → the names of a user's roles). Pure.
 */
import { stringify as stringifyCsv } from 'csv-stringify/sync';
import { usageError } from './args.js';

export type Format = 'json' | 'csv' | 'table';

export function formatOf(text: string | undefined): Format {
  if (text === undefined) return 'json';
  if (text === 'json' || text === 'csv' || text === 'table') return text;
  throw usageError(`--format is json, csv or table, not '${text}'`);
}

/** The value at a dotted path; through a list, the values of its items. */
export function valueAt(value: unknown, path: string[]): unknown {
  if (path.length === 0) return value;
  if (Array.isArray(value)) return value.map((v) => valueAt(v, path));
  if (value === null || typeof value !== 'object') return undefined;
  return valueAt((value as Record<string, unknown>)[path[0]!], path.slice(1));
}

/** Only `fields` of `row` (keyed by the dotted names as given). */
export function pick(row: unknown, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((f) => [f, valueAt(row, f.split('.'))]));
}

/** A cell's text: strings as they are, nothing for null/undefined, JSON for lists and objects. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, tab or return first, or their
 * full-width forms: a self-registered username may be one) gets a leading apostrophe, as OWASP
 * advises; a number stays as it is (-5 is a number, not a formula). One rule for the CSV and the
 * table, so that a table pasted into a spreadsheet is as safe as the CSV.
 */
export function neutralised(value: unknown): string {
  const text = printable(cellText(value));
  if (typeof value === 'number' || typeof value === 'bigint') return text;
  return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(text) ? `'${text}` : text;
}

/**
 * A text as a terminal may be given it: every control character but tab and line breaks (escape
 * sequences, C1 controls) and every bidirectional override becomes U+FFFD, so that what a member
 * wrote (a reply, a name) cannot move the cursor, rewrite lines or set the clipboard of the
 * operator reading the table or the CSV.
 */
const printable = (text: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '\ufffd');

function columnsOf(rows: Record<string, unknown>[]): string[] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
}

/**
 * CSV by csv-stringify: cells with a comma, a quote, a line break or space at either end are quoted;
 * every cell, the header's too, is `neutralised` first.
 */
export function toCsv(rows: Record<string, unknown>[], columns = columnsOf(rows)): string {
  const records = [columns, ...rows.map((row) => columns.map((c) => row[c]))].map((r) => r.map(neutralised));
  return stringifyCsv(records, { record_delimiter: 'unix', quoted_match: /^\s|\s$|\r/ });
}

/** Columns a terminal gives a character: two for East Asian wide and full-width ones. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const wide =
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1f300 && code <= 0x1faff) ||
      (code >= 0x20000 && code <= 0x3fffd);
    width += wide ? 2 : 1;
  }
  return width;
}

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - displayWidth(text)));

/** An aligned table; every cell and header `neutralised` as in the CSV, line breaks made spaces. */
export function toTable(rows: Record<string, unknown>[], columns = columnsOf(rows)): string {
  const oneLine = (value: unknown) => neutralised(value).replace(/\s*[\r\n]+\s*/g, ' ');
  const head = columns.map(oneLine);
  const cells = rows.map((row) => columns.map((c) => oneLine(row[c])));
  const widths = head.map((c, i) => Math.max(displayWidth(c), ...cells.map((r) => displayWidth(r[i]!))));
  const line = (texts: string[]) =>
    texts
      .map((t, i) => pad(t, widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

/** What `get` prints for `data` (a list, or one object or value). */
export function render(data: unknown, format: Format, fields?: string[]): string {
  const many = Array.isArray(data);
  const items = (many ? data : [data]) as unknown[];
  const rows = fields ? items.map((item) => pick(item, fields)) : items;
  if (format === 'json') return `${JSON.stringify(many ? rows : rows[0], null, 2)}\n`;
  const objects = rows.map((r) =>
    r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r },
  );
  const columns = fields ?? columnsOf(objects);
  if (columns.length === 0) return '';
  return format === 'csv' ? toCsv(objects, columns) : toTable(objects, columns);
}
