/**
 * Phase 9: context switching (ADR 011), the enterprises page under load and chains of role switches
 * for one user and for several at once.
 */
import { performance } from 'node:perf_hooks';
import { signRequest } from '@portal/contracts/node-signing';
import type { Db } from '../../../apps/server/src/db/client.js';
import { round } from '../../common.js';
import { latencyStats, login, measureGets, timedCall, type Envelope, type Portal } from '../client.js';
import { cpuMeter } from '../cpu.js';
import { INFO_PATH, JOIN_ENT_PATH, log, ROLES_PATH, settings, SWITCH_PATH, SWITCHES_PER_HOUR } from '../settings.js';

/**
 * `count` role switches in a row, alternating over `roleIds` (the first is switched to first), each
 * signed with the token the previous one answered (that one is revoked by the switch). Stops at the
 * first answer that is not HTTP 200 with status 200 and a new token.
 */
async function switchChain(portal: Portal, token: string, roleIds: readonly [string, string], count: number) {
  const latencies: number[] = [];
  const failures: string[] = [];
  let current = token;
  let roleId: string | null = null;
  for (let i = 0; i < count; i++) {
    const target = roleIds[i % 2]!;
    const r = await timedCall(portal, SWITCH_PATH, { body: { roleId: Number(target) }, token: current });
    if (r.http !== 200 || r.status !== 200 || typeof r.data !== 'string' || r.data === current) {
      failures.push(`switch ${i + 1}: HTTP ${r.http}, status ${r.status}: ${r.message}`);
      break; // the token may be spent: the chain can't go on
    }
    latencies.push(r.ms);
    current = r.data;
    roleId = target;
  }
  return { latencies, failures, token: current, roleId };
}

/**
 * Context switching (ADR 011) on the demo tenant. The admin's enterprises page (13 joined, 10 per
 * page) under load like infoV2; then role switches (`POST switchContext {roleId}`): each answers a
 * new token and revokes the old one, so a user's switches are a chain, measured sequentially for
 * one user (against sequential infoV2 calls in the same minute) and for `switchUsers` users at once.
 * The server allows 120 switches per user and hour: the users' counters in `rate_limits` are
 * deleted before each chain.
 */
