/**
 * Helpers for driving the signed-in shell: sign in through the form, move inside the app without
 * a reload, read the tab strip, run axe-core in the page, and stand in for the park's external
 * services (this machine reaches no outside host).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';

/**
 * Types the test-mode answer of the image captcha once its image is shown: an answer counts only
 * for an image the server has issued, and a person reads the image before typing.
 */
export async function fillCaptcha(page: Page, field = '#imgvercode') {
  await page.locator('.login-captcha-image img, .captcha-image img').first().waitFor();
  await page.locator(field).fill('8888');
}

export async function signIn(page: Page, base: string, path = '/center/login', username = 'member') {
  await page.goto(`${base}${path}`);
  await page.locator('#username').fill(username);
  await page.locator('#password').fill('Demo@2026!');
  await fillCaptcha(page);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => !u.pathname.endsWith('/login'));
  await page.getByRole('tablist').or(page.locator('.shell-bare')).first().waitFor();
}

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/**
 * Signs `username` in once through the form and keeps what the browser then holds (the session's
 * token in local storage): a context opened with it (`storageState`) starts signed in, for the
 * tests of a file that are about what comes after signing in (signing in has tests of its own).
 * Every such context holds the same session: a test that ends it (logout, a role, enterprise or
 * application switch, a password change) signs in through the form instead.
 */
export async function signedInState(
  browser: Browser,
  base: string,
  username = 'member',
  path = '/center/login',
): Promise<StorageState> {
  return stateAfter(browser, (page) => signIn(page, base, path, username));
}

/** The same for the demo admin switched to the park operator's role (`signInAsOperator`). */
export async function operatorState(browser: Browser, base: string): Promise<StorageState> {
  return stateAfter(browser, (page) => signInAsOperator(page, base));
}

async function stateAfter(browser: Browser, signOn: (page: Page) => Promise<void>): Promise<StorageState> {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await signOn(page);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** Opens `path` of the shell in a context that starts signed in (`signedInState`). */
export async function openSignedIn(page: Page, base: string, path = '/index') {
  await page.goto(`${base}/center${path}`);
  await page.getByRole('tablist').or(page.locator('.shell-bare')).first().waitFor();
}

/** The demo admin, signed in and switched to the park operator's role (the console's menus). */
export async function signInAsOperator(page: Page, base: string) {
  await signIn(page, base, '/center/login', 'admin');
  await page.locator('.shell-user').click();
  await clickOpenMenuItem(page, /切换角色|Switch role/);
  // The dialog preselects the current role once its list has loaded: choose after that, or the
  // preselection undoes the choice.
  await page.getByRole('radio', { checked: true }).first().waitFor();
  // A loaded machine may re-render the list (its names in the reader's language) after the
  // preselection, undoing a click: choose until the choice holds.
  const operator = page.getByRole('radio', { name: /园区运营|Park operat/ });
  for (let attempt = 0; ; attempt++) {
    await operator.check({ timeout: 5_000 }).catch((err: unknown) => {
      if (attempt >= 4) throw err;
    });
    await page.waitForTimeout(150);
    if (await operator.isChecked()) break;
    if (attempt >= 4) throw new Error('the role dialog kept undoing the choice of 园区运营');
  }
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: /确\s?定|OK/ }).click()]);
  await page.getByRole('tablist').waitFor();
}

/** An in-app navigation (history push, as a link does), so keep-alive state is not lost to a reload. */
export async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    // A history entry as the router makes one (a key of its own): two visits of one address stay
    // two navigations, as two clicks on a menu entry are.
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/center${path}`);
}

export const tabTitles = (page: Page) => page.getByRole('tab').allInnerTexts();

export async function activeTab(page: Page): Promise<string> {
  return page.locator('[role=tab][aria-selected=true]').innerText();
}

/** Requests per path served for https://park.example.com, a page with a form on each. */
export async function parkSite(context: BrowserContext): Promise<Map<string, number>> {
  const hits = new Map<string, number>();
  await context.route('https://park.example.com/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    await route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="zh"><title>park</title><body><h1>${path}</h1>
        <form><label>单号 <input id="q" name="q"></label><p id="loaded">${Date.now()}</p></form></body></html>`,
    });
  });
  return hits;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe-core violations of the page (rule id: first offending selectors); needs a context with bypassCSP. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: Document,
            opts: object,
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

