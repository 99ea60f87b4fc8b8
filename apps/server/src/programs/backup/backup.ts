/**
 * Backups and restores of a whole portal (ADR 029): the database as one consistent snapshot and the
 * uploaded files it names, in one gzip-compressed tar. Made by the portal itself over the `pg`
 * driver, so no pg_dump of the server's version is needed.
 *
 * The file, in this order:
 * - `backup.json`: the header (`BackupHeader`): format version, when, the PostgreSQL version, the
 *   last applied migration, and every table (columns, rows, bytes, SHA-256), sequence (its value)
 *   and file (bytes, SHA-256) that follows;
 * - `tables/<schema>.<table>.copy`: each table in PostgreSQL's COPY text format, parents before the
 *   tables whose foreign keys point at them; drizzle's migrations table among them;
 * - `files/<id>`: each uploaded file the `files` table names, as stored under FILES_DIR.
 *
 * A restore checks the whole file first and changes nothing unless it is intact. It then brings the
 * database to the backup's migration with the portal's own migration files, loads every table and
 * sets every sequence in one transaction, puts the files in place, and finally applies the
 * migrations the backup is older than, as a server start would.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { connect, migrateDb, MIGRATIONS_DIR } from '../../db/client.js';
import { transactionLockOn } from '../../db/locks.js';
import { files as filesTable } from '../../db/schema.js';
import { ArchiveError, readArchive, writeArchive, type ArchiveEntry, type ReadEntry } from './backup-archive.js';

/** A backup or restore that cannot be done, with a sentence for the operator. */
export class BackupError extends Error {}