export async function benchSwitching(portal: Portal, encrypt: (p: string) => string, db: Db) {
  if (settings.switchCount < 1 || settings.switchCount > SWITCHES_PER_HOUR)
    throw new Error(`BENCH_SWITCH_COUNT must be 1…${SWITCHES_PER_HOUR} (the server's limit per user and hour)`);
  const resetLimits = (userIds: readonly number[]) =>
    db.$client.query(`DELETE FROM rate_limits WHERE key = ANY($1::text[])`, [userIds.map((id) => `switch:user:${id}`)]);

  // 1. joinEntList, as the admin, at the connections of the infoV2 run
  const listToken = await login(portal, encrypt, 'admin');
  const listRes = await fetch(portal.base + JOIN_ENT_PATH, {
    headers: {
      'accept-encoding': 'identity',
      authorization_front: listToken,
      ...signRequest(portal.secret, JOIN_ENT_PATH, null),
    },
  });
  const listBytes = Buffer.from(await listRes.arrayBuffer());
  const first = JSON.parse(listBytes.toString('utf8')) as Envelope<{ rows: unknown[]; total: number }>;
  if (listRes.status !== 200 || first.status !== 200 || first.data.rows.length !== 10 || first.data.total !== 13) {
    throw new Error(`joinEntList: HTTP ${listRes.status}, ${listBytes.toString('utf8').slice(0, 200)}`);
  }
  const listInfo = { rows: first.data.rows.length, total: first.data.total, kb: round(listBytes.length / 1024, 1) };
  log(`switching: joinEntList answers ${listInfo.rows} of ${listInfo.total} enterprises, ${listInfo.kb} KB`);
  const list = await measureGets(
    portal,
    'joinEntList',
    [JOIN_ENT_PATH],
    (b) => b.startsWith('{"status":200,') && b.includes('"total":13'),
    { authorization_front: listToken },
  );

  // 2. one user: the admin's two roles, switched to in turn
  const admin = (
    await db.$client.query<{ id: number }>(
      `SELECT u.id FROM users u JOIN tenants t ON t.id = u.tenant_id WHERE t.code = 'demo' AND u.username = 'admin'`,
    )
  ).rows[0];
  if (!admin) throw new Error('switching: no demo admin');
  let token = await login(portal, encrypt, 'admin');
  const roles = (await portal.call<Array<{ id: string; title: string }>>(ROLES_PATH, { token })).data;
  const me = (await portal.call<{ username: string; roleId: string | null }>(INFO_PATH, { token })).data;
  if (me.username !== 'admin' || roles.length < 2) {
    throw new Error(`switching: ${me.username} holds ${roles.length} roles (${JSON.stringify(roles)})`);
  }
  // The role the session does not have first, then back to the one it has.
  const other = roles.find((r) => r.id !== me.roleId)!;
  const roleIds = [other.id, me.roleId ?? roles.find((r) => r.id !== other.id)!.id] as const;
  log(`switching: admin holds ${roles.map((r) => `${r.title} (${r.id})`).join(', ')}; session role ${me.roleId}`);

  // unmeasured warm-up of both paths
  await resetLimits([Number(admin.id)]);
  const warm = await switchChain(portal, token, roleIds, 10);
  if (warm.failures.length) throw new Error(`switching warm-up was refused: ${warm.failures[0]}`);
  token = warm.token;
  for (let i = 0; i < 20; i++) await timedCall(portal, INFO_PATH, { token });

  // infoV2 one call at a time: the comparison for a switch's latency
  const infoMs: number[] = [];
  const infoFailures: string[] = [];
  for (let i = 0; i < settings.switchCount; i++) {
    const r = await timedCall(portal, INFO_PATH, { token });
    if (r.http !== 200 || r.status !== 200) infoFailures.push(`infoV2 ${i + 1}: HTTP ${r.http}, status ${r.status}`);
    else infoMs.push(r.ms);
  }
  const infoSequential = { calls: infoMs.length, failures: infoFailures, latencyMs: latencyStats(infoMs) };
  log(`switching: sequential infoV2 ${JSON.stringify(infoSequential.latencyMs)} ms`);

  await resetLimits([Number(admin.id)]);
  const firstToken = token;
  log(`switching: one user, ${settings.switchCount} switches in a row`);
  let t0 = performance.now();
  const chain = await switchChain(portal, token, roleIds, settings.switchCount);
  let wallS = (performance.now() - t0) / 1000;
  // The chain's first token must be refused now, and the last one must carry the last role.
  const old = await timedCall(portal, INFO_PATH, { token: firstToken });
  const oldTokenRefused = old.http === 401;
  if (!oldTokenRefused) chain.failures.push(`the chain's first token answered HTTP ${old.http} after the switches`);
  if (chain.roleId !== null) {
    const now = await timedCall(portal, INFO_PATH, { token: chain.token });
    const roleId = (now.data as { roleId?: string } | undefined)?.roleId;
    if (now.http !== 200 || roleId !== chain.roleId)
      chain.failures.push(`infoV2 after the switches: HTTP ${now.http}, role ${roleId} (expected ${chain.roleId})`);
  }
  const sequential = {
    switches: chain.latencies.length,
    failures: chain.failures,
    wallS: round(wallS, 3),
    perSec: round(chain.latencies.length / wallS, 1),
    latencyMs: latencyStats(chain.latencies),
    oldTokenRefused,
  };
  log(`switching: one user: ${JSON.stringify(sequential)}`);

  // 3. several users at once: copies of the admin (same password hash, roles and default role)
  const copies = (
    await db.$client.query<{ id: number; username: string }>(
      `WITH a AS (SELECT u.* FROM users u WHERE u.id = $1),
       n AS (INSERT INTO users (tenant_id, username, password_hash, name, default_role_id)
             SELECT a.tenant_id, 'bench-switch-' || g, a.password_hash, a.name, a.default_role_id
             FROM a, generate_series(1, $2::int) AS g RETURNING id, username),
       r AS (INSERT INTO user_roles (user_id, role_id) SELECT n.id, ur.role_id FROM n, user_roles ur WHERE ur.user_id = $1)
       SELECT id, username FROM n ORDER BY id`,
      [admin.id, settings.switchUsers],
    )
  ).rows;
  const tokens: string[] = [];
  for (const c of copies) tokens.push(await login(portal, encrypt, c.username));
  const ids = copies.map((c) => Number(c.id));
  await resetLimits(ids);
  const warmed = await Promise.all(tokens.map((t) => switchChain(portal, t, roleIds, 4)));
  const refused = warmed.find((w) => w.failures.length);
  if (refused) throw new Error(`switching warm-up (${copies.length} users) was refused: ${refused.failures[0]}`);
  await resetLimits(ids);
  log(`switching: ${copies.length} users at once, ${settings.switchCount} switches in a row each`);
  const meter = cpuMeter();
  t0 = performance.now();
  const chains = await Promise.all(warmed.map((w) => switchChain(portal, w.token, roleIds, settings.switchCount)));
  wallS = (performance.now() - t0) / 1000;
  const cpu = meter();
  const all = chains.flatMap((c) => c.latencies);
  const parallel = {
    users: copies.length,
    switches: all.length,
    failures: chains.flatMap((c) => c.failures),
    wallS: round(wallS, 3),
    perSec: round(all.length / wallS, 1),
    latencyMs: latencyStats(all),
    cpu,
  };
  log(`switching: ${copies.length} users: ${JSON.stringify(parallel)}`);
  return { list: { ...listInfo, run: list }, roles: roles.map((r) => r.title), sequential, infoSequential, parallel };
}
