/**
 * The park services behind the demo sub-application, over HTTP against the real database: repair
 * requests (own ones for members, all for handlers, the guarded status change), meeting rooms and
 * bookings (time rules, overlaps refused by the database even when booked at once, privacy of
 * another person's booking, cancelling).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { parkMinute } from './park-services.service.js';

let ctx: TestContext;
let member: string;
let admin: string;

beforeAll(async () => {
  ctx = await createTestContext();
  member = await ctx.login('member');
  admin = await ctx.login('admin');
  // Without the demo's own requests, the counts below are this file's alone.
  await ctx.db.execute(sql`DELETE FROM park_repairs`);
});
afterAll(async () => ctx?.close());

const REPAIRS = '/api/front/park/repairs';
const BOOKINGS = '/api/front/park/bookings';
type Repair = { id: string; title: string; status: number; reporter: string; mine: boolean };

/** The park-local day `days` from today, `YYYY-MM-DD`. */
const parkDay = (days: number) => new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

describe('repair requests', () => {
  it('are reported by anyone and seen by their reporter; handlers see and move all of them', async () => {
    const made = await ctx.call({
      url: REPAIRS,
      body: { title: ' 空调不制冷 ', location: 'A栋 302', description: '室温 30 度' },
      token: member,
    });
    expect(made.json().status, made.body).toBe(200);
    const id = made.json().data as string;
    await ctx.call({ url: REPAIRS, body: { title: '门禁失灵', location: 'B栋大厅' }, token: admin });

    const mine = (await ctx.call({ url: REPAIRS, token: member })).json().data as { rows: Repair[]; total: number };
    expect(mine.total).toBe(1);
    expect(mine.rows[0]).toMatchObject({ id, title: '空调不制冷', status: 0, reporter: '张敏', mine: true });
    const all = (await ctx.call({ url: `${REPAIRS}?language=eng`, token: admin })).json().data;
    expect(all.total).toBe(2);
    expect(all.rows.map((r: Repair) => r.reporter)).toEqual(['System Administrator', 'Zhang Min']);

    // The admin's request is not the member's to see; the member may not move requests.
    const adminsId = all.rows[0].id as string;
    expect((await ctx.call({ url: `${REPAIRS}/${adminsId}`, token: member })).json()).toMatchObject({
      status: 404,
      message: '报修单不存在',
    });
    const refused = await ctx.call({ url: `${REPAIRS}/${id}/status`, body: { status: 1 }, token: member });
    expect(refused.json().status).toBe(40303);

    for (const status of [1, 2]) {
      const moved = await ctx.call({ url: `${REPAIRS}/${id}/status`, body: { status }, token: admin });
      expect(moved.json().status, moved.body).toBe(200);
    }
    const back = await ctx.call({ url: `${REPAIRS}/${id}/status`, body: { status: 1 }, token: admin });
    expect(back.json()).toMatchObject({ status: 409, message: '报修单已处于该状态或已完成' });
    expect((await ctx.call({ url: `${REPAIRS}/987654/status`, body: { status: 1 }, token: admin })).json().status).toBe(
      404,
    );
    const done = (await ctx.call({ url: `${REPAIRS}?status=2`, token: member })).json().data;
    expect(done.rows.map((r: Repair) => [r.id, r.status])).toEqual([[id, 2]]);
  });

  it('refuses blank fields, and more than 30 an hour', async () => {
    const blank = await ctx.call({ url: REPAIRS, body: { title: '  ', location: 'A栋' }, token: member });
    expect(blank.json()).toMatchObject({ status: 400, message: '请填写报修事项和位置（至少2个字）' });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await ctx.call({ url: REPAIRS, body: { title: `漏水 ${i}`, location: 'C栋' }, token: member });
      statuses.push(res.json().status);
    }
    // One was reported in the test above.
    expect(statuses.filter((s) => s === 200)).toHaveLength(29);
    expect(statuses.slice(29)).toEqual([429, 429]);
    await ctx.db.execute(sql`DELETE FROM rate_limits`);
  });
});

