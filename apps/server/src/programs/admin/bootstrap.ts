/**
 * `npm run admin -- bootstrap` (ADR 033): the first run of an installation without the demo. There
 * is no operator yet to sign in as, so unlike the other commands it works on the server's database
 * directly (DATABASE_URL, or the embedded one under DATA_DIR, as `npm run backup` opens it): it makes
 * the platform tenant and its first operator, whose password comes from a prompt without echo or a
 * file and is temporary (the first sign-in asks for a new one). When someone can administer the
 * installation already it says who, and changes nothing.
 */
import { readFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { TENANT_CODE, checkPassword, checkPersonName, checkUsername, type PasswordProblem } from '@portal/contracts';
import {
  PLATFORM_DEFAULTS,
  bootstrapPlatform,
  hasActiveOperator,
  platformState,
  type PlatformState,
} from '../../db/bootstrap.js';
import { openCommandDatabase } from '../../db/open.js';
import { hashPassword } from '../../platform/passwords.js';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { CliError, EXIT, str, usageError } from './args.js';
import { readAll, type Ctx } from './commands.js';

const PROBLEMS: Record<PasswordProblem, string> = {
  required: 'it is empty',
  tooShort: 'it has fewer than 8 characters',
  missingClass: 'it needs a digit, a lowercase and an uppercase letter and a symbol',
  containsUsername: 'it contains the username',
  keyboardSequence: 'it contains a keyboard run (such as qwer or 1234)',
};

const refused = (message: string) => new CliError(message, EXIT.REFUSED);

/**
 * One text option by the name grammar (ADR 032: normalised, then checked; a user name by its own
 * rule, any other text as one line of visible text of at most `max` characters); `fallback` when
 * not given.
 */
function text(ctx: Ctx, key: string, fallback: string, max: number, kind: 'username' | 'text' = 'text'): string {
  const given = str(ctx.values, key) ?? fallback;
  const { value, problem } = kind === 'username' ? checkUsername(given) : checkPersonName(given, max);
  if (problem && kind === 'username')
    throw usageError(`--${key} takes a user name: 2 to 64 letters, digits, single spaces and . _ - @ + · (ADR 032)`);
  if (problem) throw usageError(`--${key} takes 1 to ${max} characters on one line, none of them invisible`);
  return value;
}

/** The password of `--password-file` (`-`: stdin): its one line, without the line end. */
async function passwordFromFile(ctx: Ctx, name: string): Promise<string> {
  let content: string;
  try {
    content = name === '-' ? await readAll(ctx.io.stdin) : await readFile(resolve(ctx.io.cwd, name), 'utf8');
  } catch (err) {
    throw usageError(`cannot read ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const password = content.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(password)) throw usageError(`${name} must hold the password alone, on one line`);
  return password;
}

/** The password asked for twice without echo. */
async function passwordFromPrompt(ctx: Ctx, username: string): Promise<string> {
  const first = await ctx.prompter.ask(`Password for the operator ${username}: `, { hidden: true });
  if (first === null) throw usageError('no password given: type it when asked, or use --password-file FILE');
  const again = await ctx.prompter.ask('The same password again: ', { hidden: true });
  if (again !== first) throw refused('The two passwords differ; nothing was created');
  return first;
}

function describe(state: PlatformState): string {
  const tenant = state.tenant!;
  const who = state.operators
    .map((o) => {
      const notes = [
        `since ${o.createdAt.toISOString().slice(0, 10)}`,
        ...(o.disabled ? ['disabled'] : []),
        ...(o.mustChangePassword ? ['temporary password'] : []),
      ];
      return `${o.username} (${notes.join(', ')})`;
    })
    .join(', ');
  return `the platform tenant "${tenant.code}" (${tenant.name}) has its operator${state.operators.length === 1 ? '' : 's'} already: ${who}`;
}

const NEVER =
  'The bootstrap never makes a second platform tenant or changes a password: an operator sets ' +
  'passwords in the console (系统管理 › 用户管理) or with "npm run admin -- set-password"';

function ranBy(): string {
  try {
    return `${userInfo().username}@${hostname()}`;
  } catch {
    return hostname();
  }
}

export async function bootstrap(ctx: Ctx): Promise<number> {
  if (ctx.positionals.length > 0) throw usageError(`unexpected argument '${ctx.positionals[0]}'`);
  const { io } = ctx;
  const tenantCode = text(ctx, 'tenant', PLATFORM_DEFAULTS.code, 32);
  if (!new RegExp(TENANT_CODE).test(tenantCode))
    throw usageError(`--tenant takes a code of 2 to 32 lowercase letters, digits and '-', starting with a letter`);
  const tenantName = text(ctx, 'tenant-name', PLATFORM_DEFAULTS.name, 100);
  const tenantNameEn = text(ctx, 'tenant-name-en', PLATFORM_DEFAULTS.nameEn, 100);
  const username = text(ctx, 'user', 'admin', 64, 'username');
  const name = text(ctx, 'name', PLATFORM_DEFAULTS.operatorName, 64);
  const file = str(ctx.values, 'password-file');

  let config;
  try {
    config = loadConfig(io.env);
  } catch (err) {
    if (err instanceof ConfigError) throw refused(`Configuration error: ${err.message}`);
    throw err;
  }
  const verbose = io.env.LOG_LEVEL === 'debug';
  const database = await openCommandDatabase(config, {
    say: (line) => io.stderr.write(`${line}\n`),
    log: {
      info: (m) => verbose && io.stderr.write(`${m}\n`),
      warn: (m) => io.stderr.write(`${m}\n`),
      debug: (m) => verbose && io.stderr.write(`${m}\n`),
    },
  }).catch((err: unknown) => {
    throw refused(`Cannot open the database: ${(err as Error).message}`);
  });
  try {
    // Said before a password is asked for: there is nothing to type when nothing will be done.
    const before = await platformState(database.db);
    if (hasActiveOperator(before)) throw refused(`Nothing done: ${describe(before)}. ${NEVER}.`);

    const password = file !== undefined ? await passwordFromFile(ctx, file) : await passwordFromPrompt(ctx, username);
    const problems = checkPassword(password, username);
    if (problems.length > 0) {
      throw refused(
        `The password does not follow the portal's password rule: ${problems.map((p) => PROBLEMS[p]).join('; ')}. ` +
          'Nothing was created',
      );
    }
    const done = await bootstrapPlatform(database.db, {
      tenantCode,
      tenantName,
      tenantNameEn,
      username,
      name,
      passwordHash: await hashPassword(password),
      ranBy: ranBy(),
    });
    switch (done.result) {
      case 'exists':
        throw refused(`Nothing done: ${describe(done.state)}. ${NEVER}.`);
      case 'codeTaken':
        throw refused(
          `Nothing done: a tenant "${tenantCode}" exists and is no platform tenant; choose another --tenant`,
        );
      case 'usernameTaken':
        throw refused(
          `Nothing done: the platform tenant "${done.tenantCode}" has a user "${username}" already, whose password ` +
            'the bootstrap does not change; choose another --user',
        );
      case 'noOperatorRole':
        throw refused(
          `Nothing done: no role of the platform tenant "${done.tenantCode}" holds system:manage, so there is no ` +
            'operator role to give',
        );
    }
    const address = `${config.publicUrl}${config.runtime.publicpath}login?tc=${encodeURIComponent(done.tenantCode)}`;
    const what =
      done.result === 'created'
        ? `Created the platform tenant "${done.tenantCode}" (${tenantName}) and its operator "${username}".`
        : `Added the operator "${username}" to the platform tenant "${done.tenantCode}", which had none who can sign in.`;
    io.stdout.write(
      `${what}\nThe password is temporary: sign in at ${address} as ${username} and choose your own ` +
        `(or: npm run admin -- login --server ${config.publicUrl} --tenant ${done.tenantCode} --user ${username}).\n`,
    );
    return EXIT.OK;
  } finally {
    await database.close();
  }
}
