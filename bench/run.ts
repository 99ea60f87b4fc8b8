/**
 * Benchmark of the portal against a Fastify hello-world baseline, in one run (`npm run bench -w bench`
 * after `npx tsc -b apps/server`):
 *
 *   1. hello world (bench/hello-server.mjs, own process)      → baseline req/s
 *   2. the BUILT portal (apps/server/dist/programs/server/main.js, own process) on a fresh database
 *   3. signed, authenticated GET /api/front/member/front/infoV2 → req/s, p50/p99, non-2xx (must be 0)
 *   4. raw argon2id verify with the server's parameters        → verifies/s (the ceiling for logins);
 *      raw passkey assertion verifications (ES256, user verification) → verifications/s, × argon2
 *   5. logins (captcha pre-fetched, fresh RSA + signature each) → logins/s, non-2xx (must be 0)
 *   6. behavioural captcha get/check, 7. sign-on tickets and their validation
 *   8. catalog: the registration pickers' region levels and industry tree (signed, public) → req/s,
 *      ratio to hello, p50/p99, non-2xx (must be 0); no targets (none is set)
 *   9. switching: the demo admin's enterprises (signed, authenticated) → req/s, ratio to
 *      hello, p50/p99, non-2xx (must be 0); role switches, each with the token the previous one
 *      answered (sequential per user), for one user and for several at once → switches/s, p50/p99,
 *      against sequential infoV2 calls; every answer must be HTTP 200 with status 200
 *  10. notices: replyPage (signed, authenticated) → req/s, ratio to hello; 1,000 live
 *      streams open (server memory per stream); one notice published to their users → time until
 *      every stream has its event, p50/p99
 *  11. OpenID Connect: authorization requests with a live session (codes kept), each code exchanged
 *      once, each refresh token spent once, client credentials, userinfo → req/s, ratio to hello,
 *      CPU and PostgreSQL transactions per request; every answer must succeed
 *  12. BENCHMARKS.md (generated block) + bench/results/latest.json
 *
 * Both servers run in a child process and autocannon runs here, so the load generator never shares
 * an event loop with the server it measures (it does share the machine's cores, as every baseline
 * measured on this machine does). Settings by environment variable: see `settings` in bench/api/settings.ts. This file
 * runs the phases in order and writes the report; the phases and their helpers are in bench/api/.
 */
// First: the same threadpool size as the portal, so raw argon2 is measured as the portal runs it.
import '../apps/server/src/platform/threadpool.js';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, migrateDb } from '../apps/server/src/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../apps/server/src/db/embedded.js';
import { ensureDatabase } from '../apps/server/src/db/open.js';
import { seedDemo } from '../apps/server/src/db/demo/seed.js';
import { hashPassword } from '../apps/server/src/platform/passwords.js';
import { loadSecrets } from '../apps/server/src/platform/secrets.js';
import type { RunSummary } from './api/cannon.js';
import { encryptor, Portal } from './api/client.js';
import { dbSnapshot, perRequest } from './api/db-stats.js';
import {
  catalogRow,
  cpuRow,
  fmt,
  rateRow,
  sequentialRow,
  type Verdict,
  writeJson,
  writeMarkdown,
} from './api/markdown.js';
import { benchArgon2 } from './api/phases/argon2.js';
import { benchPasskeys } from './api/phases/passkeys.js';
import { benchCaptcha } from './api/phases/captcha.js';
import { benchCatalog } from './api/phases/catalog.js';
import { benchHello } from './api/phases/hello.js';
import { benchInfo } from './api/phases/info.js';
import { benchLogin } from './api/phases/login.js';
import { benchSso } from './api/phases/sso.js';
import { benchNotices } from './api/phases/notices.js';
import { benchOidc } from './api/phases/oidc.js';
import { benchSwitching } from './api/phases/switching.js';
import {
  DEMO_PASSWORD,
  INDUSTRY_TREE_PATH,
  INFO_PATH,
  JOIN_ENT_PATH,
  log,
  LOGIN_PATH,
  REGION_CODES,
  REGION_PATH,
  RESULTS_DIR,
  SERVER_MAIN,
  settings,
  SWITCH_PATH,
  SWITCHES_PER_HOUR,
  TARGETS,
} from './api/settings.js';
import { startChild, stopOnSignal } from './child.js';
import { machine, round, runMain } from './common.js';
import { printTables } from './report.js';

