/**
 * The restore drill (ADR 029): back up, change, restore, and the data is as backed up:
 * every table row for row, every sequence, every uploaded file. Then what a restore refuses (a
 * newer schema, a database or FILES_DIR in use, a damaged file), the path of an older backup, and
 * the command end to end (`npm run build` first), once onto a new embedded database.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, MIGRATIONS_DIR } from '../../db/client.js';
import { isAlive } from '../../db/embedded.js';
import { ensureDatabase } from '../../db/open.js';
import { files, notices, users } from '../../db/schema.js';
import { seedDemo } from '../../db/demo/seed.js';
import { createTestContext, databaseUrl, DEMO_PASSWORD, freshDatabase, type TestContext } from '../../test/harness.js';
import { hashPassword } from '../../platform/passwords.js';
import { ArchiveError, readArchive, writeArchive, type ArchiveEntry } from './backup-archive.js';
import { createBackup, restoreBackup, verifyBackup, type BackupHeader } from './backup.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const CLI = join(ROOT, 'apps/server/dist/programs/backup/main.js');

let work: string;
let url: string;
let filesDir: string;
let ctx: TestContext | null = null;
/** The backup of the seeded database, and the state it was made of. */
let backup: string;
let backedUp: Record<string, string>;
let backedUpFiles: Record<string, string>;

/** Each table's rows (count and digest, in a fixed order) and each sequence's value. */
async function databaseState(dbUrl: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const state: Record<string, string> = {};
    const { rows: relations } = await client.query<{ schema: string; name: string; kind: string }>(
      `SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'S') AND n.nspname IN ('public', 'drizzle')`,
    );
    for (const r of relations) {
      const q = `"${r.schema}"."${r.name}"`;
      const sql =
        r.kind === 'S'
          ? `SELECT last_value::text || ' ' || is_called::text AS v FROM ${q}`
          : `SELECT count(*) || ' ' || md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS v FROM ${q} t`;
      state[`${r.schema}.${r.name}`] = (await client.query<{ v: string }>(sql)).rows[0]!.v;
    }
    return state;
  } finally {
    await client.end();
  }
}

/** The SHA-256 of each upload under `dir`. */
async function filesState(dir: string): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const name of await readdir(dir)) {
    state[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  }
  return state;
}

/** A new database with nothing in it, as `createdb` makes one. */
async function emptyDatabase(): Promise<string> {
  const name = `restore_${randomBytes(6).toString('hex')}`;
  await ensureDatabase(process.env.TEST_PG_ADMIN_URL!, name);
  return databaseUrl(name);
}

/** A copy of `file` with its entries changed by `edit` (the header parsed, the rest as bytes). */
async function rewrite(
  file: string,
  edit: (header: BackupHeader, entries: { name: string; data: Buffer }[]) => void,
): Promise<string> {
  const entries: { name: string; data: Buffer }[] = [];
  for await (const entry of readArchive(Readable.from([gunzipSync(await readFile(file))]))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    entries.push({ name: entry.name, data: Buffer.concat(chunks) });
  }
  const header = JSON.parse(entries[0]!.data.toString('utf8')) as BackupHeader;
  edit(header, entries);
  entries[0]!.data = Buffer.from(JSON.stringify(header));
  const out: Buffer[] = [];
  const list: ArchiveEntry[] = entries.map((e) => ({ name: e.name, size: e.data.length, body: e.data }));
  for await (const chunk of writeArchive(list)) out.push(chunk);
  const copy = join(work, `edited-${randomBytes(4).toString('hex')}.tar.gz`);
  await writeFile(copy, gzipSync(Buffer.concat(out)));
  return copy;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'portal-backup-'));
  filesDir = join(work, 'files');
  url = await freshDatabase('backup');
  // The demo notices' attachments, written under FILES_DIR as uploads are.
  const db = connect(url, 1);
  await seedDemo(db, { passwordHash: await hashPassword(DEMO_PASSWORD), filesDir });
  await db.$client.end();
  ctx = await createTestContext({ FILES_DIR: filesDir }, { databaseUrl: url });
  await ctx.login(); // a session and its audit rows
  backedUp = await databaseState(url);
  backedUpFiles = await filesState(filesDir);
  backup = join(work, 'portal.tar.gz');
  const done = await createBackup({ url, filesDir, out: backup });
  expect(done.files).toBe(2);
  expect(done.tables).toBe(Object.keys(backedUp).filter((k) => !k.endsWith('_seq')).length);
});

