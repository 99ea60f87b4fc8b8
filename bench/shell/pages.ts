/**
 * Browser helpers the phases share: a context, the first screen, tabs opened from the bench menu.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { go } from '../../e2e/support/shell.js';
import { type Leaf, rootTitle } from './menu.js';
import { MENU, settings } from './settings.js';

/**
 * A context whose pages define `__name`: tsx (esbuild, keepNames) wraps named functions in the
 * code handed to page.evaluate in `__name(fn, "name")`, which the page would not know.
 */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: settings.viewport });
  await context.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
  return context;
}

/** The tab strip is shown, and the side menu with the last of the bench roots. */
export async function firstScreen(page: Page, timeout = 60_000) {
  await page.waitForFunction(
    (last) => {
      const strip = document.querySelector('[role=tablist]');
      const sider = document.querySelector('.shell-sider [role=menu]');
      return !!strip?.checkVisibility() && !!sider?.checkVisibility() && (sider.textContent ?? '').includes(last);
    },
    rootTitle(MENU.roots),
    { polling: 'raf', timeout },
  );
}

async function waitActive(page: Page, title: string) {
  await page.waitForFunction(
    (t) => document.querySelector('[role=tab][aria-selected=true]')?.textContent?.trim() === t,
    title,
    { timeout: 30_000 },
  );
}

export const tabCount = (page: Page) => page.evaluate(() => document.querySelectorAll('[role=tab]').length);

/** Leaves spread over the roots and directories: the i-th of n comes from root i mod 20. */
export function spread(leaves: Leaf[], count: number, offset = 0): Leaf[] {
  const out: Leaf[] = [];
  const perRoot = MENU.dirs * MENU.leaves;
  for (let i = 0; i < count; i++) {
    const k = i + offset;
    const r = k % MENU.roots;
    const j = Math.floor(k / MENU.roots) % perRoot;
    // Walk a root's pages across its directories first: directory j mod 9, page j div 9.
    const d = j % MENU.dirs;
    const p = Math.floor(j / MENU.dirs) % MENU.leaves;
    out.push(leaves[r * perRoot + d * MENU.leaves + p]!);
  }
  return out;
}

export async function openTabs(page: Page, list: Leaf[]) {
  for (const leaf of list) {
    await go(page, leaf.path);
    await waitActive(page, leaf.title);
  }
}
