/**
 * Request generation for the fuzz suite (fuzz.test.ts): from a route's own schemas, requests that
 * are valid, slightly wrong and hostile. Seeded, so a failing run can be repeated exactly.
 */
import { Value } from 'typebox/value';
import type { RouteEntry } from '../platform/route-table.js';

export type Rng = () => number;

/** mulberry32: small, fast and good enough to pick test values reproducibly. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const int = (r: Rng, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

/** A JSON Schema as TypeBox writes it: only what generation reads. */
interface Schema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  pattern?: string;
  /** Values the schema's author gives as valid (JSON Schema `examples`): tried first. */
  examples?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  minItems?: number;
}

/**
 * A number sent as JSON text the way no JSON.stringify writes it (1e400, -0): the payload carries
 * `json`, the signature the value the server's parser will see.
 */
export class RawNumber {
  constructor(
    readonly json: string,
    readonly parsed: number,
  ) {}
}

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789';
const word = (r: Rng, n: number) => Array.from({ length: n }, () => ALNUM[int(r, 0, ALNUM.length - 1)]).join('');

/** Strings that break naive code: control characters, numbers in disguise, markup, SQL, paths. */
const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  'x\u0007\u001b[31m',
  '\u007f',
  'Infinity',
  '-Infinity',
  '1e400',
  'NaN',
  '-0',
  '1e20',
  '9007199254740993',
  '-1',
  '0',
  '1.5',
  '0x10',
  ' 12 ',
  '',
  ' ',
  'null',
  'undefined',
  'true',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '$1',
  '../../../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  // Addresses the server must never be made to send requests to, and a host written another way.
  'http://127.0.0.1:8080/',
  'http://2130706433/',
  'http://[::ffff:127.0.0.1]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://localhost./',
  'HTTPS://ERP.DEMO-PARK.EXAMPLE./',
  '\ud800',
  '\u202eevil',
  '😀'.repeat(40),
  '名'.repeat(300),
  '__proto__',
  'constructor',
  '{"a":1}',
  'ST-AAAAAAAAAAAAAAAAAAAAAAAA',
  'a'.repeat(5000),
];

/**
 * Names that change the structure of what carries them, or hide what they are (ADR 032): line
 * and paragraph separators, line breaks, format characters (bidi controls, zero-width ones, a byte
 * order mark), other white space, half of a surrogate pair, a decomposed letter, spaces at the
 * ends, markup, and a pair cut in half when a text is cut by UTF-16 units.
 */
export const HOSTILE_NAMES: readonly string[] = [
  // The six every name field gets (systematicRequestsFor); the rest are drawn.
  'admin\nzz',
  'a\u2028b',
  'a\u2029b',
  '\u202eadmin',
  'ad\u200bmin',
  'ad\ud800min',
  'a\rb',
  'a\u0085b',
  'a\u000bb',
  'ad\u200dmin',
  'ad\u2066min',
  '\ufeffadmin',
  'ad\u00admin',
  'a\u00a0b',
  'a\u3000b',
  'admin\udc00',
  ' admin ',
  'e\u0301mile',
  'a<b>&"c\'',
  `a${'😀'.repeat(63)}`,
  `a${'😀'.repeat(200)}`,
];

/** A field that holds a name (a user's, a person's, a site's, a file's …). */
export const isNameField = (key: string) => /name(En)?$|^contacts$/i.test(key);

/** Values of the wrong kind for any field. */
const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  -1,
  0,
  1.5,
  1e20,
  Number.MAX_SAFE_INTEGER,
  new RawNumber('1e400', Infinity),
  new RawNumber('-1e400', -Infinity),
  new RawNumber('-0', -0),
  new RawNumber('9007199254740993', 9007199254740992),
  [],
  ['a', 'b'],
  [[[[1]]]],
  {},
  { a: { b: { c: 1 } } },
  { $gt: '' },
];

/** A value that should satisfy `s` (a schema's own examples first; patterns are tried, not solved). */
export function validValue(s: Schema | undefined, r: Rng): unknown {
  if (!s) return word(r, 8);
  if (s.const !== undefined) return s.const;
  if (s.examples?.length) return pick(r, s.examples);
  if (s.enum) return pick(r, s.enum);
  if (s.anyOf) return validValue(pick(r, s.anyOf), r);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string': {
      const min = s.minLength ?? 1;
      const max = Math.min(s.maxLength ?? 24, 24);
      const candidates = [word(r, int(r, min, Math.max(min, max))), String(int(r, 1, 99)), `ST-${word(r, 20)}`];
      if (s.pattern) {
        const re = new RegExp(s.pattern, 'u');
        return candidates.find((c) => re.test(c)) ?? candidates[0];
      }
      return candidates[0];
    }
    case 'integer':
    case 'number': {
      const min = s.minimum ?? 0;
      const max = Math.min(s.maximum ?? 50, min + 50);
      return int(r, min, max);
    }
    case 'boolean':
      return r() < 0.5;
    case 'null':
      return null;
    case 'array':
      return Array.from(
        { length: int(r, s.minItems ?? 0, Math.max(s.minItems ?? 0, Math.min(3, s.maxItems ?? 3))) },
        () => validValue(s.items, r),
      );
    case 'object':
      return validObject(s, r);
    default:
      return word(r, 6);
  }
}

