/**
 * Browser benchmark of the portal's shell (side menu + tab strip with keep-alive), in one run
 * (`npm run shell -w bench` after a build; the build in apps/server/dist and apps/web/dist is used):
 *
 *   1. embedded PostgreSQL in a temporary directory, migrated, demo seeded, plus a 2,000-entry menu
 *      for role ent_member of tenant demo (20 roots × 9 directories × 10 keep-alive pages)
 *   2. the BUILT portal (apps/server/dist/programs/server/main.js, own process) with keep-alive on, test captcha
 *   3. in Chromium (playwright-core, e2e/support/browser.ts's flags):
 *      a. JS + CSS of the login page (raw and gzip -9 of the decoded bodies)
 *      b. JS + CSS of the first screen after login (/center/index loaded with a stored session)
 *      c. login → first screen (tab strip and 2,000-entry side menu rendered), median of 5
 *      d. tab switch at 30 open tabs: click → selected, panel shown, next painted frame; against a
 *         button that does nothing, clicked the same way in the same page
 *      e. JS heap, DOM nodes and listeners on home, with 100 tabs open, after closing them all
 *      f. Lighthouse (mobile profile) on the login page: performance and accessibility scores
 *      h. the open dashboard's JS (gzip) and the work screen's time to its first full frame (ADR 027)
 *      i. the drag-page builder with a 50-widget page: frame times while a widget is dragged across
 *         the canvas, against the same pointer moves without a drag (ADR 028)
 *   4. BENCHMARKS.md (generated block) + bench/results/shell.json
 *
 * Settings by environment variable: see `settings` in bench/shell/settings.ts. This file prepares the
 * database and the portal, runs the phases in order and writes the report; the phases are in
 * bench/shell/phases/, their shared helpers in bench/shell/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { connect, migrateDb } from '../apps/server/src/db/client.js';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { ensureDatabase } from '../apps/server/src/db/open.js';
import { seedDemo } from '../apps/server/src/db/demo/seed.js';
import { hashPassword } from '../apps/server/src/platform/passwords.js';
import { kb, type Asset } from '../e2e/support/assets.js';
import { launch } from '../e2e/support/browser.js';
import { stopOnSignal } from './child.js';
import { machine, median, round, runMain } from './common.js';
import { printTables, writeBlock } from './report.js';
import { seedBenchMenu } from './shell/menu.js';
import { measureBuilder, seedBuilderPage } from './shell/phases/builder.js';
import { measureFirstScreen, measureLoginPage } from './shell/phases/bytes.js';
import { measureCycles } from './shell/phases/cycles.js';
import { measureDashboard, measureWorkScreen } from './shell/phases/dashboard.js';
import { measureLighthouse } from './shell/phases/lighthouse.js';
import { measureLogin, type LoginRun } from './shell/phases/login.js';
import { measureMemory, type Memory } from './shell/phases/memory.js';
import { measureSwitch } from './shell/phases/switch.js';
import { startServer } from './shell/server.js';
import {
  DEMO_PASSWORD,
  LIGHTHOUSE_VERSION,
  log,
  MENU,
  RESULTS_DIR,
  RUNTIME,
  SERVER_MAIN,
  settings,
  TARGETS,
  WEB_INDEX,
} from './shell/settings.js';

/** The machine (common facts) and the browser measured. */
function machineAndBrowser() {
  let chromium = 'unknown';
  try {
    chromium = execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // reported as unknown
  }
  return { ...machine(), chromium };
}

type Verdict = 'PASS' | 'FAIL';
const verdict = (ok: boolean): Verdict => (ok ? 'PASS' : 'FAIL');

