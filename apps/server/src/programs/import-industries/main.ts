/**
 * `npm run import:industries -- FILE [--dry-run]`: replaces the industry tree with a CSV or JSON file
 * (formats in industries-file.ts and README "Reference data").
 *
 * The whole file is checked first; any problem is printed with its line and nothing is written
 * (exit code 1). Otherwise the table is replaced in one transaction and running servers are told to
 * reload it (they would anyway within a minute). `--dry-run` only checks.
 *
 * The database is the server's: DATABASE_URL, else the embedded PostgreSQL under DATA_DIR (run with
 * the same environment as the server). When a server is running on that embedded database, the
 * command connects to the running database; otherwise it starts the database, imports and stops it.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openCommandDatabase, type OpenedDatabase } from '../../db/open.js';
import { ConfigError, loadConfig } from '../../platform/config.js';
import { createInvalidationBus } from '../../platform/invalidation.js';
import { replaceIndustries } from '../../modules/catalog/catalog.repository.js';
import { countByLevel, describeProblem, formatOf, parseIndustriesFile } from '../../modules/catalog/industries-file.js';

const MAX_FILE_BYTES = 16 * 1024 * 1024;
const USAGE =
  'usage: npm run import:industries -- FILE [--dry-run]   (FILE: .csv with header code,name[,parent_code,level] or .json)';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function open(config: ReturnType<typeof loadConfig>): Promise<OpenedDatabase> {
  const verbose = process.env.LOG_LEVEL === 'debug';
  return openCommandDatabase(config, {
    say: (line) => process.stdout.write(`${line}\n`),
    log: {
      info: (m) => verbose && process.stderr.write(`${m}\n`),
      warn: (m) => process.stderr.write(`${m}\n`),
      debug: (m) => verbose && process.stderr.write(`${m}\n`),
    },
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const files = args.filter((a) => a !== '--dry-run');
  if (files.length !== 1 || files[0]!.startsWith('-')) fail(USAGE);
  // npm runs the script from the repository root; a relative FILE is where the command was typed.
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), files[0]!);

  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) fail(`${file}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`);
    text = readFileSync(file, 'utf8');
  } catch (err) {
    fail(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { rows, problems } = parseIndustriesFile(text, formatOf(file, text));
  if (problems.length > 0) {
    process.stderr.write(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing imported\n`);
    for (const p of problems) process.stderr.write(`  ${describeProblem(p)}\n`);
    process.exit(1);
  }
  const [sections, divisions, groups, classes] = countByLevel(rows);
  const summary = `${rows.length} industries: ${sections} sections (门类), ${divisions} divisions (大类), ${groups} groups (中类), ${classes} classes (小类)`;
  if (dryRun) {
    process.stdout.write(`${file}: no problems; would import ${summary}\n`);
    return;
  }

  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(`Configuration error: ${err.message}`);
    throw err;
  }
  const database = await open(config);
  try {
    await replaceIndustries(database.db, rows);
    // Servers on this database drop their cached tree at once (a `catalog` invalidation).
    const bus = createInvalidationBus(database.db.$client);
    await bus.publish({ kind: 'catalog' }).catch(() => undefined);
    await bus.close();
  } finally {
    await database.close();
  }
  process.stdout.write(`Imported ${summary}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => fail(`Import failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
);
