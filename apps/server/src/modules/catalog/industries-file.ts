/**
 * The industry file of `npm run import:industries` (and the built-in seed): parsing CSV or JSON and
 * validating the whole tree before anything is written. Pure: no database, no file system. Every
 * problem is reported with the line it is on, so a file can be fixed in one pass.
 *
 * Codes follow GB/T 4754-2017: a section letter (level 1), a 2-digit division (2), a 3-digit group
 * (3), a 4-digit class (4). When a row gives no parent or level they follow from the code: a group's
 * parent is its first 2 digits, a class's its first 3, a division's the section whose range holds it.
 */

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

/**
 * RFC 4180 CSV: comma-separated, fields in double quotes may hold commas, line breaks and `""` for a
 * quote; LF or CRLF line ends; a UTF-8 byte order mark is dropped. Blank lines are skipped.
 */
export function parseCsv(text: string): { records: CsvRecord[]; problems: FileProblem[] } {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  const problems: FileProblem[] = [];
  let line = 1;
  let i = 0;
  while (i < s.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let quotedAt = 0;
    // One record: fields until an unquoted line break or the end.
    for (;;) {
      if (i >= s.length) {
        fields.push(field);
        break;
      }
      const c = s[i]!;
      if (c === '"' && field === '' && quotedAt === 0) {
        quotedAt = line;
        i++;
        let closed = false;
        while (i < s.length) {
          const q = s[i]!;
          if (q === '"') {
            if (s[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (q === '\n') line++;
          field += q;
          i++;
        }
        if (!closed) {
          problems.push({ line: quotedAt, message: 'a quoted field is never closed' });
          return { records, problems };
        }
        const next = s[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          problems.push({ line, message: 'unexpected text after a closing quote (write a quote inside as "")' });
          while (i < s.length && s[i] !== ',' && s[i] !== '\n' && s[i] !== '\r') i++;
        }
        continue;
      }
      if (c === ',') {
        fields.push(field);
        field = '';
        quotedAt = 0;
        i++;
        continue;
      }
      if (c === '\r' || c === '\n') {
        fields.push(field);
        i += c === '\r' && s[i + 1] === '\n' ? 2 : 1;
        line++;
        break;
      }
      field += c;
      i++;
    }
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line: start, fields });
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

/**
 * JSON.parse that also remembers the line each object starts on (for the problems it reports).
 * Strings and numbers are read by JSON.parse itself; the structure by this small descent parser.
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
  let i = 0;
  let line = 1;
  const fail = (message: string): never => {
    throw new JsonSyntaxError(message, line);
  };
  const space = () => {
    for (; i < s.length; i++) {
      const c = s[i];
      if (c === '\n') line++;
      else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  const string = (): string => {
    const start = i++;
    for (; i < s.length && s[i] !== '"'; i++) {
      if (s[i] === '\\') i++;
      else if (s.charCodeAt(i) < 0x20) fail('a line break or control character inside a string');
    }
    if (i >= s.length) fail('a string is never closed');
    i++;
    try {
      return JSON.parse(s.slice(start, i)) as string;
    } catch {
      return fail('an invalid escape in a string');
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (depth: number): unknown => {
    if (depth > 64) fail('nested more than 64 levels deep');
    space();
    const c = s[i];
    if (c === '{') {
      const obj: Record<string, unknown> = {};
      lineOf.set(obj, line);
      i++;
      space();
      if (s[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        space();
        if (s[i] !== '"') fail('expected a property name in double quotes');
        const key = string();
        space();
        if (s[i] !== ':') fail('expected ":" after a property name');
        i++;
        // defineProperty: a key "__proto__" stays a plain property.
        Object.defineProperty(obj, key, {
          value: value(depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        space();
        if (s[i] === ',') i++;
        else if (s[i] === '}') {
          i++;
          return obj;
        } else fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      const arr: unknown[] = [];
      const starts: number[] = [];
      lineOf.set(arr, line);
      elementLines.set(arr, starts);
      i++;
      space();
      if (s[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        space();
        starts.push(line);
        arr.push(value(depth + 1));
        space();
        if (s[i] === ',') i++;
        else if (s[i] === ']') {
          i++;
          return arr;
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (s.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    return fail(i >= s.length ? 'the text ends too early' : `unexpected "${s[i]}"`);
  };
  const result = value(0);
  space();
  if (i < s.length) fail('unexpected text after the end');
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
