/**
 * What the browser loads: every script and stylesheet a page receives, with the bytes of its
 * decoded body raw and after gzip -9 (so the numbers do not depend on what the server negotiated),
 * and the byte budgets of the login page and the first screen. `npm test` enforces the budgets
 * (e2e/budgets.spec.ts); `npm run bench:shell` reports the same numbers with its timings.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * KB of JS + CSS after gzip -9; bytes are stable across machines, unlike times. Set a little above
 * what the pages weigh (ADR 015: 117.0 and 244.7 KB on 2026-11-26), so growth is a decision.
 */
export const BYTE_BUDGETS = { loginPageGzipKb: 122, firstScreenGzipKb: 250 } as const;

export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

export interface Asset {
  path: string;
  type: string;
  status: number;
  /** Bytes of the decoded body. */
  raw: number;
  /** Bytes of the decoded body after gzip -9 (independent of what the server negotiated). */
  gzip: number;
  /** What the server actually sent (content-encoding), for information. */
  encoding: string;
}

export interface AssetSummary {
  files: Asset[];
  js: { count: number; raw: number; gzip: number };
  css: { count: number; raw: number; gzip: number };
  total: { count: number; raw: number; gzip: number };
}

export async function noCache(context: BrowserContext, page: Page): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return cdp;
}

/**
 * Every script and stylesheet the page receives from now on (by resource type, or by content type
 * for preloads that Chromium files under another type), and a wait for a quiet network.
 */
export function recordAssets(page: Page) {
  const pending: Promise<Asset | null>[] = [];
  let inFlight = 0;
  let lastActivity = performance.now();
  page.on('request', () => {
    inFlight++;
    lastActivity = performance.now();
  });
  const settle = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = performance.now();
  };
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  page.on('response', (res) => {
    const type = res.request().resourceType();
    const contentType = res.headers()['content-type'] ?? '';
    const kind =
      type === 'script' || /javascript|ecmascript/.test(contentType)
        ? 'script'
        : type === 'stylesheet' || /text\/css/.test(contentType)
          ? 'stylesheet'
          : null;
    if (!kind || res.status() >= 300) return;
    pending.push(
      res.body().then(
        (body) => ({
          path: new URL(res.url()).pathname,
          type: kind === type ? type : `${kind} (as ${type})`,
          status: res.status(),
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          encoding: res.headers()['content-encoding'] ?? 'identity',
        }),
        () => null,
      ),
    );
  });
  return {
    /** Resolves once no request has been in flight for `quietMs`. */
    async idle(quietMs = 500, timeoutMs = 30_000) {
      const deadline = performance.now() + timeoutMs;
      while (inFlight > 0 || performance.now() - lastActivity < quietMs) {
        if (performance.now() > deadline) throw new Error('the network did not go quiet within 30 s');
        await sleep(50);
      }
    },
    async summary(): Promise<AssetSummary> {
      const files = (await Promise.all(pending)).filter((a): a is Asset => a !== null);
      files.sort((a, b) => b.gzip - a.gzip);
      const sum = (list: Asset[]) => ({
        count: list.length,
        raw: list.reduce((n, a) => n + a.raw, 0),
        gzip: list.reduce((n, a) => n + a.gzip, 0),
      });
      return {
        files,
        js: sum(files.filter((f) => f.type.startsWith('script'))),
        css: sum(files.filter((f) => f.type.startsWith('stylesheet'))),
        total: sum(files),
      };
    },
  };
}