export const BACKUP_FORMAT = 'portal-backup';
export const BACKUP_VERSION = 1;
const HEADER_ENTRY = 'backup.json';
const MAX_HEADER_BYTES = 64 * 1024 * 1024;
/** drizzle's migrations table (drizzle-orm's pg migrator: schema `drizzle`, this layout). */
const MIGRATIONS_SCHEMA = 'drizzle';
const MIGRATIONS_TABLE = '__drizzle_migrations';
const UPLOAD_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' });
const Count = Type.Integer({ minimum: 0 });
const BackupHeaderSchema = Type.Object({
  format: Type.Literal(BACKUP_FORMAT),
  version: Type.Literal(BACKUP_VERSION),
  createdAt: Type.String(),
  /** The server's `server_version`, for the record. */
  postgres: Type.String(),
  /** The schema the portal's tables were in (`public` unless the search path said otherwise). */
  schema: Type.String({ minLength: 1 }),
  /** The last migration applied, by drizzle's journal time (`when`), and how many were. */
  migration: Type.Object({
    tag: Type.Union([Type.String(), Type.Null()]),
    when: Type.Integer(),
    hash: Type.String(),
    applied: Count,
  }),
  tables: Type.Array(
    Type.Object({
      schema: Type.String({ minLength: 1 }),
      name: Type.String({ minLength: 1 }),
      columns: Type.Array(Type.String()),
      rows: Count,
      bytes: Count,
      sha256: Sha256,
    }),
  ),
  sequences: Type.Array(
    Type.Object({
      schema: Type.String({ minLength: 1 }),
      name: Type.String({ minLength: 1 }),
      lastValue: Type.String({ pattern: '^-?[0-9]+$' }),
      isCalled: Type.Boolean(),
    }),
  ),
  files: Type.Array(Type.Object({ id: Type.String({ pattern: UPLOAD_NAME.source }), bytes: Count, sha256: Sha256 })),
  /** Files the `files` table names that were not under FILES_DIR when the backup was made. */
  missingFiles: Type.Array(Type.String()),
});
export type BackupHeader = Static<typeof BackupHeaderSchema>;
type TableEntry = BackupHeader['tables'][number];
type SequenceEntry = BackupHeader['sequences'][number];

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`;
const tableEntryName = (t: { schema: string; name: string }) => `tables/${t.schema}.${t.name}.copy`;
const fileEntryName = (id: string) => `files/${id}`;
const oneLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();

interface CodeMigration {
  tag: string;
  when: number;
  sql: string[];
}

/** The portal's migrations, as drizzle's migrator reads them, with their journal tags. */
function codeMigrations(): CodeMigration[] {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m, i) => ({
    tag: journal.entries[i]!.tag,
    when: m.folderMillis,
    sql: m.sql,
  }));
}

/** SHA-256, bytes and newlines (COPY text: one a row) of what passes. */
class Measure {
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;
  lines = 0;

  update(chunk: Buffer): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.lines++;
  }

  /** A pass-through stream that measures. */
  tap(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.update(chunk);
        done(null, chunk);
      },
    });
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

async function measure(source: AsyncIterable<Buffer>): Promise<Measure> {
  const m = new Measure();
  for await (const chunk of source) m.update(chunk);
  return m;
}

/** Session settings that make COPY's text the same whatever the server's or the role's defaults. */
async function prepareSession(client: pg.Client): Promise<void> {
  await client.query(
    "SET datestyle = 'ISO, YMD'; SET intervalstyle = 'postgres'; SET extra_float_digits = 3; SET timezone = 'UTC'; " +
      'SET statement_timeout = 0; SET lock_timeout = 0; SET idle_in_transaction_session_timeout = 0',
  );
}

async function openClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'portal-backup' });
  client.on('error', () => {
    // A lost connection fails the query in flight, which reports it.
  });
  try {
    await client.connect();
  } catch (err) {
    throw new BackupError(`cannot connect to the database: ${oneLine(err)}`);
  }
  await prepareSession(client);
  return client;
}

async function portalSchema(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  const schema = rows[0]?.schema;
  if (!schema) throw new BackupError('the database has no schema on its search path');
  if (schema === MIGRATIONS_SCHEMA) throw new BackupError(`the search path starts with "${MIGRATIONS_SCHEMA}"`);
  return schema;
}

/** Not a member of an extension (btree_gist's functions and types stay where they are). */
const NOT_EXTENSION = (catalog: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;

interface TableInfo {
  oid: string;
  schema: string;
  name: string;
  columns: string[];
}

/** The tables a backup holds: every plain table of the portal's schema, and drizzle's migrations. */
async function listTables(client: pg.Client, schema: string): Promise<TableInfo[]> {
  const { rows } = await client.query<TableInfo>(
    `SELECT c.oid::text AS oid, n.nspname::text AS schema, c.relname::text AS name,
            coalesce(array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attname IS NOT NULL), '{}') AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relkind = 'r'
        AND (n.nspname = $1 OR (n.nspname = $2 AND c.relname = $3))
        AND ${NOT_EXTENSION('pg_class', 'c.oid')}
      GROUP BY c.oid, n.nspname, c.relname
      ORDER BY n.nspname, c.relname`,
    [schema, MIGRATIONS_SCHEMA, MIGRATIONS_TABLE],
  );
  return rows;
}

/** Tables ordered so that each comes after the tables its foreign keys point at. */
async function dependencyOrder(client: pg.Client, tables: TableInfo[]): Promise<TableInfo[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT conrelid::text AS child, confrelid::text AS parent FROM pg_constraint WHERE contype = 'f'`,
  );
  const byOid = new Map(tables.map((t) => [t.oid, t]));
  const parents = new Map(tables.map((t) => [t.oid, new Set<string>()]));
  for (const { child, parent } of rows) {
    if (child !== parent && byOid.has(child) && byOid.has(parent)) parents.get(child)!.add(parent);
  }
  const ordered: TableInfo[] = [];
  const done = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !done.has(t.oid) && [...parents.get(t.oid)!].every((p) => done.has(p)));
    if (ready.length === 0) {
      const left = tables.filter((t) => !done.has(t.oid)).map((t) => t.name);
      throw new BackupError(`the foreign keys between ${left.join(', ')} form a cycle: no order loads them`);
    }
    for (const t of ready) {
      ordered.push(t);
      done.add(t.oid);
    }
  }
  return ordered;
}

