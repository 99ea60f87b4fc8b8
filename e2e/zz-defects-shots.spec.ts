import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launch, openPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { go, settled, signIn, signInAsOperator } from './support/shell.js';
import type { Browser } from 'playwright-core';

const OUT = '/work/notes/i30/shots/defects';
const DESKTOP = { viewport: { width: 1440, height: 900 }, bypassCSP: true };
const LANGS = ['zh', 'en'] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => browser?.close());

async function store(page: Page, codes: Record<string, string>) {
  await page.evaluate((c) => {
    for (const [k, v] of Object.entries(c)) localStorage.setItem(`portal_${k}`, JSON.stringify({ v, e: null }));
  }, codes);
}

async function shoot(page: Page, name: string, lang: string, before?: () => Promise<void>) {
  for (const w of [1440, 390]) {
    await page.setViewportSize({ width: w, height: w === 1440 ? 900 : 844 });
    await page.waitForTimeout(400);
    if (before) await before();
    await settled(page).catch(() => undefined);
    await page.screenshot({ path: `${OUT}/${name}-${lang}-${w}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('shots A', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      PORTAL_RUNTIME_CONFIG: JSON.stringify({ noticeEnabled: true, languageSwitch: true, appSwitch: true }),
    });
  });
  afterAll(async () => server?.stop());

  it('member screens', async () => {
    for (const lang of LANGS) {
      const { context, page } = await openPage(browser, DESKTOP, lang);
      await page.goto(`${server.url}/center/login`);
      await page.locator('#username').waitFor();
      await shoot(page, 'login-tenant-name', lang);
      await signIn(page, server.url);
      await go(page, '/park-services/meeting');
      await page.frameLocator('iframe').first().locator('body').waitFor().catch(() => undefined);
      await page.waitForTimeout(2500);
      await shoot(page, 'meeting-rooms', lang);
      await go(page, '/message/index');
      const t = lang === 'zh' ? '高新技术企业认定材料征集' : 'High-tech enterprise recognition';
      await page.locator('.message-item', { hasText: t }).first().click();
      await page.locator('.notice-drawer input[type=file]').waitFor({ state: 'attached' });
      await shoot(page, 'notice-reply-attachments', lang);
      await context.close();
    }
  });

  it('operator screens', async () => {
    for (const lang of LANGS) {
      const { context, page } = await openPage(browser, DESKTOP, lang);
      await signInAsOperator(page, server.url);
      await store(page, { appCode: 'PARK_OPS' });
      await page.goto(`${server.url}/center/ops/board`);
      await page.locator('.drag-page').waitFor();
      await page.waitForTimeout(1500);
      await shoot(page, 'ops-board-live-figures', lang);
      // The builder: the figures widget chosen, its settings on the right.
      await page.goto(`${server.url}/center/ops/pages`);
      const select = page.getByRole('combobox', { name: lang === 'zh' ? '选择页面' : /page/i });
      await page.locator('.ant-select', { has: select }).first().click();
      await page.locator('.ant-select-item-option', { hasText: 'ops-board' }).click();
      await page.locator('.pb-item').first().waitFor();
      await page.locator('.pb-item[data-kind="stats"]').click({ position: { x: 30, y: 60 } });
      await page.locator('.pb-lang').first().waitFor();
      await shoot(page, 'builder-settings-labels', lang, async () => {
        await page.locator('.pb-lang').first().scrollIntoViewIfNeeded().catch(() => undefined);
      });
      await context.close();
    }
  });

  it('a page with a # link and a failing widget', async () => {
    for (const lang of LANGS) {
      const { context, page } = await openPage(browser, DESKTOP, lang);
      await signInAsOperator(page, server.url);
      await store(page, { appCode: 'PARK_OPS' });
      await page.route('**/api/front/page/definition/ops-board**', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { data: { document: { widgets: unknown[] } } };
        body.data.document.widgets.push(
          {
            id: 'lk',
            x: 0,
            y: 9,
            w: 6,
            h: 3,
            kind: 'links',
            props: { title: { zh: '资讯链接', en: 'News links' }, items: [{ title: { zh: '园区资讯（顶部）', en: 'Park news (top)' }, path: '/park/news#top' }] },
          },
          { id: 'bad', x: 6, y: 9, w: 6, h: 3, kind: 'table', props: { title: { zh: '坏表格', en: 'Broken table' }, columns: [{ zh: '列' }], rows: [null] } },
        );
        await route.fulfill({ response: res, json: body });
      });
      await page.goto(`${server.url}/center/ops/board`);
      await page.locator('.dp-widget-failed').waitFor();
      await shoot(page, 'drag-page-hash-link-and-failed-widget', lang, async () => {
        await page.locator('.dp-widget-failed').scrollIntoViewIfNeeded();
      });
      await context.close();
    }
  });
});

describe('shots B', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      PORTAL_RUNTIME_CONFIG: JSON.stringify({ languageSwitch: true, apptheme: 'JZH', appSwitch: true }),
    });
  });
  afterAll(async () => server?.stop());

  it('workbench', async () => {
    for (const lang of LANGS) {
      const { context, page } = await openPage(browser, DESKTOP, lang);
      await signIn(page, server.url);
      await store(page, { appCode: 'ENT_WORKBENCH' });
      await page.goto(`${server.url}/center/workStand`);
      await page.locator('.wb-grid [data-widget]').first().waitFor();
      await page.getByRole('button', { name: lang === 'zh' ? '调整布局' : /Arrange/i }).click();
      await page.locator('.wb-shortcut-picker').waitFor();
      await page.locator('.wb-shortcut-picker').click();
      await page.keyboard.type(lang === 'zh' ? '报修' : 'Repair');
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${OUT}/workbench-picker-${lang}-1440.png` });
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${OUT}/workbench-picker-${lang}-390.png`, fullPage: true });
      await page.setViewportSize({ width: 1440, height: 900 });
      // Another application: /workStand names its own and offers the switch.
      await store(page, { appCode: 'PARK_OPS' });
      await page.goto(`${server.url}/center/workStand`);
      await page.locator('.ant-result').waitFor();
      await page.waitForTimeout(800);
      await shoot(page, 'workstand-other-application', lang);
      await context.close();
    }
  });
});