async function main(): Promise<number> {
  const all = [
    'hello',
    'info',
    'argon2',
    'passkeys',
    'login',
    'captcha',
    'sso',
    'catalog',
    'switching',
    'notices',
    'oidc',
  ].every((p) => settings.phases.has(p));
  if (!existsSync(SERVER_MAIN))
    throw new Error(`${SERVER_MAIN} is missing: build the server first (npx tsc -b apps/server)`);
  const info = machine(['apps/server', 'packages/contracts']);
  log(`${info.nproc} CPUs (${info.cpuModel}), Node ${info.node}, ${info.date}`);

  const { cleanups, cleanup } = stopOnSignal(log);

  try {
    // 1. baseline
    const hello = settings.phases.has('hello') ? await benchHello() : null;

    // 2. the portal on a fresh database
    const tmp = await mkdtemp(join(tmpdir(), 'portal-bench-'));
    cleanups.push(() => rm(tmp, { recursive: true, force: true }));
    if (userInfo().uid === 0) await chmod(tmp, 0o755); // postgres runs as `postgres` and must enter it
    let databaseUrl = process.env.DATABASE_URL?.trim() || '';
    if (!databaseUrl) {
      const quiet = { info: () => {}, warn: (m: string) => log(`postgres: ${m}`), debug: () => {} };
      const pg: EmbeddedDatabase = await startEmbeddedPostgres(join(tmp, 'db'), quiet);
      cleanups.push(() => pg.stop());
      await ensureDatabase(pg.url(), 'portal');
      databaseUrl = pg.url('portal');
      log(`embedded PostgreSQL in ${tmp}/db`);
    } else {
      log('using DATABASE_URL');
    }
    const db = connect(databaseUrl, 2);
    cleanups.push(() => db.$client.end());
    await migrateDb(db);
    await seedDemo(db, { passwordHash: await hashPassword(DEMO_PASSWORD) });
    const secrets = await loadSecrets(db);

    const cpuProfDir = join(RESULTS_DIR, 'cpu-prof');
    if (settings.cpuProf) await mkdir(cpuProfDir, { recursive: true });
    const serverEnv = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: join(tmp, 'server'),
      PORTAL_TEST_CAPTCHA: '1',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_PER_MINUTE: '1000000',
      CAPTCHA_RATE_PER_MINUTE: '1000000',
      CAPTCHA_GET_PER_MINUTE: '1000000',
      CAPTCHA_CHECK_PER_MINUTE: '1000000',
      CAPTCHA_FAILURES_BEFORE_LOCK: '1000',
      DEMO_PASSWORD,
      ...settings.serverEnv,
    };
    /** A portal instance on the same database; `nodeArgs` go before the script. */
    const startPortal = (name: string, nodeArgs: string[] = []) =>
      startChild(
        name,
        [...nodeArgs, SERVER_MAIN],
        serverEnv,
        /Enterprise Service Portal is running: http:\/\/localhost:(\d+)\//,
      );
    const server = await startPortal('portal', settings.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : []);
    cleanups.push(async () => {
      const code = await server.stop();
      if (code !== 0) {
        const tail = server.output().trim().split('\n').slice(-20).join('\n');
        log(`portal exited with ${code}${tail ? `; its last output:\n${tail}` : ''}`);
      }
    });
    const portal = new Portal(`http://127.0.0.1:${server.port}`);
    log(`portal (pid ${server.process.pid}) on port ${server.port}`);

    // The client's view: secret from the runtime config, public key from the API.
    const configJs = await (await fetch(`${portal.base}/center/config.js`)).text();
    const m = /window\.__PORTAL_CONFIG__\s*=\s*(\{.*\})\s*;?\s*$/s.exec(configJs);
    if (!m) throw new Error(`unexpected /center/config.js: ${configJs.slice(0, 200)}`);
    portal.secret = (JSON.parse(m[1]!) as { signSecret?: string }).signSecret ?? '';
    if (!portal.secret) throw new Error('config.js has no signSecret');
    if (portal.secret !== secrets.signSecret) throw new Error('config.js signSecret differs from the database secret');
    const pk = await portal.call<{ publicKey: string; keyId: string }>('/api/front/account/auth/publicKey');
    const encrypt = encryptor(pk.data.publicKey);

    // 3. infoV2
    const captchaKey = await portal.fetchCaptcha();
    const token = (
      await portal.call<string>(LOGIN_PATH, {
        body: { username: 'member', password: encrypt(DEMO_PASSWORD), imgvercode: '8888', captchaKey },
      })
    ).data;
    const me = await portal.call<{ username: string }>(INFO_PATH, { token });
    if (me.data.username !== 'member') throw new Error(`infoV2 answered for ${me.data.username}`);

    const infoResult = settings.phases.has('info') ? await benchInfo(portal, token, db) : null;

    // 4. argon2 (the portal is idle meanwhile; its statistics settle, see below)
    const argon2 = settings.phases.has('argon2') ? await benchArgon2() : null;
    const passkeys = settings.phases.has('passkeys') ? await benchPasskeys(argon2?.perSec ?? null) : null;

    // The measured requests' counters are published within 10 s of the end of the run.
    let dbPerInfo: ReturnType<typeof perRequest> | null = null;
    if (infoResult?.before) {
      const wait = infoResult.endedAt + 11_000 - performance.now();
      if (wait > 0) {
        log(`waiting ${round(wait / 1000, 1)} s for PostgreSQL statistics`);
        await sleep(wait);
      }
      dbPerInfo = perRequest(infoResult.before, await dbSnapshot(db), infoResult.run.responses);
      log(
        `infoV2: ${dbPerInfo.statementsPerRequest} SQL statements/request, ${dbPerInfo.rowsInsertedPerRequest} rows inserted/request`,
      );
    }

    // 5. login
    const login = settings.phases.has('login') ? await benchLogin(portal, encrypt, argon2?.perSec ?? null) : null;

    // 6. behavioural captcha
    const captcha = settings.phases.has('captcha') ? await benchCaptcha(portal, db) : null;

    // 7. sign-on server
    const sso = settings.phases.has('sso') ? await benchSso(portal, db) : null;

    // 8. registration pickers (last: no database statistics of another phase to disturb)
    const catalog = settings.phases.has('catalog') ? await benchCatalog(portal) : null;

    // 9. context switching
    const switching = settings.phases.has('switching') ? await benchSwitching(portal, encrypt, db) : null;

    // 10. notices: replyPage, 1,000 live streams, one notice to all of them
    const notices = settings.phases.has('notices') ? await benchNotices(portal, encrypt, db, token, startPortal) : null;
    const replyPageRatio = hello && notices ? notices.page.reqPerSec / hello.reqPerSec : null;

    // 11. the OpenID Provider
    const oidc = settings.phases.has('oidc') ? await benchOidc(portal, encrypt, db) : null;

    // the server's own complaints during the run
    const serverErrors = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{') && /"level":(50|60)/.test(l));

    // 6. verdicts and report
    const infoRun = infoResult?.run ?? null;
    const infoRatio = hello && infoRun ? infoRun.reqPerSec / hello.reqPerSec : null;
    const loginRatio = login && argon2 ? login.loginsPerSec / argon2.perSec : null;
    const regionsRatio = hello && catalog ? catalog.regions.run.reqPerSec / hello.reqPerSec : null;
    const industriesRatio = hello && catalog ? catalog.industries.run.reqPerSec / hello.reqPerSec : null;
    const joinEntRatio = hello && switching ? switching.list.run.reqPerSec / hello.reqPerSec : null;
    const infoValid =
      !!infoRun && infoRun.non2xx === 0 && infoRun.errors === 0 && infoRun.mismatches === 0 && infoRun.timeouts === 0;
    const loginValid =
      !!login &&
      login.run.non2xx === 0 &&
      login.run.errors === 0 &&
      login.run.mismatches === 0 &&
      login.run.timeouts === 0 &&
      login.exhausted === 0;
    const allSucceeded = (r: RunSummary) =>
      r.non2xx === 0 && r.errors === 0 && r.mismatches === 0 && r.timeouts === 0 && r.responses > 0;
    const ratioOf = (r: { reqPerSec: number } | undefined) => (r && hello ? r.reqPerSec / hello.reqPerSec : null);
    const verdict = (valid: boolean, value: number | null, ok: (v: number) => boolean): Verdict =>
      value === null ? 'n/a' : !valid ? 'INVALID' : ok(value) ? 'PASS' : 'FAIL';
    const verdicts = {
      infoRatio: verdict(infoValid, infoRatio, (v) => v >= TARGETS.infoRatio),
      infoP99: verdict(infoValid, infoRun?.latencyMs.p99 ?? null, (v) => v <= TARGETS.infoP99Ms),
      infoNon2xx: infoRun ? (infoValid ? 'PASS' : 'INVALID') : 'n/a',
      loginRatio: verdict(loginValid, loginRatio, (v) => v >= TARGETS.loginRatio),
      loginNon2xx: login ? (loginValid ? 'PASS' : 'INVALID') : 'n/a',
      captchaGet: verdict(
        !!captcha && captcha.get.non2xx === 0 && captcha.get.mismatches === 0 && captcha.get.errors === 0,
        ratioOf(captcha?.get),
        (v) => v >= TARGETS.captchaGetRatio,
      ),
      captchaImage: verdict(
        !!captcha,
        captcha ? Math.max(captcha.sizeKb.blockPuzzleMax, captcha.sizeKb.clickWordMax) : null,
        (v) => v < TARGETS.captchaImageKb,
      ),
      // Ratios to hello; every answer must be a redirect with a ticket / a success.
      ssoIssue: verdict(
        !!sso && sso.issue.statusCodes['302'] === sso.issue.responses && sso.issue.errors === 0,
        ratioOf(sso?.issue),
        (v) => v >= TARGETS.ssoIssueRatio,
      ),
      ssoValidate: verdict(
        !!sso && sso.validate.non2xx === 0 && sso.validate.mismatches === 0 && sso.validate.errors === 0,
        ratioOf(sso?.validate),
        (v) => v >= TARGETS.ssoValidateRatio,
      ),
      captchaCheck: verdict(
        !!captcha && captcha.check.non2xx === 0 && captcha.check.mismatches === 0 && captcha.check.errors === 0,
        ratioOf(captcha?.check),
        (v) => v >= TARGETS.captchaCheckRatio,
      ),
      // No speed target for the pickers either: ratios reported; every answer must be a success.
      catalogRegions: catalog ? (allSucceeded(catalog.regions.run) ? 'PASS' : 'INVALID') : 'n/a',
      catalogIndustries: catalog ? (allSucceeded(catalog.industries.run) ? 'PASS' : 'INVALID') : 'n/a',
      // Nor for switching: every answer must be HTTP 200 with status 200 (a switch's also a new token).
      switchList: switching ? (allSucceeded(switching.list.run) ? 'PASS' : 'INVALID') : 'n/a',
      switchOne: switching
        ? switching.sequential.failures.length === 0 && switching.sequential.switches === settings.switchCount
          ? 'PASS'
          : 'INVALID'
        : 'n/a',
      switchMany: switching
        ? switching.parallel.failures.length === 0 &&
          switching.parallel.switches === settings.switchCount * switching.parallel.users
          ? 'PASS'
          : 'INVALID'
        : 'n/a',
      switchInfo: switching
        ? switching.infoSequential.failures.length === 0 && switching.infoSequential.calls > 0
          ? 'PASS'
          : 'INVALID'
        : 'n/a',
      // No speed target for notices either: every answer a success, every stream told.
      replyPage: notices ? (allSucceeded(notices.page) ? 'PASS' : 'INVALID') : 'n/a',
      delivery: notices
        ? notices.delivered === notices.streams && notices.recipients === notices.streams
          ? 'PASS'
          : 'INVALID'
        : 'n/a',
      // Nor for OpenID: a code in every 303, every token request and userinfo a success.
      oidcAuthorize: oidc
        ? oidc.authorize.statusCodes['303'] === oidc.authorize.responses && oidc.codes === oidc.authorize.responses
          ? 'PASS'
          : 'INVALID'
        : 'n/a',
      oidcExchange: oidc ? (allSucceeded(oidc.exchange) ? 'PASS' : 'INVALID') : 'n/a',
      oidcRefresh: oidc ? (allSucceeded(oidc.refresh) ? 'PASS' : 'INVALID') : 'n/a',
      oidcClientCredentials: oidc ? (allSucceeded(oidc.clientCredentials) ? 'PASS' : 'INVALID') : 'n/a',
      oidcUserinfo: oidc ? (allSucceeded(oidc.userinfo) ? 'PASS' : 'INVALID') : 'n/a',
    } satisfies Record<string, Verdict>;

    const results = {
      machine: info,
      settings: { ...settings, phases: [...settings.phases] },
      targets: TARGETS,
      hello,
      infoV2: infoRun,
      infoV2Db: dbPerInfo,
      argon2,
      passkeys,
      login,
      captcha,
      sso,
      catalog,
      switching,
      notices: notices && { ...notices, page: undefined, replyPage: notices.page },
      oidc,
      ratios: {
        infoOverHello: infoRatio === null ? null : round(infoRatio, 3),
        loginOverArgon2: loginRatio === null ? null : round(loginRatio, 3),
        regionsOverHello: regionsRatio === null ? null : round(regionsRatio, 3),
        industryTreeOverHello: industriesRatio === null ? null : round(industriesRatio, 3),
        joinEntListOverHello: joinEntRatio === null ? null : round(joinEntRatio, 3),
        replyPageOverHello: replyPageRatio === null ? null : round(replyPageRatio, 3),
        ...(oidc && hello
          ? {
              oidcAuthorizeOverHello: round(oidc.authorize.reqPerSec / hello.reqPerSec, 3),
              oidcExchangeOverHello: round(oidc.exchange.reqPerSecWall / hello.reqPerSec, 3),
              oidcRefreshOverHello: round(oidc.refresh.reqPerSecWall / hello.reqPerSec, 3),
              oidcClientCredentialsOverHello: round(oidc.clientCredentials.reqPerSec / hello.reqPerSec, 3),
              oidcUserinfoOverHello: round(oidc.userinfo.reqPerSec / hello.reqPerSec, 3),
            }
          : {}),
      },
      verdicts,
      serverErrorLines: serverErrors.slice(0, 20),
    };

    const md = `
Generated by \`npm run bench -w bench\` (bench/run.ts) on ${info.date}. Raw numbers: \`bench/results/latest.json\`.

| Machine | |
|---|---|
| CPUs (nproc) | ${info.nproc} × ${info.cpuModel} |
| Memory | ${info.memoryGiB} GiB |
| Node | ${info.node} |
| Code | ${info.git} |
| Load average at start | ${info.loadAvgAtStart} |
| Kernel | ${info.kernel} |
| Date | ${info.date} |

| Measurement | Value | Target | Result |
|---|---:|---:|:---:|
| Fastify hello world, ${settings.connections} connections, ${settings.duration} s | ${fmt(hello?.reqPerSec)} req/s (p99 ${fmt(hello?.latencyMs.p99, 2)} ms) | baseline | |
| \`GET ${INFO_PATH}\` (signed, authenticated), ${settings.connections} connections, ${settings.duration} s | ${fmt(infoRun?.reqPerSec)} req/s | | |
| infoV2 / hello | ${fmt(infoRatio, 3)} | ≥ ${TARGETS.infoRatio} | ${verdicts.infoRatio} |
| infoV2 latency p50 / p99 | ${fmt(infoRun?.latencyMs.p50, 2)} / ${fmt(infoRun?.latencyMs.p99, 2)} ms | p99 ≤ ${TARGETS.infoP99Ms} ms | ${verdicts.infoP99} |
| infoV2 non-2xx / errors / timeouts / body mismatches | ${infoRun ? `${infoRun.non2xx} / ${infoRun.errors} / ${infoRun.timeouts} / ${infoRun.mismatches}` : 'n/a'} (of ${fmt(infoRun?.responses)}) | 0 | ${verdicts.infoNon2xx} |
| argon2id verify (${argon2?.params ?? 'n/a'}), concurrency ${settings.argon2Concurrency} on ${process.env.UV_THREADPOOL_SIZE} threadpool threads (as the portal), in process | ${fmt(argon2?.perSec, 1)} verifies/s | ceiling for logins | |
| Passkey assertion verifications (ES256, user verification required), concurrency ${settings.argon2Concurrency}, in process | ${fmt(passkeys?.perSec, 1)} verifications/s (× ${fmt(passkeys?.ratioToArgon2, 2)} argon2id verifies) | | |
| TOTP code checks (stored secret decrypted, RFC 6238 within ±1 step, as the factor step; no database statements), one thread, in process | ${fmt(passkeys?.totp.perSec, 1)} checks/s (× ${fmt(passkeys?.totp.ratioToArgon2, 2)} argon2id verifies) | | |
| Logins (\`POST /api/auth/jwt/front/token\`), ${settings.loginConnections} connections, ${settings.loginDuration} s | ${fmt(login?.loginsPerSec, 1)} logins/s (p50 ${fmt(login?.run.latencyMs.p50, 1)} ms, p99 ${fmt(login?.run.latencyMs.p99, 1)} ms) | | |
| login / argon2 | ${fmt(loginRatio, 3)} | ≥ ${TARGETS.loginRatio} | ${verdicts.loginRatio} |
| Login non-2xx / errors / timeouts / mismatches | ${login ? `${login.run.non2xx} / ${login.run.errors} / ${login.run.timeouts} / ${login.run.mismatches}` : 'n/a'} (of ${fmt(login?.run.responses)}; ${login?.captchas ?? 'n/a'} captchas pre-fetched at ${fmt(login?.captchaPerSec, 1)}/s) | 0 | ${verdicts.loginNon2xx} |
| Captcha \`get\` (slider puzzle, drawn per request), 8 connections, ${settings.duration} s | ${fmt(captcha?.get.reqPerSec, 1)} puzzles/s (p99 ${fmt(captcha?.get.latencyMs.p99, 1)} ms; ratio to hello ${fmt(ratioOf(captcha?.get), 4)}) | ratio ≥ ${TARGETS.captchaGetRatio} | ${verdicts.captchaGet} |
| Captcha image PNG, mean / max of 20 (slider background; click-word) | ${captcha ? `${captcha.sizeKb.blockPuzzleMean} / ${captcha.sizeKb.blockPuzzleMax} KB; ${captcha.sizeKb.clickWordMean} / ${captcha.sizeKb.clickWordMax} KB` : 'n/a'} | < ${TARGETS.captchaImageKb} KB | ${verdicts.captchaImage} |
| Captcha \`check\` (correct slider answers, AES), ${settings.connections} connections, ${settings.duration} s | ${fmt(captcha?.check.reqPerSec)} checks/s (p99 ${fmt(captcha?.check.latencyMs.p99, 1)} ms; ratio to hello ${fmt(ratioOf(captcha?.check), 3)}; non-2xx / mismatches ${captcha ? `${captcha.check.non2xx} / ${captcha.check.mismatches}` : 'n/a'}) | ratio ≥ ${TARGETS.captchaCheckRatio} | ${verdicts.captchaCheck} |
| Sign-on: ticket for a live SSO session (\`GET /cas/login\` → 302), ${settings.connections} connections, ${settings.duration} s | ${fmt(sso?.issue.reqPerSec)} req/s (p99 ${fmt(sso?.issue.latencyMs.p99, 1)} ms; ratio to hello ${fmt(ratioOf(sso?.issue), 3)}; non-302 ${sso ? sso.issue.responses - (sso.issue.statusCodes['302'] ?? 0) : 'n/a'}) | ratio ≥ ${TARGETS.ssoIssueRatio}, all 302 | ${verdicts.ssoIssue} |
| Sign-on: \`/cas/p3/serviceValidate\` (JSON, each ticket once), ${settings.connections} connections, ${settings.duration} s | ${fmt(sso?.validate.reqPerSec)} req/s (p99 ${fmt(sso?.validate.latencyMs.p99, 1)} ms; ratio to hello ${fmt(ratioOf(sso?.validate), 3)}; non-2xx / mismatches ${sso ? `${sso.validate.non2xx} / ${sso.validate.mismatches}` : 'n/a'}) | ratio ≥ ${TARGETS.ssoValidateRatio}, all successes | ${verdicts.ssoValidate} |
${cpuRow('infoV2', infoRun?.cpu)}${cpuRow('logins', login?.run.cpu)}${cpuRow('captcha checks', captcha?.check.cpu)}${cpuRow('ticket validation', sso?.validate.cpu)}${
      dbPerInfo
        ? `| infoV2 database work per request | ${dbPerInfo.statementsPerRequest} statements, ${dbPerInfo.rowsInsertedPerRequest} rows inserted${dbPerInfo.walFsyncsPerRequest !== null ? `, ${dbPerInfo.walFsyncsPerRequest} WAL fsyncs` : ''} | | |\n`
        : ''
    }${
      catalog
        ? `
Registration pickers (no speed target is set: the numbers and ratios are reported; every answer must be a success),
${settings.connections} connections, ${settings.duration} s each, in the same run as the hello baseline above:

| Catalog endpoint (signed, public) | req/s | / hello | p50 / p99 ms | non-2xx / errors / timeouts / mismatches | CPU % portal / PostgreSQL / autocannon / other | Result |
|---|---:|---:|---:|---:|---:|:---:|
${catalogRow(`\`GET ${REGION_PATH}?qhCode=…\`, ${REGION_CODES.length} codes of all levels in turn, code (nodes answered): ${catalog.regions.answers.map((a) => `${a.code} (${a.nodes})`).join(', ')}; ${fmt(catalog.regions.meanBytes / 1024, 1)} KB per answer on average`, catalog.regions.run, regionsRatio, verdicts.catalogRegions)}${catalogRow(`\`GET ${INDUSTRY_TREE_PATH}\`, the whole tree (${fmt(catalog.industries.nodes)} nodes, ${fmt(catalog.industries.kb, 1)} KB without gzip)`, catalog.industries.run, industriesRatio, verdicts.catalogIndustries)}`
        : ''
    }${
      switching
        ? `
Context switching (no speed target is set: the numbers are reported; every answer must be HTTP 200 with status 200),
demo user \`admin\` (${switching.list.total} enterprises joined; roles ${switching.roles.join(', ')}), in the same run as the hello baseline above:

| Enterprises of the caller (signed, authenticated) | req/s | / hello | p50 / p99 ms | non-2xx / errors / timeouts / mismatches | CPU % portal / PostgreSQL / autocannon / other | Result |
|---|---:|---:|---:|---:|---:|:---:|
${catalogRow(`\`GET ${JOIN_ENT_PATH}\` as admin (${switching.list.rows} of ${switching.list.total} rows, ${fmt(switching.list.kb, 1)} KB), ${settings.connections} connections, ${settings.duration} s`, switching.list.run, joinEntRatio, verdicts.switchList)}
| One request in flight per user (signed, authenticated) | calls/s | p50 / p99 ms | refused or not reached | Result |
|---|---:|---:|---:|:---:|
${sequentialRow(`\`POST ${SWITCH_PATH}\` \`{roleId}\`, the two roles in turn, one user, ${settings.switchCount} switches in a row (each with the token the one before answered)`, switching.sequential, settings.switchCount, verdicts.switchOne)}${sequentialRow(`the same, ${switching.parallel.users} users at once (copies of admin), ${settings.switchCount} switches in a row each; CPU % portal / PostgreSQL / bench / other ${switching.parallel.cpu.serverPct} / ${switching.parallel.cpu.postgresPct} / ${switching.parallel.cpu.benchPct} / ${switching.parallel.cpu.foreignPct}`, switching.parallel, settings.switchCount * switching.parallel.users, verdicts.switchMany)}${sequentialRow(`for comparison: \`GET ${INFO_PATH}\`, one user, ${settings.switchCount} calls in a row, in the same minute`, { switches: switching.infoSequential.calls, perSec: null, latencyMs: switching.infoSequential.latencyMs }, settings.switchCount, verdicts.switchInfo)}
A switch is one rate-limit hit (\`switch:user:<id>\`, asynchronous commit), then one transaction on the main pool
(synchronous commit) that locks the old session, checks the role is held, writes the new session, revokes the old one and
writes an audit row; then it publishes an invalidation (\`pg_notify\`) so that every instance refuses the old token (the
chain's first token ${switching.sequential.oldTokenRefused ? 'answered HTTP 401' : 'was NOT refused'} after the chain). Its answer is the next switch's token, so one user's switches form a
sequential chain. The server allows ${SWITCHES_PER_HOUR} switches per user and hour (429 beyond): the bench deletes the users'
\`rate_limits\` rows before each chain (after an unmeasured warm-up). Single calls go through \`fetch\` (keep-alive), timed from
sending to the whole answer, signed before the clock starts.
`
        : ''
    }${
      notices
        ? `
Notices (no speed target is set: every answer must succeed and every stream be told), in the same run:

| Notices of the caller (signed, authenticated) | req/s | / hello | p50 / p99 ms | non-2xx / errors / timeouts / mismatches | CPU % portal / PostgreSQL / autocannon / other | Result |
|---|---:|---:|---:|---:|---:|:---:|
${catalogRow(`\`POST /api/front/letter/replyPage\` \`{page: 1, limit: 10}\` as member, ${settings.connections} connections, ${settings.duration} s`, notices.page, replyPageRatio, verdicts.replyPage)}
| Live streams on one instance | value | Result |
|---|---:|:---:|
| ${fmt(notices.streams)} open event streams (one user each) on an instance of their own: live JavaScript heap + external memory after full collections, before → after | ${fmt(notices.memoryBefore.heapKb + notices.memoryBefore.externalKb)} → ${fmt(notices.memoryAfter.heapKb + notices.memoryAfter.externalKb)} kB, **${fmt(notices.kbPerStream, 1)} kB per stream** | |
| the same instance's resident memory, before → after | ${fmt(notices.memoryBefore.rssKb)} → ${fmt(notices.memoryAfter.rssKb)} kB, ${fmt(notices.rssKbPerStream, 1)} kB per stream | |
| one notice published to their ${fmt(notices.recipients)} users on the other instance: the publish call | ${fmt(notices.publishMs, 1)} ms | |
| time from publishing until each stream has its event, p50 / p99 / last (${fmt(notices.delivered)} of ${fmt(notices.streams)} told) | ${fmt(notices.deliveryMs.p50, 1)} / ${fmt(notices.deliveryMs.p99, 1)} / ${fmt(notices.deliveryMs.max, 1)} ms | ${verdicts.delivery} |
`
        : ''
    }${
      oidc
        ? `
