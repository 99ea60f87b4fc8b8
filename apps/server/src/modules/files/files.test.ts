/**
 * What one user may put on the disk, against the real server and database: uploads and their bytes
 * an hour and a day (429 in the request's language, counted on every instance at once), the bytes
 * of a refused upload gone, and housekeeping that removes the uploads nothing names (rows and files)
 * while a referenced one stays; all of it in the metrics.
 */
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let other: TestContext;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-quota-'));
  const env = {
    FILES_DIR: dir,
    LOGIN_RATE_PER_MINUTE: '100000',
    UPLOAD_MAX_BYTES: '100000',
    UPLOAD_FILES_PER_HOUR: '3',
    UPLOAD_FILES_PER_DAY: '5',
    UPLOAD_BYTES_PER_HOUR: '200000',
    UPLOAD_BYTES_PER_DAY: '300000',
    UPLOAD_UNUSED_HOURS: '24',
  };
  ctx = await createTestContext(env);
  // A second instance on the same database and files.
  other = await createTestContext(env, { databaseUrl: ctx.url });
});
afterAll(async () => {
  await other?.close();
  await ctx?.close();
  await rm(dir, { recursive: true, force: true });
});

/** An upload of one reply file, on `on` (the first instance by default). */
const upload = (token: string, fileName: string, content: Buffer | string, on = ctx, query = '') =>
  on.upload(`/api/front/letter/uploadReplyFile${query}`, token, fileName, content);

/** A new user of the demo tenant, signed in: every test starts with an untouched allowance. */
async function newUser(): Promise<{ id: number; token: string }> {
  const name = `u${randomUUID().slice(0, 8)}`;
  const { rows } = await ctx.db.execute<{ id: number }>(sql`
    INSERT INTO users (tenant_id, username, name, password_hash)
    SELECT tenant_id, ${name}, ${name}, password_hash FROM users WHERE username = 'member' RETURNING id`);
  const id = Number(rows[0]!.id);
  await ctx.db.execute(sql`INSERT INTO user_roles (user_id, role_id) SELECT ${id}, role_id FROM user_roles
    WHERE user_id = (SELECT id FROM users WHERE username = 'member')`);
  return { id, token: await ctx.login(name) };
}

/** Moves a user's windows back by `seconds`, as if that much time had passed. */
const age = (userId: number, window: 'h' | 'd', seconds: number) =>
  ctx.db.execute(sql`UPDATE rate_limits SET window_start = window_start - make_interval(secs => ${seconds})
    WHERE key IN (${`upload:files:${window}:${userId}`}, ${`upload:kib:${window}:${userId}`})`);

