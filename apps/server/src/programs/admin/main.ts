/**
 * `npm run admin -- <command> …` (ADR 031): the operators' API from the command line, modelled on
 * Keycloak's kcadm. `main` takes the arguments and its input and outputs and returns the exit code
 * (0 done, 1 refused by the server, 2 usage, 3 not logged in, 4 unreachable), so tests run it in
 * process; run as a program (apps/server/dist/programs/admin/main.js) it uses the process's own.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, EXIT, flag, parseCommand, str, usageError, type OptionSpec } from './args.js';
import * as commands from './commands.js';
import type { CliIo, Ctx } from './commands.js';
import { configPath } from './config.js';
import { HELP } from './help.js';
import { Prompter } from './prompt.js';

export type { CliIo } from './commands.js';
export { EXIT } from './args.js';

interface Command {
  options: OptionSpec;
  run: (ctx: Ctx) => Promise<number>;
}

const body = {
  set: { type: 'string', short: 's', multiple: true },
  file: { type: 'string', short: 'f' },
} as const satisfies OptionSpec;
const who = {
  username: { type: 'string' },
  userid: { type: 'string' },
} as const satisfies OptionSpec;
const roles = {
  ...who,
  rolename: { type: 'string', multiple: true },
  roleid: { type: 'string', multiple: true },
} as const satisfies OptionSpec;

const COMMANDS: Record<string, Command> = {
  login: {
    options: {
      server: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      captcha: { type: 'string' },
      role: { type: 'string' },
      'public-path': { type: 'string' },
      'new-password': { type: 'string' },
      otp: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-file': { type: 'string' },
    },
    run: commands.login,
  },
  logout: { options: {}, run: commands.logout },
  get: {
    options: {
      query: { type: 'string', short: 'q', multiple: true },
      fields: { type: 'string' },
      format: { type: 'string' },
      all: { type: 'boolean' },
    },
    run: commands.get,
  },
  create: { options: body, run: commands.create },
  update: { options: { ...body, 'no-merge': { type: 'boolean' } }, run: commands.update },
  delete: { options: {}, run: commands.remove },
  'set-password': {
    options: { ...who, 'new-password': { type: 'string' }, permanent: { type: 'boolean' } },
    run: commands.setPassword,
  },
  'add-roles': { options: roles, run: commands.addRoles },
  'remove-roles': { options: roles, run: commands.removeRoles },
  'review-enterprise': {
    options: {
      name: { type: 'string' },
      id: { type: 'string' },
      pass: { type: 'boolean' },
      reject: { type: 'boolean' },
      reason: { type: 'string' },
    },
    run: commands.reviewEnterprise,
  },
  'export-menus': { options: { output: { type: 'string', short: 'o' } }, run: commands.exportMenus },
  'import-menus': { options: { file: { type: 'string', short: 'f' } }, run: commands.importMenus },
  // The first run works on the database, not the API: its code (and the database driver) loads only here.
  bootstrap: {
    options: {
      user: { type: 'string' },
      name: { type: 'string' },
      'password-file': { type: 'string' },
      'tenant-name': { type: 'string' },
      'tenant-name-en': { type: 'string' },
    },
    run: async (ctx) => (await import('./bootstrap.js')).bootstrap(ctx),
  },
};

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** Runs one command line; the exit code. Whatever `io` leaves out is the process's. */
export async function main(argv: string[], partial: Partial<CliIo> = {}): Promise<number> {
  const env = partial.env ?? process.env;
  const io: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env,
    // npm runs scripts in the package's directory; INIT_CWD is where `npm run` was typed.
    cwd: env.INIT_CWD ?? process.cwd(),
    ...partial,
  };
  const prompter = new Prompter(io.stdin, io.stderr);
  const [name, ...rest] = argv;
  try {
    if (name === undefined) {
      io.stderr.write(`${HELP.main}\n`);
      return EXIT.USAGE;
    }
    if (name === 'help' || name === '--help' || name === '-h') {
      const topic = name === 'help' ? rest[0] : undefined;
      if (topic !== undefined && !Object.hasOwn(COMMANDS, topic)) throw usageError(`unknown command '${topic}'`);
      io.stdout.write(`${HELP[topic ?? 'main']}\n`);
      return EXIT.OK;
    }
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!command) throw usageError(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}`);
    const { values, positionals } = parseCommand(rest, command.options);
    if (flag(values, 'help')) {
      io.stdout.write(`${HELP[name]}\n`);
      return EXIT.OK;
    }
    const file = configPath(str(values, 'config'), io);
    return await command.run({ io, values, positionals, file, prompter });
  } catch (err) {
    if (err instanceof CliError) {
      const hint =
        err.exitCode === EXIT.USAGE && name && Object.hasOwn(COMMANDS, name)
          ? ` (see: npm run admin -- ${name} --help)`
          : err.exitCode === EXIT.USAGE && name
            ? ' (see: npm run admin -- --help)'
            : '';
      io.stderr.write(`${oneLine(err.message)}${hint}\n`);
      return err.exitCode;
    }
    io.stderr.write(`Unexpected error: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return EXIT.REFUSED;
  } finally {
    prompter.close();
  }
}

/** Whether this file is the program node was started with (not a module a test imported). */
function isEntry(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  const code = await main(process.argv.slice(2));
  process.exitCode = code;
  // Once the output is out, the exit code is said outright: the embedded database's module, which the
  // bootstrap loads, ends a process that runs out of work with 0 whatever exitCode says.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