OpenID Connect (no speed target is set: every answer must succeed), the demo tenant's provider (\`/oidc/demo\`), one
confidential first-party client (\`client_secret_basic\`) and one user signed in through the real flow (authorization
request, interaction, the sign-on page's form), ${settings.connections} connections, in the same run as the hello baseline above:

| OpenID endpoint | req/s | / hello | p50 / p99 ms | refused / errors / timeouts / mismatches | CPU % portal / PostgreSQL / autocannon / other | Result |
|---|---:|---:|---:|---:|---:|:---:|
${rateRow(`a. authorization request with the live session (\`GET /oidc/demo/auth\`, PKCE S256 → 303 with a code), ${settings.duration} s`, oidc.authorize, oidc.authorize.reqPerSec, hello && oidc.authorize.reqPerSec / hello.reqPerSec, oidc.authorize.responses - (oidc.authorize.statusCodes['303'] ?? 0), verdicts.oidcAuthorize)}${rateRow(`b. code exchange (\`POST /oidc/demo/token\`, \`authorization_code\` + \`code_verifier\` → ES256 ID token, access and refresh token), each of the ${fmt(oidc.codes)} codes of a. once*`, oidc.exchange, oidc.exchange.reqPerSecWall, hello && oidc.exchange.reqPerSecWall / hello.reqPerSec, oidc.exchange.non2xx, verdicts.oidcExchange)}${rateRow(`c. refresh (\`refresh_token\`, rotated: a new refresh and access token each), each of the ${fmt(oidc.refreshTokens)} refresh tokens of b. once*`, oidc.refresh, oidc.refresh.reqPerSecWall, hello && oidc.refresh.reqPerSecWall / hello.reqPerSec, oidc.refresh.non2xx, verdicts.oidcRefresh)}${rateRow(`d. client credentials (\`client_credentials\` → an access token, no user), ${settings.duration} s`, oidc.clientCredentials, oidc.clientCredentials.reqPerSec, hello && oidc.clientCredentials.reqPerSec / hello.reqPerSec, oidc.clientCredentials.non2xx, verdicts.oidcClientCredentials)}${rateRow(`e. userinfo (\`GET /oidc/demo/me\`, Bearer; the ${fmt(oidc.accessTokens)} access tokens of c. in turn), ${settings.duration} s`, oidc.userinfo, oidc.userinfo.reqPerSec, hello && oidc.userinfo.reqPerSec / hello.reqPerSec, oidc.userinfo.non2xx, verdicts.oidcUserinfo)}
Marked *: rated by responses over the time from the first request to the last response: the run ends when its one-use codes or
tokens are spent (or after ${settings.duration} s); the others are autocannon's mean of per-second counts.