/** Valid values for the required fields of `s`, and for some of the others unless `requiredOnly`. */
export function validObject(s: Schema, r: Rng, requiredOnly = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    if (s.required?.includes(key) || (!requiredOnly && r() < 0.6)) out[key] = validValue(sub, r);
  }
  return out;
}

/** A value meant to be refused, or to reach code that must cope with it. */
function hostileValue(s: Schema | undefined, r: Rng, key = ''): unknown {
  if (isNameField(key) && r() < 0.5) return pick(r, HOSTILE_NAMES);
  const roll = r();
  if (roll < 0.55) return pick(r, HOSTILE_STRINGS);
  if (roll < 0.8) return pick(r, HOSTILE_VALUES);
  if (roll < 0.9 && s?.maxLength !== undefined) return 'x'.repeat(s.maxLength + 1);
  return `${String(validValue(s, r))}${pick(r, ['\u0000', '\u0001', "'", '%', '\\', '\n'])}`;
}

/** One generated request, before signing. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  /** An object (sent as JSON), a raw text with its content type, or nothing. */
  body?: { json: Record<string, unknown> } | { raw: string; contentType: string };
  /** Send the caller's session token, if it has one. */
  withSession: boolean;
  /** The session acts as an operator holding every operators' permission (else as a user). */
  operator?: boolean;
  /** Sign the request (a few are sent unsigned or signed wrongly on purpose). */
  signing: 'good' | 'none' | 'bad';
  what: string;
}

