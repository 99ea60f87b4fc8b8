/**
 * The industry file of `npm run import:industries` (and the built-in seed): parsing CSV or JSON and
 * validating the whole tree before anything is written. Pure: no database, no file system. Every
 * problem is reported with the line it is on, so a file can be fixed in one pass.
 *
 * Codes follow GB/T 4754-2017: a section letter (level 1), a 2-digit division (2), a 3-digit group
 * (3), a 4-digit class (4). When a row gives no parent or level they follow from the code: a group's
 * parent is its first 2 digits, a class's its first 3, a division's the section whose range holds it.
 */
import { CsvError, parse as parseCsvSync } from 'csv-parse/sync';
import { printParseErrorCode, visit } from 'jsonc-parser';

export type IndustryLevel = 1 | 2 | 3 | 4;

export interface IndustryRecord {
  code: string;
  parentCode: string | null;
  name: string;
  level: IndustryLevel;
  /** Position among its siblings, in file order. */
  sort: number;
}

export interface FileProblem {
  /** The line the row (or JSON object) starts on; null for the file as a whole. */
  line: number | null;
  message: string;
}

export interface ParsedIndustries {
  rows: IndustryRecord[];
  problems: FileProblem[];
}

/** One row as read from a file, before validation. */
export interface RawIndustry {
  line: number | null;
  code: unknown;
  name: unknown;
  parentCode?: unknown;
  level?: unknown;
  /** The code of the enclosing node in a nested JSON tree. */
  enclosing?: string | null;
}

export const MAX_ROWS = 10_000;
export const MAX_NAME_LENGTH = 100;

/** GB/T 4754-2017: which divisions (大类) each section (门类) holds. */
export const DIVISION_RANGES: readonly (readonly [section: string, from: number, to: number])[] = [
  ['A', 1, 5],
  ['B', 6, 12],
  ['C', 13, 43],
  ['D', 44, 46],
  ['E', 47, 50],
  ['F', 51, 52],
  ['G', 53, 60],
  ['H', 61, 62],
  ['I', 63, 65],
  ['J', 66, 69],
  ['K', 70, 70],
  ['L', 71, 72],
  ['M', 73, 75],
  ['N', 76, 79],
  ['O', 80, 82],
  ['P', 83, 83],
  ['Q', 84, 85],
  ['R', 86, 90],
  ['S', 91, 96],
  ['T', 97, 97],
];

/** The section of a 2-digit division, or null when no section's range holds it. */
export function sectionOfDivision(division: string): string | null {
  if (!/^\d{2}$/.test(division)) return null;
  const n = Number(division);
  return DIVISION_RANGES.find(([, from, to]) => n >= from && n <= to)?.[0] ?? null;
}

/** The level a code's shape says, or null for a code of no known shape. */
export function levelOfCode(code: string): IndustryLevel | null {
  if (/^[A-Z]$/.test(code)) return 1;
  if (/^\d{2}$/.test(code)) return 2;
  if (/^\d{3}$/.test(code)) return 3;
  if (/^\d{4}$/.test(code)) return 4;
  return null;
}