const rowsOf = async (userId: number) =>
  Number(
    (await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM files WHERE owner_id = ${userId}`)).rows[0]!
      .n,
  );
const onDisk = async () => (await readdir(dir)).filter((n) => !n.startsWith('.')).length;
const temps = async () => (await readdir(dir)).filter((n) => n.startsWith('.'));

/** The value of one sample of the metrics, 0 when absent. */
async function sample(name: string, labels: string): Promise<number> {
  const text = await ctx.app.metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('per-user upload limits', () => {
  it('refuses the upload past the files an hour, then past the files a day, with 429 in the language asked', async () => {
    const { id, token } = await newUser();
    const before = await sample('portal_uploads_refused_total', 'reason="files_per_hour"');
    for (let i = 0; i < 3; i++) expect((await upload(token, `n${i}.txt`, '记录\n')).statusCode).toBe(200);
    const refused = await upload(token, 'n3.txt', '记录\n');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      status: 429,
      message: '上传过于频繁：每小时最多上传 3 个文件，请稍后再试',
      data: null,
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    const english = await upload(token, 'n3.txt', 'notes\n', ctx, '?language=eng');
    expect(english.json().message).toBe('Too many uploads: at most 3 files an hour; please try again later');
    expect(await sample('portal_uploads_refused_total', 'reason="files_per_hour"')).toBe(before + 2);
    expect(await rowsOf(id)).toBe(3);

    // An hour later: two more, and then the day's five are spent.
    await age(id, 'h', 3601);
    for (let i = 0; i < 2; i++) expect((await upload(token, `m${i}.txt`, '记录\n')).statusCode).toBe(200);
    const day = await upload(token, 'm2.txt', '记录\n');
    expect(day.statusCode).toBe(429);
    expect(day.json().message).toBe('上传过于频繁：每天最多上传 5 个文件，请稍后再试');
    expect(await sample('portal_uploads_refused_total', 'reason="files_per_day"')).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(id)).toBe(5);
    // Another user is not held back by this one.
    expect((await upload((await newUser()).token, 'x.txt', '记录\n')).statusCode).toBe(200);
  });

  it('refuses the bytes past an hour and a day before writing them, and gives back what a refused upload held', async () => {
    const { id, token } = await newUser();
    const file = 'a'.repeat(90_000); // 88 KiB of the hour's 196 and the day's 293
    expect((await upload(token, 'a.txt', file)).statusCode).toBe(200);
    expect((await upload(token, 'b.txt', file)).statusCode).toBe(200);
    const disk = await onDisk();
    const over = await upload(token, 'c.txt', file);
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe('上传的文件过多：每小时最多上传 0.2 MB，请稍后再试');
    // Refused before a byte was written: nothing new on disk, no temporary file left, nothing counted.
    expect(await onDisk()).toBe(disk);
    expect(await temps()).toEqual([]);
    const counts = async () =>
      Object.fromEntries(
        (
          await ctx.db.execute<{ key: string; count: number }>(
            sql`SELECT key, count FROM rate_limits WHERE key LIKE ${`upload:%:${id}`}`,
          )
        ).rows.map((r) => [r.key.split(':').slice(1, 3).join(':'), r.count]),
      );
    expect(await counts()).toEqual({ 'files:h': 2, 'files:d': 2, 'kib:h': 176, 'kib:d': 176 });

    await age(id, 'h', 3601);
    // Refused for its content: the bytes it held are given back; the attempt still counts.
    const html = await upload(token, 'd.png', `<html>${'b'.repeat(89_000)}</html>`);
    expect(html.statusCode).toBe(400);
    expect(await counts()).toEqual({ 'files:h': 1, 'files:d': 3, 'kib:h': 0, 'kib:d': 176 });
    expect((await upload(token, 'e.txt', file)).statusCode).toBe(200);
    // The day's bytes, counted on the other instance too.
    const day = await upload(token, 'f.txt', file, other, '?language=eng');
    expect(day.statusCode).toBe(429);
    expect(day.json().message).toBe('Too much uploaded: at most 0.3 MB a day; please try again later');
    expect(await sample('portal_uploads_refused_total', 'reason="bytes_per_hour"')).toBeGreaterThanOrEqual(1);
    expect(await sample('portal_uploads_refused_total', 'reason="type"')).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(id)).toBe(3);
  });

  it('gives two instances one allowance: of ten uploads at once on both, three are kept', async () => {
    const { id, token } = await newUser();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => upload(token, `p${i}.txt`, `第${i}份\n`, i % 2 ? other : ctx)),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    expect(await rowsOf(id)).toBe(3);
  });
});

describe('housekeeping of uploads', () => {
  it('removes the uploads nothing names after the grace period, rows and files, and keeps the rest', async () => {
    const { id, token } = await newUser();
    const addrOf = async (name: string, content = `${name}\n`) => {
      const res = await upload(token, name, content);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: string }).data.slice('files/'.length);
    };
    const replied = await addrOf('replied.txt');
    const unused = await addrOf('unused.txt', '没有人引用的文件\n');
    const onPage = await addrOf('page.txt');
    // The hour's three are spent: an hour later.
    await age(id, 'h', 3601);
    const young = await addrOf('young.txt');

    // A reply names one; a page version names another by its address; the tenant's logo a third.
    const [notice] = (
      await ctx.db.execute<{ id: string }>(sql`
        INSERT INTO notices (tenant_id, title, remark, reply_way) SELECT tenant_id, '附件回执', '<p>x</p>', 2
        FROM users WHERE id = ${id} RETURNING id`)
    ).rows;
    await ctx.db.execute(sql`INSERT INTO notice_recipients (notice_id, user_id) VALUES (${notice!.id}, ${id})`);
    const reply = await ctx.call({
      url: '/api/front/letter/reply',
      body: {
        id: String(notice!.id),
        replyName: 'x',
        content: '见附件',
        fileList: [{ addr: `files/${replied}`, fileName: 'replied.txt' }],
      },
      token,
    });
    expect(reply.json().status, reply.body).toBe(200);
    // The member's own workbench names nothing an upload could be: a shortcut carrying an upload's
    // id keeps it no longer than anything else would.
    const layout = await ctx.call({
      url: '/api/front/workbench/layout',
      body: { items: [], shortcuts: [`/files/${unused}`] },
      token,
    });
    expect(layout.json().status, layout.body).toBe(200);
    await ctx.db.execute(sql`UPDATE page_versions SET document = jsonb_set(document, '{note}',
      to_jsonb(${`/api/resources/logos/${onPage}`}::text)) WHERE (page_id, version) IN
      (SELECT page_id, version FROM page_versions LIMIT 1)`);
    const logoFile = await addrOf('logo.txt');
    await ctx.db.execute(sql`UPDATE tenants SET settings = settings || jsonb_build_object('logo',
      ${`/api/resources/logos/${logoFile}`}::text) WHERE code = 'demo'`);

    // All but the young one are past the grace period.
    await ctx.db.execute(sql`UPDATE files SET created_at = now() - interval '25 hours'
      WHERE id IN (${replied}, ${unused}, ${onPage}, ${logoFile})`);
    // A file on disk no row names, and a temporary file of an upload long over.
    const orphan = randomUUID();
    await writeFile(join(dir, orphan), 'x'.repeat(1000));
    await writeFile(join(dir, `.upload-${randomUUID()}`), 'y'.repeat(500));
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    for (const name of [orphan, ...(await temps())]) await utimes(join(dir, name), dayAgo, dayAgo);

    const removed = await sample('portal_files_removed_total', 'reason="unreferenced"');
    const removedBytes = await sample('portal_files_removed_bytes_total', 'reason="unreferenced"');
    const task = (name: string) => ctx.app.housekeeping.find((t) => t.name === name)!.run();
    expect(await task('unused uploads')).toEqual({ files: 1, bytes: Buffer.byteLength('没有人引用的文件\n') });
    expect(await task('orphaned files')).toEqual({ files: 2, bytes: 1500 });

    const left = new Set(
      (await ctx.db.execute<{ id: string }>(sql`SELECT id FROM files WHERE owner_id = ${id}`)).rows.map((r) => r.id),
    );
    expect(left).toEqual(new Set([replied, onPage, young, logoFile]));
    const files = new Set(await readdir(dir));
    for (const kept of left) expect(files.has(kept)).toBe(true);
    expect(files.has(unused)).toBe(false);
    expect(files.has(orphan)).toBe(false);
    expect(await temps()).toEqual([]);
    expect(await sample('portal_files_removed_total', 'reason="unreferenced"')).toBe(removed + 1);
    expect(await sample('portal_files_removed_bytes_total', 'reason="unreferenced"')).toBe(
      removedBytes + Buffer.byteLength('没有人引用的文件\n'),
    );
    expect(await sample('portal_files_removed_total', 'reason="orphaned"')).toBeGreaterThanOrEqual(2);
    // The reply's attachment still downloads.
    const info = await ctx.call({ url: `/api/front/letter/replyInfo/${notice!.id}`, token });
    const link = (info.json().data as { replyFile: { url: string }[] }).replyFile[0]!.url;
    expect((await ctx.app.inject({ url: link })).body).toBe('replied.txt\n');
  });

  it('passes by an upload a reply is naming, and refuses a reply naming one it removed', async () => {
    const { id, token } = await newUser();
    const res = await upload(token, 'late.txt', '迟到的附件\n');
    const addr = (res.json() as { data: string }).data;
    await ctx.db.execute(sql`UPDATE files SET created_at = now() - interval '25 hours' WHERE owner_id = ${id}`);
    const sweep = () => ctx.app.housekeeping.find((t) => t.name === 'unused uploads')!.run();
    // A reply that names the file and has not committed yet holds it: housekeeping passes it by.
    const replying = await ctx.db.$client.connect();
    try {
      await replying.query('BEGIN');
      await replying.query(`SELECT 1 FROM files WHERE 'files/' || id::text = $1 FOR KEY SHARE`, [addr]);
      expect(await sweep()).toEqual({ files: 0, bytes: 0 });
    } finally {
      await replying.query('ROLLBACK');
      replying.release();
    }
    expect(await sweep()).toEqual({ files: 1, bytes: Buffer.byteLength('迟到的附件\n') });
    const [notice] = (
      await ctx.db.execute<{ id: string }>(sql`
        INSERT INTO notices (tenant_id, title, remark, reply_way) SELECT tenant_id, '迟到', '<p>x</p>', 2
        FROM users WHERE id = ${id} RETURNING id`)
    ).rows;
    await ctx.db.execute(sql`INSERT INTO notice_recipients (notice_id, user_id) VALUES (${notice!.id}, ${id})`);
    const reply = await ctx.call({
      url: '/api/front/letter/reply',
      body: { id: String(notice!.id), replyName: 'x', content: '见附件', fileList: [{ addr, fileName: 'late.txt' }] },
      token,
    });
    expect(reply.json()).toMatchObject({ status: 400, message: '附件不存在或不是本人上传的文件' });
  });
});