/**
 * Waits until nothing on the page moves, as a person waits before reading a dialog or a menu: no
 * animation or transition that ends (a dialog zooming in, a drawer sliding out, a colour fading) has
 * run for 150 ms in a row. A motion starts a frame or two after the click that causes it, so a
 * single check at once can pass before anything began to move; and a screenshot or an
 * accessibility scan in the middle of a fade reads colours that are not the page's. Endless
 * animations (a spinner, a pulsing hint) are not a change in progress and are not waited for.
 */
export async function settled(page: Page, timeout?: number) {
  await page.waitForFunction(
    (call) => {
      const w = window as unknown as { __still?: { call: number; since: number | null } };
      if (w.__still?.call !== call) w.__still = { call, since: null };
      const moving = document
        .getAnimations()
        .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
      if (moving) {
        w.__still.since = null;
        return false;
      }
      w.__still.since ??= performance.now();
      return performance.now() - w.__still.since >= 150;
    },
    Math.random(),
    { polling: 'raf', ...(timeout ? { timeout } : {}) },
  );
}

/**
 * Clicks through the side menu, as a person does: each submenu opens with an animation, and the
 * next entry is clicked once it stopped moving (a click on a moving entry can land beside it).
 */
export async function clickMenu(page: Page, ...entries: Array<string | RegExp>) {
  for (const name of entries) {
    await settled(page);
    await page.getByRole('menuitem', { name }).click();
  }
}

/**
 * Clicks an item of the drop-down that is opening, once it has finished sliding in (a click during
 * antd's animation lands on what is underneath, which closes the menu).
 */
export async function clickOpenMenuItem(page: Page, name: string | RegExp) {
  const item = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name });
  await item.waitFor();
  await settled(page);
  await item.click();
}

/** Logout from the user drop-down. */
export async function signOutFromMenu(page: Page) {
  await page.locator('.shell-user').click();
  await clickOpenMenuItem(page, /退出登录|Sign out/);
}

/** Fills the sign-on server's form (the portal's login page at /cas/login) and sends it. */
export async function submitSignOnForm(page: Page, username = 'member') {
  await page.waitForURL(/\/cas\/login\?/);
  await page.locator('#username').fill(username);
  await page.locator('#password').fill('Demo@2026!');
  await fillCaptcha(page);
  await page.keyboard.press('Enter');
}

export interface PageMemory {
  heapUsedMb: number;
  heapTotalMb: number;
  nodes: number;
  listeners: number;
  documents: number;
  frames: number;
}

/**
 * What the page holds after two forced collections (CDP), once its work has settled for
 * `settleMs`: the JS heap, DOM nodes, listeners, documents and frames. Shared by the e2e tests and
 * the benchmarks, so they measure alike.
 */
export async function pageMemory(cdp: CDPSession, settleMs = 500): Promise<PageMemory> {
  await new Promise((r) => setTimeout(r, settleMs));
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = await cdp.send('Runtime.getHeapUsage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;
  return {
    heapUsedMb: mb(heap.usedSize),
    heapTotalMb: mb(heap.totalSize),
    nodes: metric('Nodes'),
    listeners: metric('JSEventListeners'),
    documents: metric('Documents'),
    frames: metric('Frames'),
  };
}

/**
 * Opens `path` in a tab until `shown` resolves, closes the tab until `gone` is true, `cycles` times:
 * the heap after the first cycle and after the last (ADR 025: the second must be within 10 % or
 * 2 MB of the first). Shared by the e2e test and bench/shell.ts.
 */
export async function openCloseCycles(
  page: Page,
  cdp: CDPSession,
  path: string,
  shown: () => Promise<unknown>,
  gone: () => Promise<boolean>,
  cycles = 20,
): Promise<{ firstMb: number; lastMb: number }> {
  let firstMb = NaN;
  for (let i = 1; i <= cycles; i++) {
    await go(page, path);
    await shown();
    await page.locator('[role=tab][aria-selected=true] .tab-strip-close').click();
    const deadline = Date.now() + 10_000;
    while (!(await gone())) {
      if (Date.now() > deadline) throw new Error(`${path}: still there after its tab closed`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The close's own navigation to the neighbour tab has landed before the next opening.
    await page.waitForURL((u) => !u.pathname.endsWith(path));
    if (i === 1) firstMb = (await pageMemory(cdp)).heapUsedMb;
  }
  return { firstMb, lastMb: (await pageMemory(cdp)).heapUsedMb };
}