/** Every sequence of the portal's schema and drizzle's (identity columns' included). */
async function listSequences(client: pg.Client, schema: string): Promise<{ schema: string; name: string }[]> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `SELECT n.nspname::text AS schema, c.relname::text AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'S' AND n.nspname IN ($1, $2) AND ${NOT_EXTENSION('pg_class', 'c.oid')}
      ORDER BY n.nspname, c.relname`,
    [schema, MIGRATIONS_SCHEMA],
  );
  return rows;
}

export interface BackupOptions {
  /** The database: the server's DATABASE_URL, or the embedded database's address. */
  url: string;
  /** FILES_DIR: where the uploads the `files` table names are. */
  filesDir: string;
  /** The file to write; it must not exist. */
  out: string;
  warn?: (message: string) => void;
  now?: () => Date;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  missingFiles: number;
  migration: string;
}

/** Writes a backup of the database at `url` and the files under `filesDir` to `out`. */
export async function createBackup(opts: BackupOptions): Promise<BackupSummary> {
  const warn = opts.warn ?? (() => undefined);
  const createdAt = (opts.now ?? (() => new Date()))();
  if (existsSync(opts.out)) throw new BackupError(`${opts.out} exists already`);
  await mkdir(dirname(opts.out), { recursive: true, mode: 0o700 });
  // Table data is spooled next to the backup (the tar needs each size first), then removed.
  const spool = await mkdtemp(join(dirname(opts.out), `.${basename(opts.out)}-`));
  const partial = join(spool, 'backup.partial');
  try {
    const snapshot = await readSnapshot(opts.url, spool);
    const files: BackupHeader['files'] = [];
    const missingFiles: string[] = [];
    for (const id of snapshot.fileIds) {
      try {
        const m = await measure(createReadStream(join(opts.filesDir, id)));
        files.push({ id, bytes: m.bytes, sha256: m.sha256() });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        missingFiles.push(id);
      }
    }
    if (missingFiles.length > 0) {
      warn(
        `${missingFiles.length} uploaded file(s) named in the database are not in ${opts.filesDir}: ` +
          `${missingFiles.slice(0, 5).join(', ')}${missingFiles.length > 5 ? ', …' : ''} (backed up without them)`,
      );
    }
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: createdAt.toISOString(),
      postgres: snapshot.postgres,
      schema: snapshot.schema,
      migration: snapshot.migration,
      tables: snapshot.tables.map((t) => t.entry),
      sequences: snapshot.sequences,
      files,
      missingFiles,
    };
    const headerBytes = Buffer.from(JSON.stringify(header, null, 2) + '\n', 'utf8');
    async function* entries(): AsyncGenerator<ArchiveEntry> {
      yield { name: HEADER_ENTRY, size: headerBytes.length, body: headerBytes };
      for (const t of snapshot.tables) {
        yield { name: tableEntryName(t.entry), size: t.entry.bytes, body: createReadStream(t.path) };
      }
      for (const f of files) {
        yield { name: fileEntryName(f.id), size: f.bytes, body: unchanged(join(opts.filesDir, f.id), f.sha256) };
      }
    }
    await pipeline(
      Readable.from(writeArchive(entries(), createdAt)),
      createGzip(),
      createWriteStream(partial, { mode: 0o600 }),
    );
    await rename(partial, opts.out);
    return {
      file: opts.out,
      bytes: (await stat(opts.out)).size,
      tables: header.tables.length,
      rows: header.tables.reduce((n, t) => n + t.rows, 0),
      files: files.length,
      missingFiles: missingFiles.length,
      migration: header.migration.tag ?? String(header.migration.when),
    };
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
}

/** The bytes of an upload, which must still have the SHA-256 it had when the header was made. */
async function* unchanged(path: string, sha256: string): AsyncGenerator<Buffer> {
  const m = new Measure();
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    m.update(chunk);
    yield chunk;
  }
  if (m.sha256() !== sha256) throw new BackupError(`${path} changed while it was backed up`);
}

interface Snapshot {
  postgres: string;
  schema: string;
  migration: BackupHeader['migration'];
  tables: { entry: TableEntry; path: string }[];
  sequences: SequenceEntry[];
  fileIds: string[];
}

