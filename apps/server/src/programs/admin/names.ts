/**
 * The name grammar (ADR 032) on the command line: a body a command is about to send is checked
 * first, so that a name the server would refuse is refused here, saying which field and why,
 * before anything (a password's encryption, a request) happens. Pure.
 */
import { checkPersonName, checkUsername, type NameProblem } from '@portal/contracts';
import { usageError } from './args.js';
import type { Target } from './routes.js';

type Kind = 'username' | 'person';

/** The body fields that are names, per resource, as dotted paths. */
const NAME_FIELDS: Record<string, Record<string, Kind>> = {
  users: { username: 'username', name: 'person', nameEn: 'person' },
  tenants: { 'operator.username': 'username', 'operator.name': 'person' },
};

const WHY: Record<NameProblem, string> = {
  required: 'is empty',
  lineBreak: 'holds a line break',
  control: 'holds a control character',
  invisible: 'holds an invisible or format character (bidi control, zero-width, odd white space)',
  edgeSpace: 'begins or ends with a space',
  spaces: 'holds two spaces in a row',
  tooShort: 'is too short',
  tooLong: 'is too long',
  notNormalized: 'is not in Unicode NFC (a user name: NFKC)',
  markFirst: 'begins with a combining mark',
  character: 'holds a character other than letters, digits, single spaces and . _ - @ + ·',
  lookAlike: 'holds a character that passes for a plain Latin letter (such as ı or ß, or a mark on a plain letter)',
};

/** `value` quoted, each character that shows nothing (or moves others) written as its code: "ops\u2028root". */
export function shown(value: string): string {
  let out = '';
  for (const c of value) {
    const visible = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(c) && !/\p{Default_Ignorable_Code_Point}/u.test(c);
    const code = c.codePointAt(0)!;
    out +=
      visible && c !== '"' && c !== '\\'
        ? c
        : code > 0xffff
          ? `\\u{${code.toString(16)}}`
          : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `"${out}"`;
}

const valueAt = (body: Record<string, unknown>, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      body,
    );

/** Throws a usage error naming the first name field of `body` the grammar refuses. */
export function checkNames(t: Target, body: Record<string, unknown>): void {
  const fields =
    Object.hasOwn(NAME_FIELDS, t.name) && (t.kind === 'collection' || t.kind === 'item') ? NAME_FIELDS[t.name]! : {};
  for (const [path, kind] of Object.entries(fields)) {
    const value = valueAt(body, path);
    if (typeof value !== 'string') continue;
    // An English name may be empty (the Chinese one is shown); every other name may not.
    if (path === 'nameEn' && value.trim() === '') continue;
    const { problem } = kind === 'username' ? checkUsername(value) : checkPersonName(value);
    if (problem) {
      const what = kind === 'username' ? 'a user name (2 to 64 characters)' : "a person's name (at most 64 characters)";
      throw usageError(`${path} ${shown(value)} ${WHY[problem]}: not ${what} (ADR 032)`);
    }
  }
}