describe('meeting rooms', () => {
  const rooms = async (token = member) =>
    (await ctx.call({ url: '/api/front/park/rooms', token })).json().data as { id: string; name: string }[];
  const book = (body: Record<string, unknown>, token = member) => ctx.call({ url: BOOKINGS, body, token });

  it('are named in the request language', async () => {
    expect((await rooms()).map((r) => r.name)).toEqual(['一号会议室', '二号会议室', '路演厅']);
    const en = (await ctx.call({ url: '/api/front/park/rooms?language=eng', token: member })).json().data;
    expect(en[2].name).toBe('Roadshow hall');
  });

  it('are booked on quarter hours, within a day, in the future, never twice for the same time', async () => {
    const [room] = await rooms();
    const day = parkDay(1);
    const at = (from: string, to: string, subject = '周例会') => ({
      roomId: room!.id,
      subject,
      startTime: `${day} ${from}`,
      endTime: `${day} ${to}`,
    });
    const first = await book(at('10:00', '11:00'));
    expect(first.json().status, first.body).toBe(200);

    const cases: [Record<string, unknown>, number, string][] = [
      [at('10:30', '11:30'), 409, '该时段已被预约，请选择其他时间'],
      [at('09:00', '12:00'), 409, '该时段已被预约，请选择其他时间'],
      [at('12:10', '13:00'), 400, '开始和结束时间须为整刻钟（00、15、30、45分）'],
      [at('13:00', '13:00'), 400, '预约时长须在15分钟到8小时之间，且在同一天内'],
      [at('08:00', '17:00'), 400, '预约时长须在15分钟到8小时之间，且在同一天内'],
      [{ ...at('23:00', '23:45'), endTime: `${parkDay(2)} 01:00` }, 400, '预约时长须在15分钟到8小时之间，且在同一天内'],
      [
        { ...at('10:00', '11:00'), startTime: `${parkDay(-1)} 10:00`, endTime: `${parkDay(-1)} 11:00` },
        400,
        '不能预约已经过去的时间',
      ],
      [
        { ...at('10:00', '11:00'), startTime: `${parkDay(70)} 10:00`, endTime: `${parkDay(70)} 11:00` },
        400,
        '只能预约60天内的时段',
      ],
      [
        { ...at('10:00', '11:00'), startTime: '2026-02-30 10:00', endTime: '2026-02-30 11:00' },
        400,
        '日期或时间不正确',
      ],
      [{ ...at('14:00', '15:00'), roomId: '987654' }, 404, '会议室不存在'],
      [at('14:00', '15:00', ' x '), 400, '请填写会议主题（至少2个字）'],
    ];
    for (const [body, status, message] of cases) {
      expect((await book(body)).json(), JSON.stringify(body)).toMatchObject({ status, message });
    }
    // Back to back is no overlap.
    expect((await book(at('11:00', '12:00'), admin)).json().status).toBe(200);

    const seen = (await ctx.call({ url: `${BOOKINGS}?date=${day}&roomId=${room!.id}`, token: member })).json().data;
    expect(seen).toEqual([
      {
        id: first.json().data,
        roomId: room!.id,
        subject: '周例会',
        startTime: `${day} 10:00`,
        endTime: `${day} 11:00`,
        mine: true,
      },
      // Another person's booking shows that the room is taken, not what for.
      expect.objectContaining({ subject: null, startTime: `${day} 11:00`, endTime: `${day} 12:00`, mine: false }),
    ]);
    expect(parkMinute(`${day} 10:00`)!.toISOString()).toBe(new Date(`${day}T02:00:00Z`).toISOString());
  });

  it('gives one booking when several people book the same time at once', async () => {
    const [, room] = await rooms();
    const day = parkDay(2);
    const tokens = [member, admin, member, admin, member];
    const results = await Promise.all(
      tokens.map((token, i) =>
        book({ roomId: room!.id, subject: `抢订 ${i}`, startTime: `${day} 15:00`, endTime: `${day} 16:00` }, token),
      ),
    );
    const statuses = results.map((r) => r.json().status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
  });

  it("are cancelled by their owner before they start; another's is as if absent", async () => {
    const [, , hall] = await rooms();
    const day = parkDay(3);
    const made = await book({ roomId: hall!.id, subject: '路演', startTime: `${day} 09:00`, endTime: `${day} 10:00` });
    const id = made.json().data as string;
    const other = await ctx.call({ url: `${BOOKINGS}/${id}/cancel`, body: {}, token: admin });
    expect(other.json()).toMatchObject({ status: 404, message: '预约不存在' });
    expect((await ctx.call({ url: `${BOOKINGS}/${id}/cancel`, body: {}, token: member })).json().status).toBe(200);
    expect((await ctx.call({ url: `${BOOKINGS}?date=${day}`, token: member })).json().data).toEqual([]);

    // One that has started stays.
    await ctx.db.execute(sql`
      INSERT INTO park_bookings (tenant_id, room_id, user_id, subject, starts_at, ends_at)
      SELECT r.tenant_id, r.id, u.id, '进行中', now() - interval '10 minutes', now() + interval '50 minutes'
      FROM park_rooms r JOIN users u ON u.tenant_id = r.tenant_id AND u.username = 'member' WHERE r.id = ${hall!.id}`);
    const [started] = (await ctx.db.execute<{ id: string }>(sql`SELECT id FROM park_bookings WHERE subject = '进行中'`))
      .rows;
    const late = await ctx.call({ url: `${BOOKINGS}/${started!.id}/cancel`, body: {}, token: member });
    expect(late.json()).toMatchObject({ status: 409, message: '已开始或已结束的预约不能取消' });
  });
});