async function main(): Promise<number> {
  for (const [file, what] of [
    [SERVER_MAIN, 'the server'],
    [WEB_INDEX, 'the web app'],
  ] as const) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build ${what} first (npm run build)`);
  }
  const info = machineAndBrowser();
  log(`${info.nproc} CPUs (${info.cpuModel}), Node ${info.node}, ${info.chromium}, ${info.date}`);

  const { cleanups, cleanup } = stopOnSignal(log);

  const started = performance.now();
  try {
    // 1. database with the demo and the 2,000-entry menu
    const tmp = await mkdtemp(join(tmpdir(), 'portal-shell-bench-'));
    cleanups.push(() => rm(tmp, { recursive: true, force: true }));
    if (userInfo().uid === 0) await chmod(tmp, 0o755); // postgres runs as `postgres` and must enter it
    const quiet = { info: () => {}, warn: (m: string) => log(`postgres: ${m}`), debug: () => {} };
    const pg = await startEmbeddedPostgres(join(tmp, 'db'), quiet);
    cleanups.push(() => pg.stop());
    await ensureDatabase(pg.url(), 'portal');
    const databaseUrl = pg.url('portal');
    const db = connect(databaseUrl, 2);
    cleanups.push(() => db.$client.end());
    await migrateDb(db);
    await seedDemo(db, { passwordHash: await hashPassword(DEMO_PASSWORD) });
    await seedBuilderPage(db);
    const t0 = performance.now();
    const leaves = await seedBenchMenu(db);
    const seedMs = round(performance.now() - t0, 0);
    log(`embedded PostgreSQL in ${tmp}/db; 2,000 menu entries for ent_member inserted in ${seedMs} ms`);

    // 2. the portal
    const server = await startServer(databaseUrl, join(tmp, 'server'));
    cleanups.push(async () => {
      const code = await server.stop();
      if (code !== 0) {
        const tail = server.output().trim().split('\n').slice(-20).join('\n');
        log(`portal exited with ${code}${tail ? `; its last output:\n${tail}` : ''}`);
      }
    });

    // 3. Chromium
    const browser = await launch();
    cleanups.push(() => browser.close());

    log('a. login page bytes');
    const loginPage = await measureLoginPage(browser, server.url);
    log(`   ${loginPage.total.count} files, ${kb(loginPage.total.gzip)} KB gzip, ${kb(loginPage.total.raw)} KB raw`);

    log('b. first screen bytes');
    const first = await measureFirstScreen(browser, server.url);
    log(`   ${first.total.count} files, ${kb(first.total.gzip)} KB gzip, ${kb(first.total.raw)} KB raw`);

    log(`c. login → first screen, ${settings.logins} times`);
    const logins: LoginRun[] = [];
    for (let i = 0; i < settings.logins; i++) {
      const run = await measureLogin(browser, server.url);
      logins.push(run);
      log(`   ${run.ms} ms (token at ${run.tokenMs} ms, menu at ${run.menuMs} ms, ${kb(run.menuBytes ?? 0)} KB menu)`);
    }
    const loginMedian = round(median(logins.map((r) => r.ms)), 1);

    log(`d. tab switches at ${settings.switchTabs} open tabs`);
    const sw = await measureSwitch(browser, server.url, leaves);
    log(
      `   median ${sw.medianMs} ms (shown at ${sw.readyMedianMs} ms), p95 ${sw.p95Ms} ms; baseline ${sw.baselineMedianMs} ms; ratio ${sw.ratio}; ` +
        `${sw.aliveCount} kept alive (median ${sw.aliveMedianMs} ms), ${sw.remountCount} mounted again (median ${sw.remountMedianMs} ms)`,
    );

    log(`e. memory with ${settings.memoryTabs} tabs`);
    const mem = await measureMemory(browser, server.url, leaves);
    log(
      `   memory ${mem.comesBack ? 'comes back' : 'does NOT come back'}: ${mem.baseline.heapUsedMb} → ` +
        `${mem.open.heapUsedMb} → ${mem.closed.heapUsedMb} MB, after a second round ${mem.closedAgain.heapUsedMb} MB ` +
        `(growth ${mem.roundGrowthMb} MB)`,
    );

    log('g. a sub-application tab and a frame tab, 20 open/close cycles each');
    const cycles = await measureCycles(browser, server.url);
    for (const c of cycles) log(`   ${c.path}: ${c.firstMb} → ${c.lastMb} MB`);

    log('h. the open dashboard bytes, the work screen to its first full frame');
    const dashboard = await measureDashboard(browser, server.url);
    log(`   dashboard: ${dashboard.js.count} JS files, ${kb(dashboard.js.gzip)} KB gzip`);
    const workScreenRuns: number[] = [];
    for (let i = 0; i < settings.workScreenRuns; i++) workScreenRuns.push(await measureWorkScreen(browser, server.url));
    const workScreenMs = round(median(workScreenRuns), 1);
    log(`   work screen ready at ${workScreenRuns.join(', ')} ms (median ${workScreenMs} ms)`);

    log(`i. the builder with 50 widgets: a drag of ${settings.builderMoves} pointer steps`);
    const builder = await measureBuilder(browser, server.url);
    const builderRatio = round(builder.drag.p95Ms / builder.baseline.p95Ms, 2);
    log(
      `   drag frames median ${builder.drag.medianMs} ms, p95 ${builder.drag.p95Ms} ms (${builder.drag.frames} frames); ` +
        `baseline median ${builder.baseline.medianMs} ms, p95 ${builder.baseline.p95Ms} ms; p95 ratio ${builderRatio}`,
    );

    log(`f. Lighthouse (mobile profile) on the login page, ${settings.lighthouseRuns} runs`);
    const lh = await measureLighthouse(server.url, settings.lighthouseRuns);
    log(`   performance ${lh.runs.map((r) => r.performance).join(', ')}; accessibility ${lh.median.accessibility}`);

    const serverErrors = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{') && /"level":(50|60)/.test(l));

    // 4. verdicts and report
    const verdicts = {
      loginPageBytes: verdict(kb(loginPage.total.gzip) <= TARGETS.loginPageGzipKb),
      firstScreenBytes: verdict(kb(first.total.gzip) <= TARGETS.firstScreenGzipKb),
      switchMedian: verdict(sw.medianMs < TARGETS.switchMs),
      switchP95: verdict(sw.p95Ms < TARGETS.switchMs),
      memoryComesBack: verdict(mem.comesBack),
      cyclesComeBack: verdict(cycles.every((c) => c.comesBack)),
      lighthousePerformance: verdict(lh.median.performance >= TARGETS.lighthousePerformance),
      lighthouseAccessibility: verdict(lh.median.accessibility >= TARGETS.lighthouseAccessibility),
    } satisfies Record<string, Verdict>;

    const results = {
      machine: info,
      settings,
      targets: TARGETS,
      runtimeConfig: RUNTIME,
      menu: { ...MENU, entries: MENU.roots * (1 + MENU.dirs * (1 + MENU.leaves)), seedMs },
      loginPage,
      firstScreen: first,
      login: { runs: logins, medianMs: loginMedian },
      tabSwitch: sw,
      memory: mem,
      cycles,
      lighthouse: lh,
      dashboard,
      workScreen: { runs: workScreenRuns, medianMs: workScreenMs },
      builder: { ...builder, p95Ratio: builderRatio },
      verdicts,
      serverErrorLines: serverErrors.slice(0, 20),
      durationS: round((performance.now() - started) / 1000, 1),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    await writeFile(join(RESULTS_DIR, 'shell.json'), JSON.stringify(results, null, 2) + '\n');

    const files = (list: Asset[], n: number) =>
      list
        .slice(0, n)
        .map((f) => `\`${f.path.replace(/^.*\//, '')}\` ${kb(f.gzip)}`)
        .join(', ');
    const memRow = (what: string, m: Memory) =>
      `| ${what} | ${m.tabs} | ${m.heapUsedMb} MB | ${m.nodes} | ${m.listeners} | ${m.menuItems} / ${m.subMenus} |\n`;
    const md = `
Generated by \`npm run shell -w bench\` (bench/shell.ts) on ${info.date}. Raw numbers: \`bench/results/shell.json\`.
Machine: ${info.nproc} × ${info.cpuModel}, ${info.memoryGiB} GiB, Node ${info.node}, ${info.chromium}, code ${info.git}.

Menu of role ent_member: the demo menu plus ${results.menu.entries} entries (${MENU.roots} roots × ${MENU.dirs} directories × ${MENU.leaves} keep-alive pages); runtime config \`${JSON.stringify(RUNTIME)}\` (keepAliveMax ${sw.keepAliveMax}).

| Measurement | Value | Target | Result |
|---|---:|---:|:---:|
| a. Login page JS + CSS (${loginPage.js.count} JS, ${loginPage.css.count} CSS) | ${kb(loginPage.total.gzip)} KB gzip (${kb(loginPage.total.raw)} KB raw) | ≤ ${TARGETS.loginPageGzipKb} KB gzip | ${verdicts.loginPageBytes} |
| b. First screen after login JS + CSS (${first.js.count} JS, ${first.css.count} CSS) | ${kb(first.total.gzip)} KB gzip (${kb(first.total.raw)} KB raw) | ≤ ${TARGETS.firstScreenGzipKb} KB gzip | ${verdicts.firstScreenBytes} |
| c. Login → first screen (tab strip + side menu of ${results.menu.entries} entries), median of ${logins.length} | ${loginMedian} ms (runs ${logins.map((r) => r.ms).join(', ')}; token answered at ${median(logins.map((r) => r.tokenMs ?? NaN))} ms, menu at ${median(logins.map((r) => r.menuMs ?? NaN))} ms, ${kb(logins[0]?.menuBytes ?? 0)} KB) | | |
| d. Tab switch at ${sw.openTabs - 1} open tabs (+ home), ${sw.switches.length} switches: median | ${sw.medianMs} ms (tab selected and panel shown at ${sw.readyMedianMs} ms) | < ${TARGETS.switchMs} ms | ${verdicts.switchMedian} |
| d. Tab switch p95 (max ${sw.maxMs} ms) | ${sw.p95Ms} ms | < ${TARGETS.switchMs} ms | ${verdicts.switchP95} |
| d. Kept-alive tab / tab mounted again (beyond keepAliveMax), median | ${sw.aliveMedianMs ?? 'n/a'} ms (${sw.aliveCount}) / ${sw.remountMedianMs ?? 'n/a'} ms (${sw.remountCount}) | | |
| d. Baseline: click on a button that does nothing → next painted frame, median | ${sw.baselineMedianMs} ms | | |
| d. Tab switch / baseline | ${sw.ratio} | | |
| e. JS heap after closing ${settings.memoryTabs} tabs / on home before (first round; with ${settings.memoryTabs} tabs open ${mem.openRatio}) | ${mem.closedRatio} (${mem.closedDeltaMb >= 0 ? '+' : ''}${mem.closedDeltaMb} MB) | | |
| e. Growth from the first round's close to a second round's: memory ${mem.comesBack ? 'comes back' : 'does not come back'} | ${mem.roundGrowthMb >= 0 ? '+' : ''}${mem.roundGrowthMb} MB | ≤ 10 % or 2 MB | ${verdicts.memoryComesBack} |
${cycles.map((c) => `| g. \`${c.path}\`: JS heap after the first / the 20th open-and-close of its tab | ${c.firstMb} → ${c.lastMb} MB (${c.growthMb >= 0 ? '+' : ''}${c.growthMb}) | ≤ 10 % or 2 MB | ${verdict(c.comesBack)} |`).join('\n')}
| f. Lighthouse performance, mobile profile, login page (median of ${lh.runs.length}: ${lh.runs.map((r) => r.performance).join(', ')}) | ${lh.median.performance} (first contentful paint ${lh.median.fcpMs} ms, largest ${lh.median.lcpMs} ms, blocking time ${lh.median.tbtMs} ms, speed index ${lh.median.speedIndexMs} ms, layout shift ${lh.median.cls}) | ≥ ${TARGETS.lighthousePerformance} | ${verdicts.lighthousePerformance} |
| f. Lighthouse accessibility, login page | ${lh.median.accessibility} | ${TARGETS.lighthouseAccessibility} | ${verdicts.lighthouseAccessibility} |
| h. Open dashboard (\`/user/dashboard\`) JS, ${dashboard.js.count} files (with CSS: ${kb(dashboard.total.gzip)} KB) | ${kb(dashboard.js.gzip)} KB gzip (${kb(dashboard.js.raw)} KB raw) | | |
| h. Work screen: navigation start → first figures drawn in every chart, median of ${workScreenRuns.length} | ${workScreenMs} ms (runs ${workScreenRuns.join(', ')}) | | |
| i. Builder, 50 widgets: frame interval while dragging one across the canvas (${settings.builderMoves} pointer steps, ${builder.drag.frames} frames): median / p95 / max | ${builder.drag.medianMs} / ${builder.drag.p95Ms} / ${builder.drag.maxMs} ms | | |
| i. Baseline: the same pointer steps without a drag: median / p95 | ${builder.baseline.medianMs} / ${builder.baseline.p95Ms} ms | | |
| i. Drag p95 / baseline p95 | ${builderRatio} | | |

| Memory (after 2 forced GCs) | Tabs | JS heap used | DOM nodes | JS event listeners | Side-menu items / submenus in the DOM |
|---|---:|---:|---:|---:|---:|
${memRow('e. Home after login (baseline)', mem.baseline)}${memRow(`e. ${settings.memoryTabs} tabs open`, mem.open)}${memRow('e. After 关闭全部', mem.closed)}${memRow('e. After a second round, 关闭全部', mem.closedAgain)}
Largest files, KB gzip — login page: ${files(loginPage.files, 6)}; first screen: ${files(first.files, 6)}; dashboard: ${files(dashboard.files, 4)}.

How it is measured: the built portal (\`apps/server/dist/programs/server/main.js\`, \`NODE_ENV=test\`, \`PORTAL_TEST_CAPTCHA=1\`) on a
fresh embedded PostgreSQL, driven by headless Chromium through playwright-core on the same cores. Bytes
are the decoded bodies of every script and stylesheet response (cache disabled through CDP), gzipped here
at level 9, so they do not depend on what the server negotiated. Login time is the page's clock from the
Enter key to the frame in which the tab strip and the side menu (with its last root) are shown, in a fresh
browser context each time. A switch is timed in the page: \`performance.now()\` before \`tab.click()\`, until
the tab is \`aria-selected\` and its panel visible, then one \`requestAnimationFrame\` and \`setTimeout(0)\`;
the baseline is the same for a button that does nothing, clicked after each switch. Tabs are picked at
random (seeded) among the ${settings.switchTabs} open ones, after 5 unmeasured switches. Memory: CDP
\`HeapProfiler.collectGarbage\` twice, then \`Runtime.getHeapUsage\` and \`Performance.getMetrics\`.
Lighthouse ${LIGHTHOUSE_VERSION} runs with its default (mobile) settings: simulated slow 4G and a 4× slower CPU on a phone-sized
screen, against Debian's Chromium started by playwright with a debugging port. The dashboard's bytes are
recorded the same way until its four charts are drawn; the work screen's time is its \`workscreen-ready\`
performance mark (set once ECharts reports every chart \`finished\` with the first figures), from navigation
start, in a fresh context with the cache disabled. The builder's frames are \`requestAnimationFrame\` intervals
recorded in the page while playwright moves the pointer step by step, the button held on a widget (each step
moves it and re-lays the 50-widget grid) or, for the baseline, not held.
`;
    await writeBlock('shell-bench', 'bench/shell.ts', md);
    log('wrote BENCHMARKS.md and bench/results/shell.json');

    printTables(md);
    log(`largest JS/CSS of the login page (KB gzip): ${files(loginPage.files, 10)}`);
    if (serverErrors.length) log(`the portal logged ${serverErrors.length} error lines, e.g. ${serverErrors[0]}`);
    log(`done in ${results.durationS} s`);
    return 0;
  } finally {
    await cleanup();
    log('stopped Chromium, the portal and PostgreSQL; removed the temporary directory');
  }
}

runMain('shell-bench', main);