/** Reads everything of the database in one read-only snapshot, the tables spooled into `dir`. */
async function readSnapshot(url: string, dir: string): Promise<Snapshot> {
  const client = await openClient(url);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const schema = await portalSchema(client);
    const found = await listTables(client, schema);
    const last = found.some((t) => t.schema === MIGRATIONS_SCHEMA && t.name === MIGRATIONS_TABLE)
      ? (
          await client.query<{ hash: string; when: string; applied: number }>(
            `SELECT hash, created_at::text AS when, count(*) OVER ()::int AS applied
               FROM ${qualified(MIGRATIONS_SCHEMA, MIGRATIONS_TABLE)} ORDER BY created_at DESC LIMIT 1`,
          )
        ).rows[0]
      : undefined;
    if (!last)
      throw new BackupError('the database holds no portal (no migration was ever applied): nothing to back up');
    const when = Number(last.when);
    const tag = codeMigrations().find((m) => m.when === when)?.tag ?? null;
    const migration = { tag, when, hash: last.hash, applied: last.applied };
    const tables: Snapshot['tables'] = [];
    for (const t of await dependencyOrder(client, found)) {
      const path = join(dir, `${tables.length}.copy`);
      const m = new Measure();
      const copy = client.query(
        copyTo(`COPY ${qualified(t.schema, t.name)} (${t.columns.map(ident).join(', ')}) TO STDOUT`),
      );
      await pipeline(copy, m.tap(), createWriteStream(path));
      const entry = {
        schema: t.schema,
        name: t.name,
        columns: t.columns,
        rows: m.lines,
        bytes: m.bytes,
        sha256: m.sha256(),
      };
      tables.push({ entry, path });
    }
    const sequences: SequenceEntry[] = [];
    for (const s of await listSequences(client, schema)) {
      const { rows } = await client.query<{ value: string; called: boolean }>(
        `SELECT last_value::text AS value, is_called AS called FROM ${qualified(s.schema, s.name)}`,
      );
      sequences.push({ ...s, lastValue: rows[0]!.value, isCalled: rows[0]!.called });
    }
    // The uploads this snapshot names: later uploads are not in it, and files are never changed.
    const fileIds = found.some((t) => t.schema === schema && t.name === 'files')
      ? (await drizzle(client).select({ id: filesTable.id }).from(filesTable).orderBy(filesTable.id)).map((r) => r.id)
      : [];
    const { rows: version } = await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version']);
    await client.query('COMMIT');
    return { postgres: version[0]!.v, schema, migration, tables, sequences, fileIds };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface RestoreOptions {
  url: string;
  filesDir: string;
  file: string;
  /** Replace a database (and FILES_DIR) that already holds a portal. */
  force: boolean;
  warn?: (message: string) => void;
}

export interface RestoreSummary {
  createdAt: string;
  migration: string;
  tables: number;
  rows: number;
  files: number;
  /** Migrations newer than the backup applied after the data was loaded. */
  upgradedBy: number;
}

/** Opens the entries of a backup file; the stream's errors (gzip, reading) come out of the iteration. */
function openArchive(file: string): AsyncGenerator<ReadEntry> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on('error', (err) => gunzip.destroy(err));
  return readArchive(source.pipe(gunzip));
}