/** The parent a code's shape says: none for a section, the range's section for a division, else the prefix. */
export function derivedParent(code: string): string | null {
  switch (levelOfCode(code)) {
    case 2:
      return sectionOfDivision(code);
    case 3:
    case 4:
      return code.slice(0, -1);
    default:
      return null;
  }
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Validates rows into records: codes of a known shape and unique, names non-empty and at most
 * 100 characters, levels matching the codes, every parent present one level up, at most 10,000
 * rows. Returns every problem found; `rows` is only meant to be used when there are none.
 */
export function validateIndustries(raw: readonly RawIndustry[]): ParsedIndustries {
  const problems: FileProblem[] = [];
  const problem = (line: number | null, message: string) => problems.push({ line, message });
  if (raw.length === 0) problem(null, 'the file has no rows');
  if (raw.length > MAX_ROWS) problem(null, `the file has ${raw.length} rows; at most ${MAX_ROWS} are accepted`);

  const rows: (IndustryRecord & { line: number | null })[] = [];
  const firstLine = new Map<string, number | null>();
  for (const r of raw) {
    const { line } = r;
    if (typeof r.code !== 'string' || r.code.trim() === '') {
      problem(line, blank(r.code) ? 'code is missing' : `code ${JSON.stringify(r.code)} must be text (in quotes)`);
      continue;
    }
    const code = r.code.trim();
    const shape = levelOfCode(code);
    if (shape === null) {
      problem(line, `code "${code}" is neither a section letter (A–Z) nor a 2-, 3- or 4-digit code`);
      continue;
    }
    if (firstLine.has(code)) {
      const first = firstLine.get(code);
      problem(line, `code "${code}" appears more than once${first == null ? '' : ` (first on line ${first})`}`);
      continue;
    }
    firstLine.set(code, line);

    let name = '';
    if (typeof r.name !== 'string' || r.name.trim() === '') problem(line, `name of "${code}" is missing`);
    else {
      name = r.name.trim();
      const length = [...name].length;
      if (length > MAX_NAME_LENGTH) {
        problem(line, `name of "${code}" has ${length} characters; at most ${MAX_NAME_LENGTH}`);
      }
    }

    if (!blank(r.level)) {
      const level = typeof r.level === 'string' ? Number(r.level.trim()) : r.level;
      if (typeof level !== 'number' || !Number.isInteger(level) || level < 1 || level > 4) {
        problem(line, `level of "${code}" must be 1, 2, 3 or 4 (got "${String(r.level)}")`);
      } else if (level !== shape) {
        problem(line, `level ${level} does not match code "${code}", which is a level ${shape} code`);
      }
    }

    let parent: string | null;
    if (!blank(r.parentCode) && typeof r.parentCode !== 'string') {
      problem(line, `parent code of "${code}" must be text`);
      continue;
    }
    const given = blank(r.parentCode) ? null : (r.parentCode as string).trim();
    const enclosing = r.enclosing ?? null;
    if (given !== null && enclosing !== null && given !== enclosing) {
      problem(line, `parent code "${given}" of "${code}" is not the node it is nested in ("${enclosing}")`);
    }
    parent = given ?? enclosing;
    if (shape === 1) {
      if (parent !== null) problem(line, `"${code}" is a section (门类) and has no parent, but "${parent}" is given`);
      parent = null;
    } else if (shape === 2) {
      parent ??= sectionOfDivision(code);
      if (parent === null) {
        problem(line, `division "${code}" is in no section's range of GB/T 4754-2017: give its parent_code`);
      }
    } else {
      const prefix = code.slice(0, -1);
      if (parent !== null && parent !== prefix) {
        problem(line, `parent code "${parent}" of "${code}" should be "${prefix}" (the code without its last digit)`);
      }
      parent = prefix;
    }
    rows.push({ code, parentCode: parent, name, level: shape, sort: 0, line });
  }

  const levels = new Map(rows.map((r) => [r.code, r.level]));
  const siblings = new Map<string | null, number>();
  for (const r of rows) {
    if (r.parentCode !== null) {
      const parentLevel = levels.get(r.parentCode);
      if (parentLevel === undefined) problem(r.line, `parent "${r.parentCode}" of "${r.code}" is not in the file`);
      else if (parentLevel !== r.level - 1) {
        problem(r.line, `parent "${r.parentCode}" of "${r.code}" is level ${parentLevel}, not level ${r.level - 1}`);
      }
    }
    const n = siblings.get(r.parentCode) ?? 0;
    r.sort = n;
    siblings.set(r.parentCode, n + 1);
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { rows: rows.map(({ line: _line, ...r }) => r), problems };
}

// ---- CSV -------------------------------------------------------------------------------------------

export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Where each line starts, in bytes of the UTF-8 text (csv-parse counts bytes): CRLF, LF or CR ends a line. */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a || (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a)) starts.push(i + 1);
  }
  return starts;
}

/** The 1-based line holding byte `offset`. */
function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * RFC 4180 CSV read by csv-parse: comma-separated, fields in double quotes may hold commas, line
 * breaks and `""` for a quote; LF, CRLF or CR line ends; a UTF-8 byte order mark is dropped. Blank
 * lines are skipped. Each record carries the line it starts on. After text that follows a closing
 * quote the reading goes on at the next line (that record is left out); a quote never closed ends it.
 */
export function parseCsv(text: string): { records: CsvRecord[]; problems: FileProblem[] } {
  const bytes = Buffer.from(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, 'utf8');
  const starts = lineStarts(bytes);
  const records: CsvRecord[] = [];
  const problems: FileProblem[] = [];
  let from = 0;
  while (from < bytes.length) {
    const base = from;
    let recordStart = base;
    from = bytes.length;
    try {
      parseCsvSync(bytes.subarray(base), {
        relax_column_count: true,
        record_delimiter: ['\r\n', '\n', '\r'],
        on_record: (fields: string[], info) => {
          if (!(fields.length === 1 && fields[0]!.trim() === '')) {
            records.push({ line: lineAt(starts, recordStart), fields });
          }
          recordStart = base + info.bytes;
          return null;
        },
      });
    } catch (err) {
      if (!(err instanceof CsvError)) throw err;
      if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
        problems.push({ line: lineAt(starts, recordStart), message: 'a quoted field is never closed' });
      } else if (err.code === 'CSV_INVALID_CLOSING_QUOTE') {
        const line = lineAt(starts, base) + (err.lines as number) - 1;
        problems.push({ line, message: 'unexpected text after a closing quote (write a quote inside as "")' });
        from = starts[line] ?? bytes.length;
      } else {
        problems.push({ line: lineAt(starts, recordStart), message: err.message });
      }
    }
  }
  return { records, problems };
}