| OpenID endpoint | portal CPU per request | PostgreSQL CPU per request | PostgreSQL transactions per request | rows inserted per request |
|---|---:|---:|---:|---:|
${(['authorize', 'exchange', 'refresh', 'clientCredentials', 'userinfo'] as const)
  .map(
    (k, i) =>
      `| ${'abcde'[i]}. ${{ authorize: 'authorization request', exchange: 'code exchange', refresh: 'refresh', clientCredentials: 'client credentials', userinfo: 'userinfo' }[k]} | ${fmt(oidc.cpuPerRequest[k]!.portalMs, 2)} ms | ${fmt(oidc.cpuPerRequest[k]!.postgresMs, 2)} ms | ${fmt(oidc.db[k]!.statementsPerRequest, 2)} | ${fmt(oidc.db[k]!.rowsInsertedPerRequest, 2)} |`,
  )
  .join('\n')}

CPU per request is the process tree's CPU time from \`/proc\` over the run (portal: the server process; PostgreSQL: its
processes) divided by the responses, in milliseconds of one core. Transactions are PostgreSQL's committed and rolled-back
transactions of the database (\`pg_stat_database\`), counted between runs after PostgreSQL's statistics settled (11 s): a
statement outside a transaction is one, a transaction of several statements is one too, so they are a lower bound of
round trips. Before the measured runs, every path ran unmeasured for ${settings.warmup} s (the chain in small).
`
        : ''
    }