/** `{"a":{"a":…}}` or `[[…]]` nested `depth` times: a small body that overflows any recursive walk. */
function deepJson(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object'
    ? `{"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`
    : `{"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

const RAW_BODIES: ReadonlyArray<[string, string, string]> = [
  ['deep object', deepJson(5000, 'object'), 'application/json'],
  ['deep array', deepJson(5000, 'array'), 'application/json'],
  [
    'top-level array',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
    'application/json',
  ],
  ['wide array', `{"x":[${Array.from({ length: 20_000 }, () => '0').join(',')}]}`, 'application/json'],
  ['invalid JSON', '{"a":', 'application/json'],
  ['empty JSON', '', 'application/json'],
  ['prototype key', '{"__proto__":{"admin":true}}', 'application/json'],
  ['constructor key', '{"constructor":{"prototype":{"admin":true}}}', 'application/json'],
  ['NUL in a key', '{"a\\u0000b":"c"}', 'application/json'],
  ['plain text', 'hello', 'text/plain'],
  ['xml', '<a>1</a>', 'application/xml'],
  ['form', 'a=1&b=%00', 'application/x-www-form-urlencoded'],
  ['charset', '{"a":1}', 'application/json; charset=latin1'],
  ['lone surrogate in an ignored field', '{"zz":"\\ud800"}', 'application/json'],
  ['NUL in an ignored field', '{"zz":"a\\u0000"}', 'application/json'],
  ['lone surrogate in a key', '{"\\udc00":1}', 'application/json'],
  ['multipart without a boundary', 'abc', 'multipart/form-data'],
  ['multipart with an empty boundary', 'abc', 'multipart/form-data; boundary='],
  [
    'multipart ending early',
    '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    'multipart/form-data; boundary=xyz',
  ],
];

/** Percent-encodes for a path; a lone surrogate becomes the bytes of one (not valid UTF-8). */
const encode = (v: string) =>
  v
    .replace(/[\ud800-\udfff]/g, '\u0001')
    .split('\u0001')
    .map(encodeURIComponent)
    .join('%ED%A0%80');

/** The route's address with its parameters; a trailing wildcard (`/*`) takes `params['*']`, its slashes kept. */
const fill = (url: string, params: Record<string, unknown>) =>
  url
    .replace(/:(\w+)/g, (_, name: string) => encode(String(params[name] ?? 'x')))
    .replace(/\*$/, () =>
      String(params['*'] ?? 'x')
        .split('/')
        .map(encode)
        .join('/'),
    );

/** Requests for one route: mostly schema-shaped with one hostile field, some whole-request attacks. */
export function requestsFor(route: RouteEntry, count: number, r: Rng): FuzzRequest[] {
  const schema = (route.schema ?? {}) as { querystring?: Schema; params?: Schema; body?: Schema };
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const out: FuzzRequest[] = [];
  for (let i = 0; i < count; i++) {
    const query = schema.querystring ? validObject(schema.querystring, r) : {};
    const params = schema.params ? validObject(schema.params, r) : {};
    const body = hasBody ? (schema.body ? validObject(schema.body, r) : {}) : undefined;
    const parts: Array<[Record<string, unknown>, Schema | undefined]> = [];
    if (schema.querystring) parts.push([query, schema.querystring]);
    if (schema.params) parts.push([params, schema.params]);
    if (body && schema.body) parts.push([body, schema.body]);
    let what = 'valid';
    let req: Partial<FuzzRequest> = {};
    const roll = r();
    if (roll < 0.75 && parts.length > 0) {
      // One or two fields hostile (or a field the schema does not know).
      for (let k = 0; k < (r() < 0.8 ? 1 : 2); k++) {
        const [target, s] = pick(r, parts);
        const keys = Object.keys(s?.properties ?? {});
        const key = keys.length > 0 && r() < 0.9 ? pick(r, keys) : pick(r, ['extra', '__proto__', 'a\u0000']);
        const value = hostileValue(s?.properties?.[key], r, key);
        target[key] = value;
        what = `${key}=${describe(value)}`;
      }
    } else if (roll < 0.85 && hasBody) {
      const [name, raw, contentType] = pick(r, RAW_BODIES);
      req = { body: { raw, contentType } };
      what = name;
    } else if (roll < 0.9 && route.url.includes(':')) {
      // Path parameters that are not URL components, or far too long.
      const bad = pick(r, ['%', '%zz', '%00', 'a%2Fb', '..', 'x'.repeat(300), '%E0%A4%A']);
      req = { path: route.url.replace(/:(\w+)/g, bad) };
      what = `path ${bad.slice(0, 12)}`;
    } else if (roll < 0.93) {
      req = { signing: r() < 0.5 ? 'none' : 'bad' };
      what = `signing ${req.signing}`;
    } else if (roll < 0.97) {
      // Every query field given twice (arrays where the schema expects one value).
      for (const key of Object.keys(query)) query[key] = [query[key], pick(r, HOSTILE_STRINGS)];
      what = 'duplicate query keys';
    }
    if (r() < 0.5) query.language = 'eng';
    out.push({
      method: route.method,
      path: fill(route.url, params),
      query,
      ...(body !== undefined ? { body: { json: body } } : {}),
      withSession: r() < 0.5,
      operator: route.url.startsWith('/api/admin/') && r() < 0.7,
      signing: 'good',
      what,
      ...req,
    });
  }
  return out;
}

/** A field that names a row by its id (`id`, `parentId`, `roleIds` …). */
const isIdField = (key: string) => /(?:^id|Id)s?$/.test(key);

/** `part` with every id it names one that can name a row (a positive integer; text unless a number was drawn). */
function withRowIds(part: Record<string, unknown>, r: Rng): Record<string, unknown> {
  const id = (drawn: unknown) => (typeof drawn === 'number' ? int(r, 1, 99) : String(int(r, 1, 99)));
  for (const [key, value] of Object.entries(part)) {
    if (!isIdField(key) || value === null || value === undefined) continue;
    part[key] = Array.isArray(value) ? value.map(id) : id(value);
  }
  return part;
}

/**
 * A request that a caller allowed to make it could send: its query, path and body valid by the
 * route's own schemas (drawn until TypeBox's check passes) and every id one that can name a row.
 * Nothing a route refuses before its service asks for the permission can refuse it, so a refusal
 * of it is the permission's. Null when no draw passes (a pattern without `examples` in its schema).
 */
export function permittedRequestFor(route: RouteEntry, r: Rng, tries = 200): FuzzRequest | null {
  const schema = (route.schema ?? {}) as { querystring?: Schema; params?: Schema; body?: Schema };
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const valid = (s: Schema | undefined, value: Record<string, unknown> | undefined) =>
    !s || Value.Check(s as Parameters<typeof Value.Check>[0], value);
  for (let i = 0; i < tries; i++) {
    const query = withRowIds(schema.querystring ? validObject(schema.querystring, r, true) : {}, r);
    const params = withRowIds(schema.params ? validObject(schema.params, r, true) : {}, r);
    // A PATCH names something to change (one naming nothing is refused before any route).
    const patch = route.method === 'PATCH';
    const body = hasBody ? withRowIds(schema.body ? validObject(schema.body, r, !patch) : {}, r) : undefined;
    if (patch && schema.body && Object.keys(body!).length === 0) continue;
    if (!valid(schema.querystring, query) || !valid(schema.params, params) || !valid(schema.body, body)) continue;
    return {
      method: route.method,
      path: fill(route.url, params),
      query,
      ...(body !== undefined ? { body: { json: body } } : {}),
      withSession: true,
      signing: 'good',
      what: 'permitted',
    };
  }
  return null;
}

/** The fields of a schema whose values may be text. */
const textFields = (s: Schema | undefined) =>
  Object.entries(s?.properties ?? {})
    .filter(([, sub]) => JSON.stringify(sub).includes('"string"'))
    .map(([key]) => key);

/**
 * Requests every route gets, not left to chance: the classes of input that once reached a 5xx
 * somewhere, tried where each can reach. Each body text field gets half a surrogate pair; each
 * name field in the body, query or path every kind of hostile name; every JSON body an ignored
 * field with a NUL and one with half a pair; every PATCH a body naming nothing it knows; every
 * POST and PUT a multipart body without a boundary. With a session (an operator's on the
 * operators' routes), so that a refusal is not only the sign-in's.
 */
export function systematicRequestsFor(route: RouteEntry, r: Rng): FuzzRequest[] {
  const schema = (route.schema ?? {}) as { querystring?: Schema; params?: Schema; body?: Schema };
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const operator = route.url.startsWith('/api/admin/');
  const out: FuzzRequest[] = [];
  const request = (
    what: string,
    change: (q: Record<string, unknown>, p: Record<string, unknown>, b?: Record<string, unknown>) => void,
    body?: FuzzRequest['body'],
  ) => {
    // Required fields only, so that nothing else (a random tenant named, say) refuses it first.
    const query = schema.querystring ? validObject(schema.querystring, r, true) : {};
    const params = schema.params ? validObject(schema.params, r, true) : {};
    const json = hasBody ? (schema.body ? validObject(schema.body, r, true) : {}) : undefined;
    change(query, params, json);
    out.push({
      method: route.method,
      path: fill(route.url, params),
      query,
      ...(body ? { body } : json !== undefined ? { body: { json } } : {}),
      withSession: true,
      operator,
      signing: 'good',
      what,
    });
  };
  if (hasBody) {
    for (const key of textFields(schema.body)) {
      request(`${key}=half a pair`, (_q, _p, b) => void (b![key] = `a\ud800${pick(r, ['', 'b'])}`));
      // Whole pairs, more than 300 UTF-16 units: code that cuts a text by units leaves half a pair.
      const max = schema.body?.properties?.[key]?.maxLength;
      if (max === undefined || max >= 201) {
        request(`${key}=pairs to cut`, (_q, _p, b) => void (b![key] = `a${'😀'.repeat(200)}`));
      }
    }
    request('ignored field with NUL', (_q, _p, b) => void (b!.zz = 'a\u0000'));
    request('ignored field with half a pair', (_q, _p, b) => void (b!.zz = '\udfff'));
  }
  for (const [part, s] of [
    ['querystring', schema.querystring],
    ['params', schema.params],
    ['body', schema.body],
  ] as const) {
    if (part === 'body' && !hasBody) continue;
    for (const key of textFields(s).filter(isNameField)) {
      // Every name field gets a line feed, the separators, a bidi control, a zero-width space and
      // half a pair; two more of the others, so that all of them are tried somewhere each run.
      for (const name of [...HOSTILE_NAMES.slice(0, 6), pick(r, HOSTILE_NAMES), pick(r, HOSTILE_NAMES)]) {
        request(`${key}=${describe(name)}`, (q, p, b) => {
          const target = part === 'querystring' ? q : part === 'params' ? p : b!;
          target[key] = name;
        });
      }
    }
  }
  if (route.method === 'PATCH' && schema.body) {
    // Of a row that exists: the seeded database's first rows are the demo tenant's.
    const existing = (p: Record<string, unknown>) => {
      if ('id' in (schema.params?.properties ?? {})) p.id = String(int(r, 1, 3));
    };
    request('PATCH of nothing', (_q, p) => existing(p), { json: {} });
    request('PATCH of unknown fields', (_q, p) => existing(p), { json: { unknownField: 1, other: 'x' } });
  }
  if (route.method === 'POST' || route.method === 'PUT') {
    request('multipart without a boundary', () => undefined, { raw: 'abc', contentType: 'multipart/form-data' });
  }
  return out;
}

export function describe(value: unknown): string {
  if (value instanceof RawNumber) return value.json;
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 37)}…(${text.length})` : text;
}