const CSV_COLUMNS: Record<string, 'code' | 'name' | 'parentCode' | 'level'> = {
  code: 'code',
  name: 'name',
  parent_code: 'parentCode',
  parentcode: 'parentCode',
  level: 'level',
};

/** A CSV file with the header `code,name` and optionally `parent_code` and `level`, in any order. */
export function parseIndustriesCsv(text: string): ParsedIndustries {
  const { records, problems } = parseCsv(text);
  const [header, ...body] = records;
  if (!header) return { rows: [], problems: [...problems, { line: null, message: 'the file is empty' }] };
  const columns = header.fields.map((f) => CSV_COLUMNS[f.trim().toLowerCase()]);
  header.fields.forEach((f, k) => {
    const key = columns[k];
    if (!key) {
      problems.push({
        line: header.line,
        message: `unknown column "${f.trim()}" in the header (columns: code, name, parent_code, level)`,
      });
    } else if (columns.indexOf(key) !== k) {
      problems.push({ line: header.line, message: `column "${f.trim()}" appears twice in the header` });
    }
  });
  for (const needed of ['code', 'name'] as const) {
    if (!columns.includes(needed))
      problems.push({ line: header.line, message: `the header has no "${needed}" column` });
  }
  if (problems.some((p) => p.line === header.line || p.line === null)) return { rows: [], problems };

  const raw: RawIndustry[] = [];
  for (const r of body) {
    if (r.fields.length !== columns.length) {
      problems.push({ line: r.line, message: `${r.fields.length} fields, but the header has ${columns.length}` });
      continue;
    }
    const row: RawIndustry = { line: r.line, code: undefined, name: undefined };
    columns.forEach((key, k) => (row[key!] = r.fields[k]));
    raw.push(row);
  }
  const checked = validateIndustries(raw);
  return { rows: checked.rows, problems: sortProblems([...problems, ...checked.problems]) };
}

// ---- JSON ------------------------------------------------------------------------------------------

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const MAX_DEPTH = 64;