afterAll(async () => {
  await ctx?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('restore drill', () => {
  it('back up, change, restore: the data is as backed up, and ids go on after it', async () => {
    expect(Object.keys(backedUpFiles)).toHaveLength(2);
    const header = await verifyBackup(backup);
    expect(header.files.map((f) => f.id).sort()).toEqual(Object.keys(backedUpFiles).sort());

    // Change rows in several tables and the files: update, delete, insert; a file replaced, one added.
    const db = ctx!.db;
    await db.update(users).set({ nickname: 'changed after the backup' }).where(eq(users.username, 'member'));
    const [notice] = await db.select({ id: notices.id }).from(notices).limit(1);
    await db.delete(notices).where(eq(notices.id, notice!.id));
    const [someone] = await db.select({ id: users.id, tenantId: users.tenantId }).from(users).limit(1);
    const added = randomUUID();
    await writeFile(join(filesDir, added), 'added after the backup');
    await db.insert(files).values({
      id: added,
      tenantId: someone!.tenantId,
      ownerId: someone!.id,
      purpose: 'reply',
      fileName: 'late.txt',
      mediaType: 'text/plain',
      size: 22,
      sha256: 'x',
    });
    await writeFile(join(filesDir, Object.keys(backedUpFiles)[0]!), 'overwritten');
    await ctx!.login();
    expect(await databaseState(url)).not.toEqual(backedUp);

    await expect(restoreBackup({ url, filesDir, file: backup, force: false })).rejects.toThrow(
      /already holds a portal .*--force/,
    );
    await expect(restoreBackup({ url, filesDir, file: backup, force: true })).rejects.toThrow(
      /other connection\(s\) to the database are open/,
    );
    await ctx!.close();
    ctx = null;

    const done = await restoreBackup({ url, filesDir, file: backup, force: true });
    expect(done).toMatchObject({ files: 2, upgradedBy: 0, tables: header.tables.length });
    expect(await databaseState(url)).toEqual(backedUp);
    expect(await filesState(filesDir)).toEqual(backedUpFiles);

    // The restored portal works, and every identity and serial goes on after the rows it has.
    ctx = await createTestContext({ FILES_DIR: filesDir }, { databaseUrl: url });
    await ctx.login();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows: owned } = await client.query<{ seq: string; tbl: string; col: string }>(
        `SELECT s.oid::regclass::text AS seq, t.oid::regclass::text AS tbl, quote_ident(a.attname) AS col
           FROM pg_depend d
           JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
           JOIN pg_class t ON t.oid = d.refobjid
           JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
          WHERE d.deptype IN ('a', 'i')`,
      );
      expect(owned.length).toBeGreaterThan(20);
      for (const o of owned) {
        const { rows } = await client.query<{ ok: boolean }>(
          `SELECT nextval('${o.seq}') > coalesce((SELECT max(${o.col}) FROM ${o.tbl}), 0) AS ok`,
        );
        expect(rows[0]!.ok, `${o.seq} after max(${o.tbl}.${o.col})`).toBe(true);
      }
    } finally {
      await client.end();
    }
  });

  it('restores into an empty database and FILES_DIR, as on a new machine', async () => {
    const target = await emptyDatabase();
    const targetFiles = join(work, 'new-files');
    const done = await restoreBackup({ url: target, filesDir: targetFiles, file: backup, force: false });
    expect(done.rows).toBeGreaterThan(100);
    expect(await databaseState(target)).toEqual(backedUp);
    expect(await filesState(targetFiles)).toEqual(backedUpFiles);
  });

  it('restores a backup of an older schema, then applies the newer migrations', async () => {
    // A database at the migration before the latest, as an older portal left it.
    const older = await emptyDatabase();
    const folder = join(work, 'older-migrations');
    await cp(MIGRATIONS_DIR, folder, { recursive: true });
    const journalFile = join(folder, 'meta/_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: unknown[] };
    journal.entries.pop();
    await writeFile(journalFile, JSON.stringify(journal));
    const pool = new pg.Pool({ connectionString: older, max: 1 });
    await migrate(drizzle(pool), { migrationsFolder: folder });
    await pool.end();
    const file = join(work, 'older.tar.gz');
    await createBackup({ url: older, filesDir: join(work, 'no-files'), out: file });

    const target = await emptyDatabase();
    const done = await restoreBackup({ url: target, filesDir: join(work, 'older-files'), file, force: false });
    expect(done.upgradedBy).toBe(1);
    const state = await databaseState(target);
    expect(state['drizzle.__drizzle_migrations']).toMatch(new RegExp(`^${journal.entries.length + 1} `));
  });
  it('restores a backup an earlier portal wrote (fixtures/backup-format-1.tar.gz, made before tar-stream)', async () => {
    // Written by the portal's own tar writer: a migrated database with one tenant and one upload.
    const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/backup-format-1.tar.gz');
    const header = await verifyBackup(fixture);
    expect(header.files).toHaveLength(1);
    const target = await emptyDatabase();
    const targetFiles = join(work, 'fixture-files');
    const done = await restoreBackup({ url: target, filesDir: targetFiles, file: fixture, force: false });
    expect(done).toMatchObject({ createdAt: '2026-11-26T19:30:00.000Z', files: 1 });
    const upload = await readFile(join(targetFiles, header.files[0]!.id));
    expect(createHash('sha256').update(upload).digest('hex')).toBe(header.files[0]!.sha256);
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM tenants WHERE code = 'old'`);
      expect(rows).toEqual([{ name: '旧的园区' }]);
    } finally {
      await client.end();
    }
  });
});

describe('what a restore refuses', () => {
  let empty: string;
  beforeAll(async () => {
    empty = await emptyDatabase();
  });

  /** Nothing of the portal in `empty`: a refused restore changed nothing. */
  async function stillEmpty() {
    const client = new pg.Client({ connectionString: empty });
    await client.connect();
    const { rows } = await client.query(`SELECT 1 FROM pg_tables WHERE schemaname IN ('public', 'drizzle')`);
    await client.end();
    expect(rows).toHaveLength(0);
  }

  it('a backup from a newer schema', async () => {
    const file = await rewrite(backup, (header) => {
      header.migration = { ...header.migration, tag: '9999_from_the_future', when: header.migration.when + 1 };
    });
    await expect(restoreBackup({ url: empty, filesDir: join(work, 'x'), file, force: false })).rejects.toThrow(
      /made by a newer portal: its database is at migration 9999_from_the_future/,
    );
    await stillEmpty();
  });

  it('a newer backup format', async () => {
    const file = await rewrite(backup, (header) => {
      (header as { version: number }).version = 2;
    });
    await expect(restoreBackup({ url: empty, filesDir: join(work, 'x'), file, force: false })).rejects.toThrow(
      /backup format 2, made by a newer portal/,
    );
  });

  it('a table whose bytes changed, a file cut short, and a file that is no backup', async () => {
    const changed = await rewrite(backup, (_header, entries) => {
      const users = entries.find((e) => e.name === 'tables/public.users.copy')!;
      const at = users.data.indexOf('member');
      users.data[at] = 'M'.charCodeAt(0);
    });
    await expect(restoreBackup({ url: empty, filesDir: join(work, 'x'), file: changed, force: false })).rejects.toThrow(
      /is damaged: tables\/public\.users\.copy does not match its SHA-256 checksum/,
    );
    const bytes = await readFile(backup);
    const cut = join(work, 'cut.tar.gz');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(restoreBackup({ url: empty, filesDir: join(work, 'x'), file: cut, force: false })).rejects.toThrow(
      /is damaged or no portal backup/,
    );
    const other = join(work, 'other.tar.gz');
    await writeFile(other, gzipSync('just some text'));
    await expect(restoreBackup({ url: empty, filesDir: join(work, 'x'), file: other, force: false })).rejects.toThrow(
      /is damaged or no portal backup/,
    );
    await stillEmpty();
  });

  it('uploads already in FILES_DIR, unless --force', async () => {
    const busy = join(work, 'busy-files');
    await mkdir(busy);
    await writeFile(join(busy, randomUUID()), 'someone else’s upload');
    await expect(restoreBackup({ url: empty, filesDir: busy, file: backup, force: false })).rejects.toThrow(
      /already holds 1 uploaded file\(s\)/,
    );
    await stillEmpty();
  });
});

describe('the tar', () => {
  const entries = (): ArchiveEntry[] => [
    { name: 'backup.json', size: 2, body: Buffer.from('{}') },
    { name: 'files/a', size: 3000, body: Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(2000, 2)]) },
  ];
  const bytesOf = async (chunks: AsyncIterable<Buffer>) => {
    const out: Buffer[] = [];
    for await (const chunk of chunks) out.push(chunk);
    return Buffer.concat(out);
  };
  const names = async (tar: Buffer) => {
    const out: string[] = [];
    for await (const entry of readArchive(Readable.from([tar]))) out.push(entry.name); // bodies left unread
    return out;
  };

  it('skips what is left unread, and wants the end of the archive', async () => {
    const tar = await bytesOf(writeArchive(entries()));
    expect(await names(tar)).toEqual(['backup.json', 'files/a']);
    // Cut right after the first entry: no entry is damaged, but the archive has no end.
    await expect(names(tar.subarray(0, 1024))).rejects.toThrow(ArchiveError);
    await expect(names(tar.subarray(0, 1024))).rejects.toThrow('it ends early (the file is incomplete)');
    await expect(
      bytesOf(writeArchive([{ name: 'x', size: 10, body: Readable.from([Buffer.alloc(4)]) }])),
    ).rejects.toThrow('x changed while it was written to the backup');
  });
});

describe('npm run backup / restore', () => {
  function run(args: string[], env: Record<string, string>) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 120_000 },
        (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  it('backs up the database at DATABASE_URL and restores it onto a new embedded database', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run "npm run build" before this test`);
    expect((await run([], {})).code).toBe(2);
    expect((await run(['restore'], {})).code).toBe(2);
    const missing = await run(['restore', join(work, 'missing.tar.gz')], { DATABASE_URL: url });
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^Restore failed: .*missing\.tar\.gz: ENOENT[^\n]*\n$/);

    const file = join(work, 'cli.tar.gz');
    const made = await run(['backup', '--out', file], { DATABASE_URL: url, FILES_DIR: filesDir });
    expect(made.stderr).toBe('');
    expect(made).toMatchObject({ code: 0 });
    expect(made.stdout).toMatch(/^Backed up \d+ tables \(\d+ rows, migration \w+\) and 2 files to /);

    // As root the embedded database runs as `postgres`, which must reach DATA_DIR: not under /tmp's 0700 dirs.
    await mkdir(join(ROOT, '.test-data'), { recursive: true });
    const dataDir = await mkdtemp(join(ROOT, '.test-data', 'restore-'));
    try {
      const restored = await run(['restore', file], { DATA_DIR: dataDir });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/^Restored .* files in [\d.]+ s\n$/);
      expect(Object.keys(await filesState(join(dataDir, 'files'))).sort()).toEqual(Object.keys(backedUpFiles).sort());

      // The command stopped the database it started.
      const pid = Number.parseInt((await readFile(join(dataDir, 'pg/postmaster.pid'), 'utf8').catch(() => '0')) || '0');
      expect(pid > 0 && isAlive(pid)).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
