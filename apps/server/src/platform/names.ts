/**
 * The name grammar of the contracts (ADR 032) as the server applies it: a name a request brings is
 * normalised and checked, or refused with a message a person understands; a name already stored
 * is checked as it is, to be reported (never renamed).
 */
import {
  PERSON_NAME_LENGTH,
  ResultCode,
  USERNAME_LENGTH,
  checkPersonName,
  checkUsername,
  personNameProblem,
  usernameProblem,
  type NameProblem,
} from '@portal/contracts';
import { AppError } from './errors.js';
import type { MessageKey } from './i18n.js';

function refusal(
  problem: NameProblem,
  keys: {
    required: MessageKey;
    length: MessageKey;
    invisible: MessageKey;
    spaces: MessageKey;
    character?: MessageKey;
    lookAlike?: MessageKey;
  },
  length: { min: number; max: number },
): AppError {
  const key: MessageKey =
    problem === 'required'
      ? keys.required
      : problem === 'tooShort' || problem === 'tooLong'
        ? keys.length
        : problem === 'spaces'
          ? keys.spaces
          : problem === 'character' || problem === 'markFirst'
            ? (keys.character ?? keys.invisible)
            : problem === 'lookAlike'
              ? (keys.lookAlike ?? keys.invisible)
              : keys.invisible;
  return new AppError(ResultCode.BAD_REQUEST, key, { min: length.min, max: length.max });
}

/** The user name a request brings, as it is kept (normalised); a 400 saying what is wrong with it. */
export function acceptUsername(input: string): string {
  const { value, problem } = checkUsername(input);
  if (problem) {
    throw refusal(
      problem,
      {
        required: 'usernameRequired',
        length: 'usernameLength',
        invisible: 'usernameInvisible',
        spaces: 'usernameSpaces',
        character: 'usernameCharacters',
        lookAlike: 'usernameLookAlike',
      },
      USERNAME_LENGTH,
    );
  }
  return value;
}

/**
 * A person's name a request brings (a user's name, its English form, a nickname, a contact
 * person), as it is kept; a 400 when it breaks the rule. `required` is the message of an empty one.
 */
export function acceptPersonName(
  input: string,
  opts: { required: MessageKey; max?: number; tooLong?: MessageKey } = { required: 'nameRequired' },
): string {
  const max = opts.max ?? PERSON_NAME_LENGTH.max;
  const { value, problem } = checkPersonName(input, max);
  if (problem) {
    throw refusal(
      problem,
      {
        required: opts.required,
        length: opts.tooLong ?? 'nameTooLong',
        invisible: 'nameInvisible',
        spaces: 'nameSpaces',
      },
      { min: PERSON_NAME_LENGTH.min, max },
    );
  }
  return value;
}

/** An optional person's name (an English name): empty stays empty, anything else is checked. */
export function acceptOptionalPersonName(input: string | undefined, max?: number): string | undefined {
  if (input === undefined) return undefined;
  return input.trim() === '' ? '' : acceptPersonName(input, { required: 'nameRequired', ...(max ? { max } : {}) });
}

/** A nickname has at most 32 characters, fewer than other names. */
export const NICKNAME_MAX = 32;

export interface StoredNames {
  username: string;
  name: string;
  nameEn?: string | null | undefined;
  nickname?: string | null | undefined;
}

export interface NameIssue {
  field: 'username' | 'name' | 'nameEn' | 'nickname';
  problem: NameProblem;
}

/** How the names a user has stored break the grammar, field by field (empty when they do not). */
export function storedNameIssues(u: StoredNames): NameIssue[] {
  const issues: NameIssue[] = [];
  const username = usernameProblem(u.username);
  if (username) issues.push({ field: 'username', problem: username });
  const name = personNameProblem(u.name);
  if (name) issues.push({ field: 'name', problem: name });
  if (u.nameEn) {
    const en = personNameProblem(u.nameEn);
    if (en) issues.push({ field: 'nameEn', problem: en });
  }
  if (u.nickname) {
    const nick = personNameProblem(u.nickname, NICKNAME_MAX);
    if (nick) issues.push({ field: 'nickname', problem: nick });
  }
  return issues;
}

export interface NameReport {
  /** How many users have a stored name that breaks the grammar. */
  total: number;
  /** The first `keep` of them, in id order. */
  records: Array<{ id: number; tenantId: number; username: string; name: string; issues: NameIssue[] }>;
}

/** Reads stored names batch by batch and reports those that break the grammar (nothing is changed). */
export async function nameReport(
  batches: AsyncIterable<Array<StoredNames & { id: number; tenantId: number }>>,
  keep = 500,
): Promise<NameReport> {
  const report: NameReport = { total: 0, records: [] };
  for await (const batch of batches) {
    for (const u of batch) {
      const issues = storedNameIssues(u);
      if (issues.length === 0) continue;
      report.total++;
      if (report.records.length < keep) {
        report.records.push({ id: u.id, tenantId: u.tenantId, username: u.username, name: u.name, issues });
      }
    }
  }
  return report;
}

/**
 * The start-up report: a warning naming how many stored names break the grammar and which users
 * hold them, or nothing when none does. The names stay as they are: an operator renames
 * (`PATCH /api/admin/users/:id`), since a sign-in name is the person's and other systems know it.
 */
export async function reportStoredNames(
  batches: AsyncIterable<Array<StoredNames & { id: number; tenantId: number }>>,
  warn: (detail: object, message: string) => void,
): Promise<NameReport> {
  const report = await nameReport(batches, 100);
  if (report.total > 0) {
    const ids = report.records.map((r) => r.id);
    const more = report.total > ids.length ? ` and ${report.total - ids.length} more` : '';
    warn(
      { users: report.total, ids },
      `${report.total} stored user name(s) break the name rule (ADR 032) and are kept as they are: user ids ` +
        `${ids.join(', ')}${more}. List them with "npm run admin -- get users/name-issues" (per tenant), ` +
        `rename with "npm run admin -- update users/<id> -s username=…"`,
    );
  }
  return report;
}