/** What a syntax error of jsonc-parser (its code's name) says to the person who wrote the file. */
function syntaxMessage(
  code: string,
  text: string,
  offset: number,
  length: number,
  where: 'object' | 'array' | 'after the end',
): string {
  const at = text[offset];
  if (where === 'after the end') return 'unexpected text after the end';
  // A bare word where an object's property name belongs.
  if (code === 'InvalidSymbol' && where === 'object' && /[{,]\s*$/.test(text.slice(0, offset))) {
    return 'expected a property name in double quotes';
  }
  switch (code) {
    case 'PropertyNameExpected':
      return 'expected a property name in double quotes';
    case 'ColonExpected':
      return 'expected ":" after a property name';
    // The end of an object or array is reported once it is closed (as at the end of the text).
    case 'CloseBraceExpected':
      return 'expected "," or "}"';
    case 'CloseBracketExpected':
      return 'expected "," or "]"';
    case 'CommaExpected':
      return where === 'object' ? 'expected "," or "}"' : 'expected "," or "]"';
    case 'EndOfFileExpected':
      return 'unexpected text after the end';
    case 'UnexpectedEndOfString':
      return offset + length >= text.length
        ? 'a string is never closed'
        : 'a line break or control character inside a string';
    case 'InvalidCharacter':
      return 'a line break or control character inside a string';
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return 'a number is not written as JSON writes numbers';
    case 'InvalidUnicode':
    case 'InvalidEscapeCharacter':
      return 'an invalid escape in a string';
    default:
      return at === undefined ? 'the text ends too early' : `unexpected "${at}"`;
  }
}

/**
 * Strict JSON (no comments, no trailing commas) read by jsonc-parser's visitor, remembering the line
 * each object and array starts on and the line of each array element (for the problems reported).
 * The first syntax error ends the reading with its line; so does nesting deeper than 64 levels.
 */
export function parseJsonWithLines(text: string): {
  value: unknown;
  /** The line each object or array starts on. */
  lineOf: WeakMap<object, number>;
  /** The line each element of an array starts on. */
  elementLines: WeakMap<unknown[], number[]>;
} {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lineOf = new WeakMap<object, number>();
  const elementLines = new WeakMap<unknown[], number[]>();
  // The containers open at this point, innermost last, and the key an object's next value goes to.
  const open: { node: Record<string, unknown> | unknown[]; key: string }[] = [];
  let result: unknown;
  const place = (v: unknown, line: number) => {
    const top = open.at(-1);
    if (!top) result = v;
    else if (Array.isArray(top.node)) {
      top.node.push(v);
      elementLines.get(top.node)!.push(line);
    } else {
      // defineProperty: a key "__proto__" stays a plain property.
      Object.defineProperty(top.node, top.key, { value: v, enumerable: true, writable: true, configurable: true });
    }
  };
  const begin = (node: Record<string, unknown> | unknown[], startLine: number) => {
    const line = startLine + 1;
    if (open.length >= MAX_DEPTH) throw new JsonSyntaxError(`nested more than ${MAX_DEPTH} levels deep`, line);
    lineOf.set(node, line);
    if (Array.isArray(node)) elementLines.set(node, []);
    place(node, line);
    open.push({ node, key: '' });
  };
  visit(
    s,
    {
      onObjectBegin: (_offset, _length, startLine) => begin({}, startLine),
      onArrayBegin: (_offset, _length, startLine) => begin([], startLine),
      onObjectEnd: () => void open.pop(),
      onArrayEnd: () => void open.pop(),
      onObjectProperty: (key) => {
        open.at(-1)!.key = key;
      },
      onLiteralValue: (v: unknown, _offset, _length, startLine) => place(v, startLine + 1),
      onError: (code, offset, length, startLine) => {
        const top = open.at(-1)?.node;
        const where = top
          ? Array.isArray(top)
            ? 'array'
            : 'object'
          : result === undefined
            ? 'array'
            : 'after the end';
        throw new JsonSyntaxError(syntaxMessage(printParseErrorCode(code), s, offset, length, where), startLine + 1);
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return { value: result, lineOf, elementLines };
}

/**
 * A JSON file: an array of `{code, name, parentCode?, level?}` (flat), or of nodes with `children`
 * (nested, as indTree answers; `isLeaf` and other keys are ignored), or an object whose `data` or
 * `children` is such an array (an indTree answer as saved).
 */
export function parseIndustriesJson(text: string): ParsedIndustries {
  let parsed: ReturnType<typeof parseJsonWithLines>;
  try {
    parsed = parseJsonWithLines(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { rows: [], problems: [{ line: err.line, message: err.message }] };
    throw err;
  }
  const { value, elementLines } = parsed;
  const problems: FileProblem[] = [];
  let top = value;
  if (typeof top === 'object' && top !== null && !Array.isArray(top)) {
    const o = top as Record<string, unknown>;
    top = Array.isArray(o.data) ? o.data : o.children;
  }
  if (!Array.isArray(top)) {
    return {
      rows: [],
      problems: [{ line: 1, message: 'expected an array of industries (or an object with a "data" array)' }],
    };
  }

  const raw: RawIndustry[] = [];
  const walk = (items: unknown[], enclosing: string | null) => {
    const lines = elementLines.get(items) ?? [];
    items.forEach((item, k) => {
      const line = lines[k] ?? null;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        problems.push({ line, message: 'expected an object {code, name}' });
        return;
      }
      const o = item as Record<string, unknown>;
      const parentCode = 'parentCode' in o ? o.parentCode : o.parent_code;
      raw.push({ line, code: o.code, name: o.name, parentCode, level: o.level, enclosing });
      if (o.children === undefined || o.children === null) return;
      if (!Array.isArray(o.children)) {
        problems.push({ line, message: '"children" must be an array' });
        return;
      }
      walk(o.children, typeof o.code === 'string' ? o.code.trim() : null);
    });
  };
  walk(top, null);
  const checked = validateIndustries(raw);
  return { rows: checked.rows, problems: sortProblems([...problems, ...checked.problems]) };
}

// ---- Both --------------------------------------------------------------------------------------------

export type IndustryFileFormat = 'csv' | 'json';

/** By the file's extension; otherwise JSON when the text starts with `[` or `{`. */
export function formatOf(fileName: string, text: string): IndustryFileFormat {
  const ext = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  if (ext === 'json') return 'json';
  if (ext === 'csv') return 'csv';
  return /^\uFEFF?\s*[[{]/.test(text) ? 'json' : 'csv';
}

export function parseIndustriesFile(text: string, format: IndustryFileFormat): ParsedIndustries {
  return format === 'json' ? parseIndustriesJson(text) : parseIndustriesCsv(text);
}

/** How many rows of each level: `[sections, divisions, groups, classes]`. */
export function countByLevel(rows: readonly Pick<IndustryRecord, 'level'>[]): [number, number, number, number] {
  const of = (level: IndustryLevel) => rows.filter((r) => r.level === level).length;
  return [of(1), of(2), of(3), of(4)];
}

export function describeProblem(p: FileProblem): string {
  return p.line === null ? p.message : `line ${p.line}: ${p.message}`;
}

function sortProblems(problems: FileProblem[]): FileProblem[] {
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}
