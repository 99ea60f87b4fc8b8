/**
 * d: tab switches among open tabs, against a button that does nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { signIn } from '../../../e2e/support/shell.js';
import { ascending, median, percentile, round } from '../../common.js';
import type { Leaf } from '../menu.js';
import { firstScreen, newContext, openTabs, spread, tabCount } from '../pages.js';
import { settings } from '../settings.js';

/** mulberry32: a small seeded generator, so every run switches tabs in the same order. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Click {
  /** Click → selected and panel shown → next painted frame. */
  ms: number;
  /** Click → selected and panel shown (the DOM is committed). */
  readyMs: number;
  /** The tab's panel was still in the page before the click (kept alive). */
  alive: boolean;
}

/**
 * Clicks the tab titled `title` (or, with `title` null, the injected button that does nothing) and
 * times on the page's clock: click → aria-selected=true and its panel visible → one animation
 * frame and a task later (the frame after it is painted).
 */
function timedClick(page: Page, title: string | null): Promise<Click> {
  return page.evaluate(async (wanted) => {
    let target: HTMLElement;
    let done: () => boolean;
    let alive = true;
    if (wanted === null) {
      target = document.getElementById('bench-noop')!;
      done = () => true;
    } else {
      const tab = [...document.querySelectorAll<HTMLElement>('[role=tab]')].find(
        (t) => t.textContent?.trim() === wanted,
      );
      if (!tab) throw new Error(`no tab ${wanted}`);
      const panelId = tab.getAttribute('aria-controls') ?? '';
      alive = document.getElementById(panelId) !== null;
      target = tab;
      done = () =>
        tab.getAttribute('aria-selected') === 'true' && !!document.getElementById(panelId)?.checkVisibility();
    }
    const t0 = performance.now();
    target.click();
    const ready = done()
      ? performance.now()
      : await new Promise<number>((resolveReady, reject) => {
          const timer = setTimeout(() => {
            observer.disconnect();
            reject(new Error(`tab ${wanted} was not shown within 10 s`));
          }, 10_000);
          const observer = new MutationObserver(() => {
            if (!done()) return;
            observer.disconnect();
            clearTimeout(timer);
            resolveReady(performance.now());
          });
          observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        });
    await new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const t1 = performance.now();
    return { ms: t1 - t0, readyMs: ready - t0, alive };
  }, title);
}

export interface SwitchResult {
  openTabs: number;
  keepAliveMax: number;
  switches: Array<{ title: string } & Click>;
  baseline: Click[];
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  readyMedianMs: number;
  aliveMedianMs: number | null;
  aliveCount: number;
  remountMedianMs: number | null;
  remountCount: number;
  baselineMedianMs: number;
  baselineP95Ms: number;
  ratio: number;
}

export async function measureSwitch(browser: Browser, base: string, leaves: Leaf[]): Promise<SwitchResult> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await signIn(page, base);
    await firstScreen(page);
    const open = spread(leaves, settings.switchTabs);
    await openTabs(page, open);
    const count = await tabCount(page);
    if (count !== open.length + 1) throw new Error(`expected ${open.length + 1} tabs, found ${count}`);
    const keepAliveMax = await page.evaluate(
      () =>
        (window as unknown as { __PORTAL_CONFIG__?: { keepAliveMax?: number } }).__PORTAL_CONFIG__?.keepAliveMax ?? -1,
    );
    // A button that does nothing, clicked the same way: the cost of a click and the next frame.
    await page.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'bench-noop';
      b.type = 'button';
      b.textContent = 'noop';
      b.style.cssText = 'position:fixed;right:4px;bottom:4px;z-index:9999';
      b.addEventListener('click', () => {});
      document.body.append(b);
    });

    const next = random(settings.seed);
    let current = open[open.length - 1]!.title;
    const pick = () => {
      let t = current;
      while (t === current) t = open[Math.floor(next() * open.length)]!.title;
      current = t;
      return t;
    };
    const switches: SwitchResult['switches'] = [];
    const baseline: Click[] = [];
    const warmup = 5;
    for (let i = 0; i < warmup + settings.switches; i++) {
      const title = pick();
      const sw = await timedClick(page, title);
      await sleep(100);
      const noop = await timedClick(page, null);
      await sleep(100);
      if (i < warmup) continue;
      switches.push({ title, ...sw });
      baseline.push(noop);
    }
    const ms = switches.map((x) => x.ms);
    const alive = switches.filter((x) => x.alive).map((x) => x.ms);
    const remount = switches.filter((x) => !x.alive).map((x) => x.ms);
    const baseMs = baseline.map((x) => x.ms);
    return {
      openTabs: count,
      keepAliveMax,
      switches: switches.map((x) => ({ ...x, ms: round(x.ms, 2), readyMs: round(x.readyMs, 2) })),
      baseline: baseline.map((x) => ({ ...x, ms: round(x.ms, 2), readyMs: round(x.readyMs, 2) })),
      medianMs: round(median(ms), 1),
      p95Ms: round(percentile(ascending(ms), 0.95), 1),
      maxMs: round(Math.max(...ms), 1),
      readyMedianMs: round(median(switches.map((x) => x.readyMs)), 1),
      aliveMedianMs: alive.length ? round(median(alive), 1) : null,
      aliveCount: alive.length,
      remountMedianMs: remount.length ? round(median(remount), 1) : null,
      remountCount: remount.length,
      baselineMedianMs: round(median(baseMs), 1),
      baselineP95Ms: round(percentile(ascending(baseMs), 0.95), 1),
      ratio: round(median(ms) / median(baseMs), 2),
    };
  } finally {
    await context.close();
  }
}
