/**
 * The console's table rule (docs/product/screens.md#console-tables, ADR 047), measured in Chromium on
 * every console page the operators' menus name (components `admin/*` and the page builder, so a
 * page added to the console is measured without touching this file), in Chinese and in English:
 * at 1440 px no header's text is cut, and no column lies under a pinned (fixed) one with the table
 * scrolled to its start or its end; at 390 px the page is no wider than the phone (a wide table
 * scrolls inside its card) and no field's placeholder is cut. Each page also passes axe's serious
 * accessibility rules (in Chinese, at 1440 px) and throws no error.
 *
 * The demo's park operator (`admin` in 园区运营, the demo's data) visits the pages of its menu; the
 * platform operator then the ones only it has (租户管理). One server, one browser, one context.
 * With CONSOLE_SHOTS=<folder> every page is photographed in both languages at both widths
 * (`<component>-<lang>-<width>.png`, e.g. `admin-users-en-1440.png`).
 */
import { mkdirSync } from 'node:fs';
import type { MenuItem } from '@portal/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, launch, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { axeViolations, go, settled, signIn, signInAsOperator, signOutFromMenu } from './support/shell.js';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const SHOTS = process.env.CONSOLE_SHOTS;
type Lang = 'zh' | 'en';

let browser: Awaited<ReturnType<typeof launch>>;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer()]);
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

/** A console page of the menu: where it is and its title in the menu's language. */
interface ConsoleEntry {
  component: string;
  path: string;
  title: string;
}

const isConsole = (component: string) => /^\/?(admin\/|page\/builder$)/.test(component);

