/**
 * Notices over HTTP against the real database: the letter calls on the caller's own rows only,
 * read, 阅办 and reply with their rules, uploads checked by name and content, downloads by signed
 * address only, publishing with an audience, and the live stream with its replay.
 */
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, injectStreaming, type TestContext } from '../../test/harness.js';

let ctx: TestContext;
let member: string;
let admin: string;
type NoticeRow = { id: string; title: string; replyWay: number; readStatus: number; answerStatus: number };

beforeAll(async () => {
  ctx = await createTestContext({ UPLOAD_MAX_BYTES: '65536' });
  member = await ctx.login('member');
  admin = await ctx.login('admin');
});
afterAll(async () => ctx?.close());

const page = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await ctx.call({ url: '/api/front/letter/replyPage', body: { page: 1, limit: 20, ...body }, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { rows: NoticeRow[]; total: number };
};
const byWay = async (way: number) => (await page(member)).rows.find((n) => n.replyWay === way)!;

const upload = (token: string, fileName: string, content: Buffer | string) =>
  ctx.upload('/api/front/letter/uploadReplyFile', token, fileName, content);

/** The name an upload was kept under (the answer carries its stored path only). */
async function storedName(addr: string): Promise<string> {
  const { rows } = await ctx.db.execute<{ name: string }>(
    sql`SELECT file_name AS name FROM files WHERE 'files/' || id::text = ${addr}`,
  );
  return rows[0]!.name;
}

// The smallest real PNG: its signature and an IHDR chunk are what file-type reads.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

describe('the letter calls', () => {
  it("lists the caller's notices with filters, and answers another user's id as absent", async () => {
    const all = await page(member);
    expect(all.total).toBe(4);
    const unread = await page(member, { readStatus: 0 });
    expect(unread.rows.every((n) => n.readStatus === 0)).toBe(true);
    expect((await page(member, { title: '停电' })).rows.map((n) => n.title)).toEqual(['园区停电检修通知']);
    expect((await page(member, { title: '%' })).total).toBe(0);
    const en = await ctx.call({
      url: '/api/front/letter/replyPage?language=eng',
      body: { title: 'Power' },
      token: member,
    });
    expect(en.json().data.rows[0].title).toBe('Power maintenance in the park');

    const [me] = (await ctx.db.execute<{ id: number }>(sql`SELECT id FROM users WHERE username = 'member'`)).rows;
    expect((await page(member, { receiverId: String(me!.id) })).total).toBe(4);
    const other = await ctx.call({ url: '/api/front/letter/replyPage', body: { receiverId: 1 }, token: member });
    expect(other.statusCode).toBe(403);

    // The admin's current role (企业管理员) may not publish.
    const refused = await ctx.call({
      url: '/api/admin/notices',
      body: { title: '仅管理员', remark: '<p>x</p>', replyWay: 1, audience: { kind: 'users', ids: [1] } },
      token: admin,
    });
    expect(refused.statusCode, refused.body).toBe(403);
    // A notice only the admin received: for the member it does not exist, in every call.
    const [n] = (
      await ctx.db.execute<{ id: number }>(sql`
        WITH n AS (INSERT INTO notices (tenant_id, title, remark, reply_way)
                   SELECT tenant_id, '仅管理员', '<p>x</p>', 1 FROM users WHERE username = 'admin' RETURNING id)
        INSERT INTO notice_recipients (notice_id, user_id) SELECT n.id, u.id FROM n, users u WHERE u.username = 'admin'
        RETURNING notice_id AS id`)
    ).rows;
    const absent = async (res: { statusCode: number; json: () => { message: string } }) => {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('通知不存在');
    };
    await absent(await ctx.call({ url: `/api/front/letter/replyInfo/${n!.id}`, token: member }));
    await absent(await ctx.call({ url: `/api/front/letter/replyInfo/987654321`, token: member }));
    await absent(await ctx.call({ url: `/api/front/letter/replyInfo/abc`, token: member }));
    await absent(
      await ctx.call({ url: '/api/front/letter/editAnswerStatus', body: { id: n!.id, action: 'read' }, token: member }),
    );
    await absent(
      await ctx.call({
        url: '/api/front/letter/reply',
        body: { id: n!.id, replyName: 'member', content: '收到' },
        token: member,
      }),
    );
  });

  it('reads, confirms (阅办) once, and counts unread on the server', async () => {
    const unread = async () =>
      (await ctx.call({ url: '/api/front/letter/unread', token: member })).json().data.unread as number;
    const before = await unread();
    const notice = (await page(member, { readStatus: 0 })).rows.find((n) => n.replyWay === 0)!;
    const detail = await ctx.call({ url: `/api/front/letter/replyInfo/${notice.id}`, token: member });
    expect(detail.json().data).toMatchObject({ id: notice.id, readStatus: 0, answerStatus: 0 });
    expect(await unread()).toBe(before); // reading the detail changes nothing by itself
    const edit = (action: string) =>
      ctx.call({ url: '/api/front/letter/editAnswerStatus', body: { id: notice.id, action }, token: member });
    expect((await edit('read')).statusCode).toBe(200);
    expect((await edit('read')).statusCode).toBe(200);
    expect(await unread()).toBe(before - 1);
    expect((await edit('confirm')).statusCode).toBe(200);
    expect((await edit('confirm')).json()).toMatchObject({
      status: 409,
      message: '该通知已回复、已过期或不接受此种回复',
    });
    const after = (await ctx.call({ url: `/api/front/letter/replyInfo/${notice.id}`, token: member })).json().data;
    expect(after).toMatchObject({ readStatus: 1, answerStatus: 1 });
    expect(after.replyTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // A reply is not a confirmation: a text notice refuses 阅办.
    const text = await byWay(1);
    const refused = await ctx.call({
      url: '/api/front/letter/editAnswerStatus',
      body: { id: text.id, action: 'confirm' },
      token: member,
    });
    expect(refused.statusCode).toBe(409);
  });

  it('takes a reply of 2 to 255 characters once, and refuses one after the validity', async () => {
    const text = await byWay(1);
    const reply = (content: string, id = text.id) =>
      ctx.call({ url: '/api/front/letter/reply', body: { id, replyName: 'member', content }, token: member });
    for (const bad of ['x', ' x ', 'y'.repeat(256)]) {
      const res = await reply(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe('长度在 2 到 255 个字符');
    }
    expect((await reply('收到，已安排')).statusCode).toBe(200);
    expect((await reply('再次回复')).statusCode).toBe(409);
    const done = (await ctx.call({ url: `/api/front/letter/replyInfo/${text.id}`, token: member })).json().data;
    expect(done).toMatchObject({ answerStatus: 1, readStatus: 1, replyContent: '收到，已安排', replyFile: [] });

    const late = await byWay(2);
    await ctx.db.execute(
      sql`UPDATE notices SET validity_time = now() - interval '1 minute' WHERE id = ${Number(late.id)}`,
    );
    expect((await reply('太晚了吗', late.id)).statusCode).toBe(409);
    await ctx.db.execute(sql`UPDATE notices SET validity_time = NULL WHERE id = ${Number(late.id)}`);
  });
});

describe('attachments', () => {
  it('keeps a file whose name and content agree, and refuses the rest', async () => {
    const ok = await upload(member, '现场照片.png', PNG);
    expect(ok.statusCode, ok.body).toBe(200);
    // `data` is the stored path itself, and the answer is the envelope and nothing more.
    expect(Object.keys(ok.json()).sort()).toEqual(['data', 'message', 'status']);
    expect(ok.json().data).toMatch(/^files\/[0-9a-f-]{36}$/);
    expect(await storedName(ok.json().data)).toBe('现场照片.png');
    expect((await upload(member, 'notes.txt', '会议纪要：\n一、……\n')).statusCode).toBe(200);

    const cases: [string, Buffer | string, string][] = [
      ['page.png', '<html><script>alert(1)</script></html>', 'HTML named .png'],
      ['logo.svg', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'an SVG'],
      ['page.html', '<p>hi</p>', 'HTML'],
      ['fake.pdf', PNG, 'a PNG named .pdf'],
      ['readme.txt', '<!DOCTYPE html><html></html>', 'HTML named .txt'],
      ['bin.txt', Buffer.from([0x41, 0x00, 0x42]), 'binary named .txt'],
      ['run.exe', 'MZ', 'an executable'],
      ['noext', 'abc', 'no extension'],
    ];
    for (const [name, content, what] of cases) {
      const res = await upload(member, name, content);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().message, what).toBe(`${name} 该文件格式不符合要求`);
    }
    const big = await upload(member, 'big.txt', 'a'.repeat(70_000));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/文件过大/);
    const [{ n }] = (await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM files`)).rows as [
      { n: number },
    ];
    expect(n).toBe(2);
  });

  it('cleans names: path parts, control characters and length', async () => {
    const name = async (raw: string) => storedName((await upload(member, raw, PNG)).json().data as string);
    expect(await name('../../etc/passwd.png')).toBe('passwd.png');
    expect(await name('..\\\\windows\\\\a.png')).toBe('a.png');
    expect(await name('a\u202egnp.png')).toBe('agnp.png');
    expect([...(await name(`${'长'.repeat(300)}.png`))]).toHaveLength(120);
    expect((await upload(member, '..', PNG)).json().status).toBe(400);
  });

  it("replies with the caller's own uploads only, and downloads by signed address only", async () => {
    const notice = await byWay(2);
    const mine = { addr: (await upload(member, '报告.png', PNG)).json().data as string, fileName: '报告.png' };
    const theirs = { addr: (await upload(admin, 'theirs.png', PNG)).json().data as string, fileName: 'theirs.png' };
    const reply = (fileList: unknown[]) =>
      ctx.call({
        url: '/api/front/letter/reply',
        body: { id: notice.id, replyName: 'member', content: '材料见附件', fileList },
        token: member,
      });
    for (const bad of [[theirs], [{ addr: 'files/../../etc/passwd', fileName: 'x' }], [{ addr: 'x', fileName: 'y' }]]) {
      const res = await reply(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('附件不存在或不是本人上传的文件');
    }
    expect((await reply([{ ...mine, fileName: 'renamed.exe' }])).statusCode).toBe(200);
    const done = (await ctx.call({ url: `/api/front/letter/replyInfo/${notice.id}`, token: member })).json().data;
    expect(done.replyFile).toHaveLength(1);
    const file = done.replyFile[0] as { addr: string; fileName: string; url: string };
    expect(file.fileName).toBe('报告.png'); // the stored name, not the one sent

    const got = await ctx.app.inject({ url: file.url });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/octet-stream');
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="__.png"; filename*=UTF-8''${encodeURIComponent('报告.png')}`,
    );
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(got.rawPayload, PNG)).toBe(0);
    // Without the signature, with another file's, or after it expired: as if there were no file.
    const id = file.addr.slice('files/'.length);
    const [, query] = file.url.split('?');
    for (const url of [
      `/api/resources/files/${id}`,
      `/api/resources/files/${theirs.addr.slice(6)}?${query}`,
      `/api/resources/files/${id}?e=1&s=${new URLSearchParams(query).get('s')}`,
    ]) {
      expect((await ctx.app.inject({ url })).statusCode, url).toBe(404);
    }
  });
});

