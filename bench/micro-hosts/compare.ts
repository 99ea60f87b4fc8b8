/**
 * Which micro-frontend host the portal uses (ADR 025) is chosen by this measurement: the same demo
 * sub-application (apps/demo-micro-app, built) loaded by each candidate in Chromium — qiankun,
 * wujie, and the portal's own script host — opened and closed 20 times. For each: the JS heap
 * after forced collections (after the first cycle and after the 20th), documents and listeners
 * left, the time from the call until the sub-application shows its rows (cold, then warm), the
 * gzip bytes the library adds to a page, and whether it works at all under the portal's content
 * security policy.
 *
 *   npm run micro-hosts -w bench      (needs `npm run build` first)
 */
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { documentPolicy } from '../../apps/server/src/platform/security-headers.js';
import { launch } from '../../e2e/support/browser.js';
import { pageMemory, type PageMemory } from '../../e2e/support/shell.js';
import { ROOT, median, round, runMain } from '../common.js';
import { printTables, writeBlock } from '../report.js';

/** What each candidate page offers (pages/props.ts, a browser project of its own). */
declare global {
  interface Window {
    candidate: { open(): Promise<void>; close(): Promise<void> };
  }
}

const CYCLES = 20;
const CANDIDATES = ['qiankun', 'wujie', 'script'] as const;
const SUB_DIST = join(ROOT, 'apps/demo-micro-app/dist');
const log = (msg: string) => process.stdout.write(`[micro-hosts] ${msg}\n`);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * The built pages under /pages/ (with the portal's content security policy when the address has
 * `?csp=1`), the sub-application under /sub/ (its directory answers index.html).
 */
function serve(pagesDir: string): Promise<{ server: Server; base: string }> {
  const policy = documentPolicy({ apps: [], frames: [] });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const [, area, ...rest] = url.pathname.split('/');
    const root = area === 'pages' ? pagesDir : area === 'sub' ? SUB_DIST : null;
    let file = root ? normalize(join(root, ...rest)) : '';
    if (root && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!root || !file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      ...(url.searchParams.get('csp') === '1' ? { 'content-security-policy': policy } : {}),
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      done({ server, base: `http://127.0.0.1:${port}` });
    }),
  );
}

/** The gzip bytes of the scripts a built page loads. */
function pageScriptBytes(pagesDir: string, name: string): number {
  const html = readFileSync(join(pagesDir, `${name}.html`), 'utf8');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(pagesDir, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)) visit(`assets/${m[1]}`);
  };
  for (const m of html.matchAll(/(?:src|href)="\.\/(assets\/[\w.-]+\.js)"/g)) visit(m[1]!);
  return [...seen].reduce((sum, f) => sum + gzipSync(readFileSync(join(pagesDir, f)), { level: 9 }).length, 0);
}

/** Whether the candidate shows the sub-application under the portal's policy, and what the browser refused. */
async function underPolicy(page: Page, base: string, name: string): Promise<{ works: boolean; refused: string[] }> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { refused: string[] }).refused = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} refused ${e.blockedURI || 'inline code'}`),
    );
  });
  const refusedNow = async () =>
    [...new Set(await page.evaluate(() => (window as unknown as { refused: string[] }).refused))].slice(0, 2);
  await page.goto(`${base}/pages/${name}.html?csp=1`);
  const ready = await page
    .waitForFunction(() => 'candidate' in window, undefined, { timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  if (!ready) return { works: false, refused: await refusedNow() };
  const works = await page.evaluate(() =>
    Promise.race([
      window.candidate.open().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
    ]),
  );
  return { works, refused: await refusedNow() };
}

async function measure(page: Page, cdp: CDPSession, base: string, name: string) {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${base}/pages/${name}.html`);
  await page.waitForFunction(() => 'candidate' in window);
  const before = await pageMemory(cdp);
  const openMs: number[] = [];
  let afterFirst: PageMemory | null = null;
  for (let i = 1; i <= CYCLES; i++) {
    openMs.push(
      await page.evaluate(async () => {
        const t0 = performance.now();
        await window.candidate.open();
        return performance.now() - t0;
      }),
    );
    await page.evaluate(() => window.candidate.close());
    if (i === 1) afterFirst = await pageMemory(cdp);
  }
  const after = await pageMemory(cdp);
  const growthMb = round(after.heapUsedMb - afterFirst!.heapUsedMb, 2);
  return {
    before,
    afterFirst: afterFirst!,
    after,
    growthMb,
    growthRatio: round(growthMb / afterFirst!.heapUsedMb, 3),
    /** The issue's rule: back within 10 % or 2 MB of the level after the first cycle. */
    comesBack: growthMb <= Math.max(0.1 * afterFirst!.heapUsedMb, 2),
    coldMs: round(openMs[0]!, 1),
    warmMedianMs: round(median(openMs.slice(1)), 1),
    errors: [...new Set(errors)].slice(0, 5),
  };
}