How it is measured: both servers run in their own Node process (\`bench/hello-server.mjs\`, and the built
\`apps/server/dist/programs/server/main.js\` with \`LOG_LEVEL=warn\`, \`PORTAL_TEST_CAPTCHA=1\`, rate limits lifted) on a fresh
embedded PostgreSQL; autocannon runs in the bench process on the same cores, after an unmeasured
${settings.warmup} s warm-up (for infoV2 followed by an 11 s pause, so that PostgreSQL's statistics of the
measured requests start clean). Every infoV2, catalog, switching and login request carries its own nonce, timestamp
and HMAC signature (a region request over its own \`qhCode\`); every login also its own RSA-OAEP ciphertext
and an unused captcha. They are made just before each run (well inside the 300 s window) and handed out
by autocannon's \`setupRequest\`, so that the load generator's signing and RSA work does not take the
cores from the portal. The raw argon2 baseline runs with the portal's threadpool size (one thread per core).
Bodies are checked (\`verifyBody\`), so a refused request can't pass as a measurement. Latency
percentiles come from every response's own time. req/s is autocannon's mean of per-second counts;
logins/s is successful logins divided by the time from first request to last response.
`;
    if (all) {
      await writeJson('latest.json', results);
      await writeMarkdown(md);
      log('wrote BENCHMARKS.md and bench/results/latest.json');
    } else {
      await writeJson('partial.json', results);
      log('partial run (BENCH_PHASES): wrote bench/results/partial.json; BENCHMARKS.md left as it was');
    }

    // summary
    printTables(md);
    if (serverErrors.length) log(`the portal logged ${serverErrors.length} error lines, e.g. ${serverErrors[0]}`);
    const invalid = Object.values(verdicts).includes('INVALID');
    const failed = Object.values(verdicts).includes('FAIL');
    if (invalid) log('INVALID run: some requests were refused; the numbers above do not measure the real path');
    return invalid || (settings.strict && failed) ? 1 : 0;
  } finally {
    await cleanup();
    log('stopped the portal and PostgreSQL; removed the temporary directory');
  }
}

runMain('bench', main);
