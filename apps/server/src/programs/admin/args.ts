/**
 * The command line of `npm run admin` (ADR 031): options per command with Node's own
 * util.parseArgs, and kcadm's `-s key=value` / `-q key=value` assignments. Pure: no I/O.
 */
import { parseArgs } from 'node:util';

/** The exit codes a script can rely on (README "The admin CLI"). */
export const EXIT = {
  OK: 0,
  /** The server refused (a 4xx or 5xx answer, its status and message on stderr). */
  REFUSED: 1,
  /** The command line is wrong (unknown command, option or resource, a missing value, a bad file). */
  USAGE: 2,
  /** Not logged in, or the session expired or was ended. */
  SESSION: 3,
  /** The server cannot be reached (refused connection, unknown host, timeout, a proxy without it). */
  UNREACHABLE: 4,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error that ends the command with `exitCode` and one line on stderr. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** What the refusal carries for the next step (the login's factor challenge, 40308). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.USAGE);

type OptionType = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
export type OptionSpec = Record<string, OptionType>;
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Options every command takes. */
export const GLOBAL_OPTIONS = {
  config: { type: 'string' },
  tenant: { type: 'string' },
  lang: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies OptionSpec;

export interface Parsed {
  values: Values;
  positionals: string[];
}

/** `argv` (after the command's name) read with the command's options and the global ones. */
export function parseCommand(argv: string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GLOBAL_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (err) {
    throw usageError((err as Error).message.split('\n')[0]!);
  }
}

/** A string option's value (the last one when given several times). */
export function str(values: Values, key: string): string | undefined {
  const v = values[key];
  if (Array.isArray(v)) return v.length ? String(v[v.length - 1]) : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Every value of a `multiple` option. */
export function list(values: Values, key: string): string[] {
  const v = values[key];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

export const flag = (values: Values, key: string): boolean => values[key] === true;

/** The option's value, or a usage error naming it. */
export function required(values: Values, key: string, what = `--${key}`): string {
  const v = str(values, key);
  if (v === undefined || v === '') throw usageError(`${what} is required`);
  return v;
}

const KEY = /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/;

/**
 * A value of `-s key=value`, as kcadm reads it: JSON when it parses as JSON (`true`, `null`,
 * `["1","2"]`, `{"a":1}`, `"text"`), else the text itself. A number only when it reads back the same
 * (`0012`, `1.50` and digits beyond 2^53 stay text, so nothing is lost on the way).
 */
export function parseValue(text: string): unknown {
  if (text.trim() === '') return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof value === 'number' && (String(value) !== text.trim() || !Number.isSafeInteger(Math.trunc(value)))) {
    return text;
  }
  return value;
}

/** `key=value` split at the first `=`; the key must be a (dotted) name. */
export function splitAssignment(text: string, option: string): [string, string] {
  const at = text.indexOf('=');
  const key = at < 0 ? '' : text.slice(0, at);
  if (!KEY.test(key)) throw usageError(`${option} takes key=value, not '${text}'`);
  return [key, text.slice(at + 1)];
}

/** Sets `value` at the dotted `path` of `target` (`operator.password=…` → `{operator: {password}}`). */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === undefined || next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** The body the `-s` assignments make, over `base` (a `-f` file's object) when given. */
export function assignments(items: string[], base: Record<string, unknown> = {}): Record<string, unknown> {
  const body = structuredClone(base);
  for (const item of items) {
    const [key, text] = splitAssignment(item, '-s');
    setPath(body, key, parseValue(text));
  }
  return body;
}

/** The query `-q key=value` makes: texts as they are; a key may come several times. */
export function queryPairs(items: string[]): [string, string][] {
  return items.map((item) => splitAssignment(item, '-q'));
}

/** `--fields a,b.c` → `['a', 'b.c']`. */
export function fieldList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const fields = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.length === 0 || fields.some((f) => !KEY.test(f)))
    throw usageError(`--fields takes names like id,username`);
  return fields;
}