runMain('micro-hosts', async () => {
  if (!existsSync(join(SUB_DIST, 'index.html'))) throw new Error('build the demo sub-application first: npm run build');
  const out = await mkdtemp(join(tmpdir(), 'micro-hosts-'));
  try {
    const pagesDir = join(out, 'pages');
    const pages = join(import.meta.dirname, 'pages');
    log('building the candidate pages');
    await build({
      root: pages,
      base: './',
      logLevel: 'warn',
      resolve: { conditions: ['source'] },
      build: {
        outDir: pagesDir,
        emptyOutDir: true,
        target: 'es2022',
        rollupOptions: {
          input: Object.fromEntries(
            readdirSync(pages)
              .filter((f) => f.endsWith('.html'))
              .map((f) => [f.replace('.html', ''), join(pages, f)]),
          ),
        },
      },
    });
    const noneBytes = pageScriptBytes(pagesDir, 'none');
    const { server, base } = await serve(pagesDir);
    const browser = await launch(['--js-flags=--expose-gc']);
    const results: Record<
      string,
      Awaited<ReturnType<typeof measure>> & { libraryGzipKb: number; csp: Awaited<ReturnType<typeof underPolicy>> }
    > = {};
    try {
      for (const name of CANDIDATES) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        log(`${name}: ${CYCLES} open/close cycles`);
        const r = await measure(page, cdp, base, name);
        await context.close();
        const strict = await browser.newContext();
        const csp = await underPolicy(await strict.newPage(), base, name);
        await strict.close();
        results[name] = { ...r, csp, libraryGzipKb: round((pageScriptBytes(pagesDir, name) - noneBytes) / 1024, 1) };
        log(`${name}: ${JSON.stringify(results[name])}`);
      }
    } finally {
      await browser.close();
      server.close();
    }
    const row = (name: string) => {
      const r = results[name]!;
      return `| ${name} | ${r.before.heapUsedMb} → ${r.afterFirst.heapUsedMb} → ${r.after.heapUsedMb} MB | ${r.growthMb >= 0 ? '+' : ''}${r.growthMb} MB (${round(r.growthRatio * 100, 1)} %) | ${r.after.documents} / ${r.after.frames} / ${r.after.listeners} | ${r.coldMs} / ${r.warmMedianMs} ms | ${r.libraryGzipKb} KB | ${r.comesBack ? 'PASS' : 'FAIL'} | ${r.csp.works ? 'works' : `blocked (${r.csp.refused.join('; ') || 'no content within 10 s'})`} |`;
    };
    const md = `### Micro-frontend hosts compared (ADR 025)

The demo sub-application (apps/demo-micro-app: React 19, one UMD script of 73 KB gzip) opened and
closed ${CYCLES} times by each candidate in Chromium, on the same page and with the same answers to
its calls; \`script\` is the portal's own host (apps/web/src/features/micro-apps/host/script-host.ts).

| host | JS heap: page → after cycle 1 → after cycle ${CYCLES} | growth from cycle 1 to ${CYCLES} | documents / frames / listeners left | shown after: cold / warm median | library, gzip | within 10 % or 2 MB | under the portal's content security policy |
|---|---:|---:|---:|---:|---:|:---:|---|
${CANDIDATES.map(row).join('\n')}

Console errors: ${CANDIDATES.map((n) => `${n}: ${results[n]!.errors.length ? results[n]!.errors.join('; ') : 'none'}`).join('; ')}.
Measured with \`npm run micro-hosts -w bench\` (heap: CDP \`Runtime.getHeapUsage\` after two \`HeapProfiler.collectGarbage\`).`;
    printTables(md);
    await writeBlock('micro-hosts', 'bench/micro-hosts/compare.ts', md);
    log('wrote BENCHMARKS.md');
    return CANDIDATES.every((n) => results[n]!.errors.length === 0) ? 0 : 1;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
