/**
 * The grammar of the names a person is known by (ADR 032), written once for every place that
 * stores or looks one up: registration, the operators' API and console, the admin CLI, sign-in.
 *
 * - A **person's name** (the name shown beside the account, its English form, a nickname, a
 *   company's contact person) is one line of visible text: no control, format (bidi controls,
 *   zero-width characters), line or paragraph separator or other invisible character, no white
 *   space but the ordinary space and never two of those in a row, in Unicode normal form NFC.
 * - A **user name** (what a person signs in with, and what the sign-on server tells every other
 *   system the person is) is a person's name made of letters of any script, their combining
 *   marks, decimal digits, single spaces and `. _ - @ + ·` only: nothing that means something in
 *   the markup, query and line-based protocols the name travels through.
 *
 * Input is normalised before it is checked (`normalizeName`: surrounding white space dropped,
 * NFC; a user name `normalizeUsername`: NFKC), and sign-in normalises what is typed the same way,
 * so one name is one account whichever way a keyboard composed it. Stored names are checked as they are (`usernameProblem(stored)`), so
 * a name stored before the rule with a space at an end or in another normal form is reported.
 * Each check returns a problem code, never a UI message: the caller picks the message.
 */

export const USERNAME_LENGTH = { min: 2, max: 64 } as const;
export const PERSON_NAME_LENGTH = { min: 1, max: 64 } as const;

/** The punctuation a user name may hold besides letters, marks, digits and single spaces. */
export const USERNAME_PUNCTUATION = ['.', '_', '-', '@', '+', '·'] as const;

export type NameProblem =
  /** Empty. */
  | 'required'
  /** A line feed, carriage return, vertical tab, form feed, next line, line or paragraph separator. */
  | 'lineBreak'
  /** Any other control character. */
  | 'control'
  /**
   * A character that shows nothing or changes how others show: format characters (bidi controls,
   * zero-width ones, soft hyphen), default-ignorable ones (variation selectors, Hangul fillers),
   * white space other than the ordinary space, private-use, unassigned, or half of a UTF-16 pair.
   */
  | 'invisible'
  /** Starts or ends with a space (only a stored name can: input is trimmed). */
  | 'edgeSpace'
  /** Two or more spaces in a row (pages show them as one, so two names would look the same). */
  | 'spaces'
  | 'tooShort'
  | 'tooLong'
  /** Not in Unicode normal form NFC, a user name not in NFKC (only a stored name can be: input is normalised). */
  | 'notNormalized'
  /** User names only: starts with a combining mark, which has no letter to sit on. */
  | 'markFirst'
  /** User names only: a character outside letters, marks, digits, spaces and the punctuation above. */
  | 'character'
  /**
   * User names only: a character that passes for a plain Latin letter where case is ignored (ı and
   * ß fold to i and ss, as Java's equalsIgnoreCase and PostgreSQL's upper() read them), or a
   * combining mark on a plain Latin letter or digit (i + U+0307 shows as i).
   */
  | 'lookAlike';

/** Every line break a line-reading client may split on. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_BREAK = /[\n\r\u000b\u000c\u0085\u2028\u2029]/u;
const CONTROL = /\p{Cc}/u;
/**
 * Format, surrogate (a lone half: a pair is one code point under the u flag), private-use and
 * unassigned code points; default-ignorable ones; white space but the ordinary space; and the
 * Braille blank, which is drawn as nothing.
 */
const INVISIBLE = /[\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Default_Ignorable_Code_Point}\u2800]|(?! )\p{White_Space}/u;
const USERNAME_CHARACTER = /^[\p{L}\p{M}\p{Nd} ._@+·-]$/u;

/** What every write and every lookup does to a name first: surrounding white space dropped, NFC. */
export function normalizeName(value: string): string {
  return value.trim().normalize('NFC');
}

/**
 * What every write and every sign-in does to a user name first: surrounding white space dropped,
 * and NFKC, which also folds the compatibility forms of a letter (full-width ａ, the ligature ﬀ,
 * mathematical 𝐚, the long s ſ) into the letter itself, so none of them is a second way to write
 * another person's name.
 */
export function normalizeUsername(value: string): string {
  return value.trim().normalize('NFKC');
}

/** A plain Latin letter or digit with a combining mark on it: NFC leaves such a pair only where no letter exists. */
const MARK_ON_ASCII = /[A-Za-z0-9]\p{M}/u;
/** A character other than a plain Latin letter that case folding turns into plain Latin letters. */
const foldsToAscii = (c: string) => c > '\u007f' && /^[a-z]+$/.test(c.toUpperCase().toLowerCase());

const codePoints = (value: string) => [...value].length;

/** A line break, control or invisible character in `value`, or null. */
function oddCharacter(value: string): NameProblem | null {
  if (LINE_BREAK.test(value)) return 'lineBreak';
  if (CONTROL.test(value)) return 'control';
  if (INVISIBLE.test(value)) return 'invisible';
  return null;
}

function lineProblem(value: string, length: { min: number; max: number }): NameProblem | null {
  if (value === '') return 'required';
  const odd = oddCharacter(value);
  if (odd) return odd;
  if (value.startsWith(' ') || value.endsWith(' ')) return 'edgeSpace';
  if (value.includes('  ')) return 'spaces';
  const n = codePoints(value);
  if (n < length.min) return 'tooShort';
  if (n > length.max) return 'tooLong';
  if (value !== value.normalize('NFC')) return 'notNormalized';
  return null;
}

/**
 * Whether `value` is one line a line-based protocol can carry as one field: not empty, no line
 * break, control or invisible character, no space at an end. The CAS 1.0 answer's writer refuses
 * any user name that is not (a client reads its second line as the user, and may trim it).
 */
export function isOneLine(value: string): boolean {
  const problem = lineProblem(value, { min: 1, max: Number.MAX_SAFE_INTEGER });
  return problem === null || problem === 'spaces' || problem === 'notNormalized';
}

/** The first way `value` (as stored, or as normalised input) breaks the person's-name rule, or null. */
export function personNameProblem(value: string, max: number = PERSON_NAME_LENGTH.max): NameProblem | null {
  return lineProblem(value, { min: PERSON_NAME_LENGTH.min, max });
}

/** The first way `value` (as stored, or as normalised input) breaks the user-name rule, or null. */
export function usernameProblem(value: string): NameProblem | null {
  const problem = lineProblem(value, USERNAME_LENGTH);
  if (problem) return problem;
  if (value !== value.normalize('NFKC')) return 'notNormalized';
  if (/^\p{M}/u.test(value)) return 'markFirst';
  for (const c of value) if (!USERNAME_CHARACTER.test(c)) return 'character';
  if (MARK_ON_ASCII.test(value) || [...value].some(foldsToAscii)) return 'lookAlike';
  return null;
}

/** Input as it is kept: the normalised user name, or the problem that refuses it. */
export function checkUsername(input: string): { value: string; problem: NameProblem | null } {
  // Odd white space and invisible characters are refused as typed, not folded into plain ones by NFKC.
  const typed = normalizeName(input);
  const odd = oddCharacter(typed);
  if (odd) return { value: typed, problem: odd };
  const value = normalizeUsername(input);
  return { value, problem: usernameProblem(value) };
}

/** Input as it is kept: the normalised person's name, or the problem that refuses it. */
export function checkPersonName(
  input: string,
  max: number = PERSON_NAME_LENGTH.max,
): { value: string; problem: NameProblem | null } {
  const value = normalizeName(input);
  return { value, problem: personNameProblem(value, max) };
}