/** What a damaged file, a file cut short, or one that is no backup makes of an error. */
function damaged(file: string, err: unknown): Error {
  if (err instanceof BackupError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') return new BackupError(`${file}: ${oneLine(err)}`);
  if (err instanceof ArchiveError || (typeof code === 'string' && code.startsWith('Z_'))) {
    return new BackupError(`${file} is damaged or no portal backup: ${oneLine(err)}`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

async function readHeader(file: string, entry: ReadEntry | undefined): Promise<BackupHeader> {
  if (!entry || entry.name !== HEADER_ENTRY || entry.size > MAX_HEADER_BYTES) {
    throw new BackupError(`${file} is no portal backup (it does not begin with ${HEADER_ENTRY})`);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of entry.body) chunks.push(chunk);
  let header: unknown;
  try {
    header = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BackupError(`${file} is damaged: its ${HEADER_ENTRY} is no JSON`);
  }
  const h = header as { format?: unknown; version?: unknown };
  if (h.format !== BACKUP_FORMAT) throw new BackupError(`${file} is no portal backup`);
  if (typeof h.version === 'number' && h.version > BACKUP_VERSION) {
    throw new BackupError(
      `${file} has backup format ${h.version}, made by a newer portal; this one reads format ${BACKUP_VERSION}`,
    );
  }
  if (!Value.Check(BackupHeaderSchema, header))
    throw new BackupError(`${file} is damaged: its ${HEADER_ENTRY} is invalid`);
  return header;
}

/** The entries that must follow the header, in order. */
function expectedEntries(header: BackupHeader): { name: string; bytes: number; sha256: string; rows?: number }[] {
  return [
    ...header.tables.map((t) => ({ name: tableEntryName(t), bytes: t.bytes, sha256: t.sha256, rows: t.rows })),
    ...header.files.map((f) => ({ name: fileEntryName(f.id), bytes: f.bytes, sha256: f.sha256 })),
  ];
}

/** The next entry, which must be `name`. */
async function nextEntry(file: string, entries: AsyncGenerator<ReadEntry>, name: string): Promise<ReadEntry> {
  const next = await entries.next();
  if (next.done || next.value.name !== name) throw new BackupError(`${file} is damaged: ${name} is missing`);
  return next.value;
}

/** The header of a backup after checking every byte of the file against it. */
export async function verifyBackup(file: string): Promise<BackupHeader> {
  const entries = openArchive(file);
  try {
    const header = await readHeader(file, (await entries.next()).value || undefined);
    for (const want of expectedEntries(header)) {
      const m = await measure((await nextEntry(file, entries, want.name)).body);
      if (m.bytes !== want.bytes || m.sha256() !== want.sha256 || (want.rows !== undefined && m.lines !== want.rows)) {
        throw new BackupError(`${file} is damaged: ${want.name} does not match its SHA-256 checksum`);
      }
    }
    const extra = await entries.next();
    if (!extra.done)
      throw new BackupError(`${file} is damaged: it holds ${extra.value.name}, which its header does not name`);
    return header;
  } catch (err) {
    throw damaged(file, err);
  } finally {
    await entries.return(undefined).catch(() => undefined);
  }
}

/** The migrations to replay before loading the backup, and those to apply after; or a refusal. */
function migrationPlan(file: string, header: BackupHeader): { replay: CodeMigration[]; newer: number } {
  const code = codeMigrations();
  const latest = code.at(-1)!;
  const theirs = header.migration.tag ?? `of ${new Date(header.migration.when).toISOString()}`;
  if (header.migration.when > latest.when) {
    throw new BackupError(
      `${file} was made by a newer portal: its database is at migration ${theirs}, this portal's latest is ` +
        `${latest.tag}; restore it with the portal version that made it, or a later one`,
    );
  }
  const at = code.findIndex((m) => m.when === header.migration.when);
  if (at < 0) throw new BackupError(`${file} is at migration ${theirs}, which is none of this portal's migrations`);
  return { replay: code.slice(0, at + 1), newer: code.length - at - 1 };
}

/** Names of upload files under `dir` (generated UUIDs), none when it does not exist. */
async function uploadNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => UPLOAD_NAME.test(n));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The portal's objects in the database: tables, views, sequences, types, routines; drizzle's schema. */
async function portalObjects(client: pg.Client, schema: string) {
  const { rows: relations } = await client.query<{ kind: string; name: string }>(
    `SELECT c.relkind::text AS kind, c.relname::text AS name FROM pg_class c
      WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = $1)
        AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND ${NOT_EXTENSION('pg_class', 'c.oid')}`,
    [schema],
  );
  const { rows: types } = await client.query<{ name: string }>(
    `SELECT t.typname::text AS name FROM pg_type t
      WHERE t.typnamespace = (SELECT oid FROM pg_namespace WHERE nspname = $1)
        AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c'))
        AND ${NOT_EXTENSION('pg_type', 't.oid')}`,
    [schema],
  );
  const { rows: routines } = await client.query<{ signature: string }>(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
      WHERE p.pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = $1) AND p.prokind IN ('f', 'p')
        AND ${NOT_EXTENSION('pg_proc', 'p.oid')}`,
    [schema],
  );
  const { rows: drizzleSchema } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
    MIGRATIONS_SCHEMA,
  ]);
  return { relations, types, routines, migrationsSchema: drizzleSchema.length > 0 };
}

/** Drops every object of the portal (extensions stay, with what they own). */
async function dropPortal(client: pg.Client, schema: string): Promise<void> {
  const objects = await portalObjects(client, schema);
  const kinds: [string, string][] = [
    ['v', 'VIEW'],
    ['m', 'MATERIALIZED VIEW'],
    ['f', 'FOREIGN TABLE'],
    ['r', 'TABLE'],
    ['p', 'TABLE'],
    ['S', 'SEQUENCE'],
  ];
  for (const [kind, keyword] of kinds) {
    const names = objects.relations.filter((r) => r.kind === kind).map((r) => qualified(schema, r.name));
    if (names.length > 0) await client.query(`DROP ${keyword} IF EXISTS ${names.join(', ')} CASCADE`);
  }
  const types = objects.types.map((t) => qualified(schema, t.name));
  if (types.length > 0) await client.query(`DROP TYPE IF EXISTS ${types.join(', ')} CASCADE`);
  for (const r of objects.routines) await client.query(`DROP ROUTINE IF EXISTS ${r.signature} CASCADE`);
  await client.query(`DROP SCHEMA IF EXISTS ${ident(MIGRATIONS_SCHEMA)} CASCADE`);
}

/** Refuses unless the database (after the replay) has exactly the backup's tables, columns and sequences. */
async function checkSchemaMatches(client: pg.Client, schema: string, header: BackupHeader, migration: string) {
  const local = (s: string) => (s === header.schema ? schema : s);
  const key = (s: string, n: string) => `${s}.${n}`;
  const tables = new Map((await listTables(client, schema)).map((t) => [key(t.schema, t.name), t.columns]));
  const sequences = new Set((await listSequences(client, schema)).map((s) => key(s.schema, s.name)));
  const problems: string[] = [];
  for (const t of header.tables) {
    const columns = tables.get(key(local(t.schema), t.name));
    tables.delete(key(local(t.schema), t.name));
    if (!columns) problems.push(`table ${t.name} is not in it`);
    else if ([...columns].sort().join() !== [...t.columns].sort().join())
      problems.push(`table ${t.name} has other columns`);
  }
  for (const name of tables.keys()) problems.push(`table ${name} is not in the backup`);
  for (const s of header.sequences) {
    if (!sequences.delete(key(local(s.schema), s.name))) problems.push(`sequence ${s.name} is not in it`);
  }
  for (const name of sequences) problems.push(`sequence ${name} is not in the backup`);
  if (problems.length > 0) {
    throw new BackupError(
      `the backup does not match this portal's schema at migration ${migration}: ${problems.slice(0, 5).join('; ')}`,
    );
  }
}

/**
 * Restores a backup into the database at `url` and `filesDir`. The file is checked whole first.
 * The database must hold no portal, and FILES_DIR no uploads, unless `force`: then both are
 * replaced. Nothing else may be connected to the database (stop the servers first).
 */
export async function restoreBackup(opts: RestoreOptions): Promise<RestoreSummary> {
  const warn = opts.warn ?? (() => undefined);
  const header = await verifyBackup(opts.file);
  const plan = migrationPlan(opts.file, header);
  const migration = plan.replay.at(-1)!.tag;
  const client = await openClient(opts.url);
  const staged: string[] = [];
  let committed = false;
  try {
    const schema = await portalSchema(client);
    await client.query('BEGIN');
    // The lock `migrateDb` takes: a server starting meanwhile waits for the restore to finish.
    await transactionLockOn(client, 'migrations');
    const existing = await portalObjects(client, schema);
    const uploads = await uploadNames(opts.filesDir);
    const occupied = existing.relations.length + existing.types.length + existing.routines.length;
    if (!opts.force && (occupied > 0 || existing.migrationsSchema)) {
      throw new BackupError(
        `the database already holds a portal (${existing.relations.filter((r) => r.kind === 'r').length} tables): ` +
          'restore into an empty database, or add --force to replace everything in it',
      );
    }
    if (!opts.force && uploads.length > 0) {
      throw new BackupError(
        `${opts.filesDir} already holds ${uploads.length} uploaded file(s): restore into an empty FILES_DIR, or add --force to replace them`,
      );
    }
    const { rows: others } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    if (others[0]!.n > 0) {
      throw new BackupError(
        `${others[0]!.n} other connection(s) to the database are open (a running portal server?): stop every server, then restore`,
      );
    }
    if (opts.force) await dropPortal(client, schema);

    // The schema the backup was made on, by the portal's own migration files (drizzle's table too).
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(MIGRATIONS_SCHEMA)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${qualified(MIGRATIONS_SCHEMA, MIGRATIONS_TABLE)} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    for (const m of plan.replay) for (const statement of m.sql) await client.query(statement);
    await checkSchemaMatches(client, schema, header, migration);
    const target = (t: TableEntry) => qualified(t.schema === header.schema ? schema : t.schema, t.name);
    // Migrations may have written rows (defaults, conversions): the backup's rows replace them.
    await client.query(`TRUNCATE ${header.tables.map(target).join(', ')}`);

    const entries = openArchive(opts.file);
    try {
      await readHeader(opts.file, (await entries.next()).value || undefined);
      for (const t of header.tables) {
        const entry = await nextEntry(opts.file, entries, tableEntryName(t));
        const m = new Measure();
        const copy = client.query(copyFrom(`COPY ${target(t)} (${t.columns.map(ident).join(', ')}) FROM STDIN`));
        await pipeline(entry.body, m.tap(), copy);
        if (m.sha256() !== t.sha256 || copy.rowCount !== t.rows) {
          throw new BackupError(`${opts.file} changed while it was restored (${entry.name})`);
        }
      }
      for (const s of header.sequences) {
        await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
          qualified(s.schema === header.schema ? schema : s.schema, s.name),
          s.lastValue,
          s.isCalled,
        ]);
      }
      await mkdir(opts.filesDir, { recursive: true });
      for (const f of header.files) {
        const entry = await nextEntry(opts.file, entries, fileEntryName(f.id));
        const temp = join(opts.filesDir, `.restore-${f.id}`);
        staged.push(temp);
        const m = new Measure();
        await pipeline(entry.body, m.tap(), createWriteStream(temp));
        if (m.sha256() !== f.sha256)
          throw new BackupError(`${opts.file} changed while it was restored (${entry.name})`);
      }
    } catch (err) {
      throw damaged(opts.file, err);
    } finally {
      await entries.return(undefined).catch(() => undefined);
    }
    await client.query('COMMIT');
    committed = true;
  } finally {
    await client.end().catch(() => undefined);
    if (!committed) await Promise.all(staged.map((p) => rm(p, { force: true })));
  }

  // The database is the backup's now; so are the files, each renamed over in one step.
  for (const f of header.files) await rename(join(opts.filesDir, `.restore-${f.id}`), join(opts.filesDir, f.id));
  if (opts.force) {
    const keep = new Set(header.files.map((f) => f.id));
    for (const name of await uploadNames(opts.filesDir)) {
      if (!keep.has(name)) await rm(join(opts.filesDir, name), { force: true });
    }
  }
  if (header.missingFiles.length > 0) {
    warn(`${header.missingFiles.length} uploaded file(s) were already missing when the backup was made`);
  }
  if (plan.newer > 0) {
    const db = connect(opts.url, 2); // migrateDb holds one connection for its lock
    try {
      await migrateDb(db);
    } catch (err) {
      throw new BackupError(
        `the backup was restored, but applying the ${plan.newer} newer migration(s) failed (a server start tries again): ${oneLine(err)}`,
      );
    } finally {
      await db.$client.end().catch(() => undefined);
    }
  }
  return {
    createdAt: header.createdAt,
    migration: header.migration.tag ?? migration,
    tables: header.tables.length,
    rows: header.tables.reduce((n, t) => n + t.rows, 0),
    files: header.files.length,
    upgradedBy: plan.newer,
  };
}
