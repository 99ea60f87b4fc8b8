/**
 * Phase 10 (ADR 024): notices. `replyPage` under load against the hello baseline; 1,000 live
 * streams open on an instance of their own (its memory per stream, read through its inspector
 * after full collections); a notice published to their 1,000 users and the time until every
 * stream has its event (p50/p99 from the publish call).
 */
import { performance } from 'node:perf_hooks';
import { signRequest } from '@portal/contracts/node-signing';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../apps/server/src/db/client.js';
import { percentile, round } from '../../common.js';
import { cannon, describe } from '../cannon.js';
import { login, type Portal } from '../client.js';
import type { Child } from '../../child.js';
import { connectInspector, inspectorUrl } from '../inspector.js';
import { log, settings } from '../settings.js';

const PAGE_PATH = '/api/front/letter/replyPage';
const EVENTS_PATH = '/api/front/letter/events';
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);

export async function benchNotices(
  portal: Portal,
  encrypt: (p: string) => string,
  db: Db,
  memberToken: string,
  startPortal: (name: string, nodeArgs: string[]) => Promise<Child>,
) {
  // 1. replyPage: the member's first page, signed and authenticated, a fresh nonce each.
  const body = { page: 1, limit: 10 };
  const made: Record<string, string>[] = [];
  let used = 0;
  const fill = (count: number) => {
    made.length = 0;
    used = 0;
    for (let i = 0; i < count; i++) {
      made.push({
        ...signRequest(portal.secret, PAGE_PATH, body),
        authorization_front: memberToken,
        'content-type': 'application/json',
      });
    }
  };
  const requests = [
    {
      method: 'POST',
      path: PAGE_PATH,
      body: JSON.stringify(body),
      setupRequest: (req: { headers?: Record<string, string> }) => {
        req.headers = made[used++] ?? {
          ...signRequest(portal.secret, PAGE_PATH, body),
          authorization_front: memberToken,
          'content-type': 'application/json',
        };
        return req;
      },
    },
  ];
  const verifyBody = (b: string) => b.startsWith('{"status":200,') && b.includes('"rows":[');
  fill(Math.min(settings.duration, 250) * 20_000);
  log(`replyPage: ${settings.duration} s × ${settings.connections} connections`);
  const page = await cannon({
    url: `${portal.base}${PAGE_PATH}`,
    connections: settings.connections,
    duration: settings.duration,
    requests,
    verifyBody,
  });
  log(`replyPage: ${describe(page)}`);

  // 2. STREAMS users, each with one live stream.
  const [member] = (
    await db.execute<{ hash: string; tenant: number }>(
      sql`SELECT password_hash AS hash, tenant_id AS tenant FROM users WHERE username = 'member'`,
    )
  ).rows;
  await db.execute(sql`
    INSERT INTO users (tenant_id, username, password_hash, name)
    SELECT ${member!.tenant}, 'stream' || n, ${member!.hash}, 'stream' || n FROM generate_series(1, ${STREAMS}) AS n
    ON CONFLICT DO NOTHING`);
  const ids = (
    await db.execute<{ id: number }>(sql`SELECT id FROM users WHERE username LIKE 'stream%' ORDER BY id`)
  ).rows.map((r) => Number(r.id));
  log(`notices: signing in ${STREAMS} users`);
  const tokens: string[] = [];
  for (let i = 0; i < STREAMS; i += 8) {
    const batch = Array.from({ length: Math.min(8, STREAMS - i) }, (_, k) =>
      login(portal, encrypt, `stream${i + k + 1}`),
    );
    tokens.push(...(await Promise.all(batch)));
  }
  // The streams' own instance: nothing else runs there, and its inspector reads its memory.
  const streamsServer = await startPortal('portal (streams)', ['--inspect=127.0.0.1:0']);
  const streamsBase = `http://127.0.0.1:${streamsServer.port}`;
  const inspector = await connectInspector(inspectorUrl(streamsServer.output()));
  const before = await inspector.memory();
  const controller = new AbortController();
  const arrived: number[] = [];
  let published = 0;
  let open = 0;
  const opened = tokens.map(async (token) => {
    const res = await fetch(`${streamsBase}${EVENTS_PATH}`, {
      headers: { ...signRequest(portal.secret, EVENTS_PATH, null), authorization_front: token },
      signal: controller.signal,
    });
    if (res.status !== 200 || !res.body) throw new Error(`stream answered ${res.status}`);
    open++;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += value;
        if (text.includes('event: notice')) {
          arrived.push(performance.now() - published);
          return;
        }
      }
    } catch {
      // aborted at the end
    }
  });
  while (open < STREAMS) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 2000));
  const after = await inspector.memory();
  log(`notices: ${STREAMS} streams open; memory ${JSON.stringify(before)} → ${JSON.stringify(after)}`);

  // 3. One notice to all of them, published on the other instance as the park operator (admin in
  // that role): the event reaches the streams through LISTEN/NOTIFY.
  const adminToken = await login(portal, encrypt, 'admin');
  const roles = await portal.call<{ id: string; title: string }[]>('/api/front/member/getUserRolesNew', {
    token: adminToken,
  });
  const operator = roles.data.find((r) => r.title === '园区运营')!;
  const switched = await portal.call<string>('/api/front/member/switchContext', {
    body: { roleId: operator.id },
    token: adminToken,
  });
  published = performance.now();
  const publishCall = await portal.call<{ recipients: number }>('/api/admin/notices', {
    body: { title: '压测通知', remark: '<p>bench</p>', replyWay: 0, audience: { kind: 'users', ids } },
    token: switched.data,
  });
  const publishMs = performance.now() - published;
  const deadline = performance.now() + 60_000;
  while (arrived.length < STREAMS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  controller.abort();
  await Promise.allSettled(opened);
  inspector.close();
  await streamsServer.stop();
  const sorted = [...arrived].sort((x, y) => x - y);
  const result = {
    page,
    streams: STREAMS,
    memoryBefore: before,
    memoryAfter: after,
    /** Live heap and external memory per stream, kB. */
    kbPerStream: round((after.heapKb + after.externalKb - before.heapKb - before.externalKb) / STREAMS, 1),
    rssKbPerStream: round((after.rssKb - before.rssKb) / STREAMS, 1),
    recipients: publishCall.data.recipients,
    publishMs: round(publishMs, 1),
    delivered: arrived.length,
    deliveryMs: {
      p50: round(percentile(sorted, 50), 1),
      p99: round(percentile(sorted, 99), 1),
      max: round(sorted.at(-1) ?? 0, 1),
    },
  };
  log(`notices: ${JSON.stringify({ ...result, page: undefined })}`);
  return result;
}