describe('publishing and the live stream', () => {
  it('publishes to an audience, tells its streams, and replays what a stream missed', async () => {
    // The admin switches to the park operator's role, which may publish.
    const token = await ctx.asRole(await ctx.login('admin'), 'park_operator');

    const stream = (t: string, lastEventId?: string, until?: (text: string) => boolean) =>
      injectStreaming(
        ctx.app,
        {
          method: 'GET',
          url: '/api/front/letter/events',
          headers: {
            authorization_front: t,
            ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
            ...signRequest(ctx.secrets.signSecret, '/api/front/letter/events'),
          },
        },
        3000,
        until,
      );
    const notified = (text: string) => text.includes('event: notice');
    const hello = await stream(member);
    expect(hello.statusCode).toBe(200);
    expect(hello.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const { unread, last } = JSON.parse(/data: (.*)\n/.exec(hello.body)![1]!) as { unread: number; last: number };

    const [me] = (await ctx.db.execute<{ id: number }>(sql`SELECT id FROM users WHERE username = 'member'`)).rows;
    // A stream open while the notice is published is told at once.
    const live = stream(member, undefined, notified);
    await new Promise((r) => setTimeout(r, 300));
    const res = await ctx.call({
      url: '/api/admin/notices',
      body: {
        title: '消防演练通知',
        remark: '<p onclick="x()">周五<script>alert(1)</script>演练</p><a href="javascript:alert(1)">链接</a>',
        replyWay: 1,
        audience: { kind: 'users', ids: [me!.id] },
      },
      token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.recipients).toBe(1);
    const stored = (await page(member, { title: '消防演练' })).rows[0] as NoticeRow & { remark: string };
    expect(stored.remark).not.toMatch(/script|onclick|javascript/);

    const told = (await live).body;
    const event = new RegExp(
      `id: (\\d+)\\nevent: notice\\ndata: \\{"unread":${unread + 1},"noticeId":"${res.json().data.id}"\\}`,
    );
    expect(told).toMatch(event);
    // A stream that reconnects with the last id it had gets what it missed, with the same id.
    const replay = await stream(member, String(last), notified);
    const [first, ...rest] = replay.body.split('\n\n');
    expect(first).toMatch(/^retry: 3000\nevent: hello/);
    expect(rest.join('\n\n')).toContain(event.exec(told)![0]);
    // Resuming after that event: nothing more to tell.
    const newest = event.exec(told)![1]!;
    expect((await stream(member, newest, notified)).body).not.toContain('event: notice');
    expect((await ctx.call({ url: '/api/front/letter/unread', token: member })).json().data.unread).toBe(unread + 1);

    const who = await ctx.call({ url: `/api/admin/notices/${res.json().data.id}/recipients`, token });
    expect(who.json().data.records).toEqual([
      expect.objectContaining({ username: 'member', readStatus: 0, answerStatus: 0, readTime: null }),
    ]);
    expect(
      (await ctx.call({ url: `/api/admin/notices/${res.json().data.id}/recipients`, token: member })).statusCode,
    ).toBe(403);
  });
});