function consoleEntries(menu: MenuItem[]): ConsoleEntry[] {
  return menu.flatMap((m) => [
    ...(isConsole(m.component) && !m.hidden
      ? [{ component: m.component.replace(/^\//, ''), path: m.path, title: m.meta.title }]
      : []),
    ...consoleEntries(m.children ?? []),
  ]);
}

/** The menu the shell loads next (the answer of the session start after a sign-in or a reload). */
function nextMenu(page: Page): Promise<MenuItem[]> {
  return page
    .waitForResponse((r) => r.url().includes('/allPermissionV2'))
    .then(async (r) => ((await r.json()) as { data: { menu: MenuItem[] } }).data.menu);
}

/** Reloads the shell in `lang` and returns the menu it loaded. */
async function inLanguage(page: Page, lang: Lang): Promise<MenuItem[]> {
  await page.evaluate((v) => localStorage.setItem('portal_locale', JSON.stringify({ v, e: null })), lang);
  const menu = nextMenu(page);
  await page.reload();
  await page.getByRole('tablist').waitFor();
  return menu;
}

/** The page's title shown, and nothing on it loading or moving any more. */
async function opened(page: Page, entry: ConsoleEntry) {
  await go(page, entry.path);
  await page.locator('.shell-title:visible', { hasText: entry.title }).waitFor();
  await expect
    .poll(() => page.locator('.shell-content :is(.ant-spin-spinning, .ant-skeleton):visible').count())
    .toBe(0);
  await settled(page);
}

/**
 * What breaks the rule on the visible page, as sentences: header texts wider than their box, and
 * columns a pinned column covers with the table scrolled to its start or its end.
 */
function tableProblems(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const problems: string[] = [];
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const visible = (el: Element) => (el as HTMLElement).offsetParent !== null;
    const root = document.querySelector('.shell-content') ?? document.body;
    const tables = Array.from(root.querySelectorAll('.ant-table-wrapper')).filter(visible);
    for (const [t, wrapper] of tables.entries()) {
      const headers = Array.from(wrapper.querySelectorAll('thead th')).filter(
        (th) => !th.matches('.ant-table-cell-scrollbar'),
      );
      const name = (i: number) => (headers[i] as HTMLElement | undefined)?.innerText.trim() || `column ${i + 1}`;
      const where = `table ${t + 1} (${headers.map((_, i) => name(i)).join(' | ')})`;
      // (a) Every header's text whole: no box (the cell, its title, an ellipsis) narrower than its text.
      for (const [i, th] of headers.entries()) {
        for (const el of [th, ...Array.from(th.querySelectorAll('*'))] as HTMLElement[]) {
          if (!el.innerText?.trim() || getComputedStyle(el).display === 'inline') continue;
          if (el.scrollWidth > el.clientWidth + 1) {
            problems.push(`${where}: the header “${name(i)}” is cut (${el.scrollWidth} > ${el.clientWidth} px)`);
            break;
          }
        }
      }
      // (b) No column under a pinned one, scrolled to the start and to the end.
      const scroller = wrapper.querySelector<HTMLElement>('.ant-table-content, .ant-table-body');
      if (!scroller) continue;
      for (const end of [false, true]) {
        scroller.scrollLeft = end ? scroller.scrollWidth : 0;
        scroller.dispatchEvent(new Event('scroll'));
        await frame();
        const view = scroller.getBoundingClientRect();
        const rows = Array.from(wrapper.querySelectorAll('thead tr, tbody tr:not(.ant-table-placeholder)'));
        for (const row of rows) {
          const cells = Array.from(row.children).filter((c) => !c.matches('.ant-table-cell-scrollbar'));
          const pinned = cells.filter((c) => /ant-table-cell-fix-(left|right)\b/.test(c.className));
          if (pinned.length === 0) continue;
          let column = 0;
          for (const cell of cells) {
            const index = column;
            column += (cell as HTMLTableCellElement).colSpan || 1;
            if (pinned.includes(cell)) continue;
            const r = cell.getBoundingClientRect();
            const left = Math.max(r.left, view.left);
            const right = Math.min(r.right, view.right);
            if (right - left < 1) continue;
            for (const p of pinned) {
              const q = p.getBoundingClientRect();
              const covered = Math.min(right, q.right) - Math.max(left, q.left);
              if (covered > 1) {
                const pin = name(cells.indexOf(p));
                problems.push(
                  `${where}: “${name(index)}” lies ${Math.round(covered)} px under the pinned “${pin}” (scrolled to its ${end ? 'end' : 'start'})`,
                );
              }
            }
          }
        }
      }
      scroller.scrollLeft = 0;
      scroller.dispatchEvent(new Event('scroll'));
    }
    return [...new Set(problems)];
  });
}

/** Entries of the side menu and titles of the tab strip that end in “…” (“Applications & wor…”). */
function cutLabels(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.shell-sider .ant-menu-title-content, .tab-strip-title'))
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.matches('.tab-strip-title') ? 'tab title' : 'menu entry'} “${el.innerText}”`),
  );
}

/** Placeholders of the page's fields wider than the field (the reader would see “Search name, c…”). */
function cutPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const cut: string[] = [];
    const root = document.querySelector('.shell-content') ?? document.body;
    for (const input of Array.from(root.querySelectorAll<HTMLInputElement>('input[placeholder]'))) {
      if (input.offsetParent === null || input.value) continue;
      const style = getComputedStyle(input);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const text = canvas.measureText(input.placeholder).width;
      if (text > room + 1) cut.push(`“${input.placeholder}” (${Math.round(text)} > ${Math.round(room)} px)`);
    }
    // A select's placeholder is a span that ends in an ellipsis.
    for (const span of Array.from(root.querySelectorAll<HTMLElement>('.ant-select-selection-placeholder'))) {
      if (span.offsetParent !== null && span.scrollWidth > span.clientWidth + 1) cut.push(`“${span.innerText}”`);
    }
    return cut;
  });
}

/**
 * Serious accessibility violations that outlast a moment: a page that finishes loading while axe
 * reads it (a button enabled mid-check is caught half-way through its colour transition) is read
 * again once still; what it finds then, it finds on the page as it stays.
 */
async function lastingViolations(page: Page): Promise<string[]> {
  const first = await axeViolations(page);
  if (first.length === 0) return first;
  await settled(page);
  return axeViolations(page);
}

describe('the console’s tables', () => {
  it('cut no header and hide no column under a pinned one at 1440 px, and scroll inside their card at 390 px, in zh and en', async () => {
    // bypassCSP: axe is injected as an inline script, which the portal's policy refuses.
    const context = await browser.newContext({ ...STILL, viewport: DESKTOP, locale: 'zh-CN', bypassCSP: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const problems: string[] = [];
    const seen = new Set<string>();

    /** The open page measured at 1440 px, then at 390 px (and photographed, when asked). */
    const check = async (name: string, lang: Lang) => {
      const at = `${name} (${lang})`;
      const shot = (width: number) => `${SHOTS}/${name.replace('/', '-')}-${lang}-${width}.png`;
      for (const p of await tableProblems(page)) problems.push(`${at} at 1440 px: ${p}`);
      for (const p of await cutPlaceholders(page)) problems.push(`${at} at 1440 px: the placeholder ${p} is cut`);
      for (const p of await cutLabels(page)) problems.push(`${at} at 1440 px: the ${p} is cut`);
      if (lang === 'zh') for (const v of await lastingViolations(page)) problems.push(`${at}: accessibility: ${v}`);
      if (SHOTS) await page.screenshot({ path: shot(1440) });
      await page.setViewportSize(PHONE);
      await settled(page);
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (wider > 0) problems.push(`${at} at 390 px: the page is ${wider} px wider than the phone`);
      for (const p of await cutPlaceholders(page)) problems.push(`${at} at 390 px: the placeholder ${p} is cut`);
      for (const p of await cutLabels(page)) problems.push(`${at} at 390 px: the ${p} is cut`);
      if (SHOTS) await page.screenshot({ path: shot(390), fullPage: true });
      await page.setViewportSize(DESKTOP);
    };

    /** Every console page of the signed-in operator's menu not measured yet, in zh and en. */
    const visitAll = async () => {
      const here: string[] = [];
      for (const lang of ['zh', 'en'] as const) {
        const entries = consoleEntries(await inLanguage(page, lang)).filter((e) => !seen.has(e.component));
        for (const entry of entries) {
          here.push(entry.component);
          await opened(page, entry);
          await check(entry.component, lang);
        }
      }
      for (const c of here) seen.add(c);
      return [...new Set(here)];
    };

    await signInAsOperator(page, server.url);
    // In the operations platform, whose menu has the page builder as well.
    await page.evaluate(() => localStorage.setItem('portal_appCode', JSON.stringify({ v: 'PARK_OPS', e: null })));
    const park = await visitAll();
    expect(park).toEqual(expect.arrayContaining(['admin/users', 'admin/roles', 'admin/menus', 'page/builder']));
    // The devices' screens, where the park's operators handle alerts: open pages, outside the menu.
    for (const lang of ['zh', 'en'] as const) {
      await page.evaluate((v) => localStorage.setItem('portal_locale', JSON.stringify({ v, e: null })), lang);
      for (const screen of ['devices', 'alerts']) {
        await page.goto(`${server.url}/center/deviceManage/${screen}?tc=demo`);
        await page.locator('.ant-table-row').first().waitFor();
        await settled(page);
        await check(`devices/${screen}`, lang);
      }
    }

    await page.goto(`${server.url}/center/index`);
    await signOutFromMenu(page);
    await page.waitForURL(/\/login/);
    await signIn(page, server.url, '/center/login?tc=platform', 'platform');
    expect(await visitAll()).toContain('admin/tenants');

    expect(problems).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 600_000);
});
