/**
 * The drag-page builder and my workbench in Chromium against the real server (ADR 028): a page
 * built by dragging three widgets from the palette, one resized, saved, published, opened from its
 * menu entry (one column at phone width), and its previous version restored; my workbench arranged,
 * reloaded, its layout kept; axe-core finds no serious violations.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { activeTab, axeViolations, clickMenu, settled, signIn, signInAsOperator } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };

let browser: Browser;
beforeAll(async () => {
  browser = await sharedBrowser();
});
afterAll(async () => closeContexts(browser));

/** Stored context codes the shell starts in (the role and application switches store the same). */
async function storeContext(page: Page, codes: Record<string, string>) {
  await page.evaluate((c) => {
    for (const [k, v] of Object.entries(c)) localStorage.setItem(`portal_${k}`, JSON.stringify({ v, e: null }));
  }, codes);
}

/**
 * Drags a widget of `kind` from the palette and drops it `dx` px from the canvas grid's left, near
 * its bottom edge (or the window's, when the grid runs below it: the pointer must stay in the
 * window), with the pointer: the browser's own drag and drop.
 */
async function dropWidget(page: Page, kind: string, dx: number) {
  const before = await page.locator('.pb-item').count();
  const from = (await page.locator(`.pb-palette-item[data-kind="${kind}"]`).boundingBox())!;
  const grid = (await page.locator('.pb-canvas .react-grid-layout').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  const y = Math.min(grid.y + grid.height, page.viewportSize()!.height) - 40;
  await page.mouse.move(grid.x + dx, y, { steps: 8 });
  await page.mouse.move(grid.x + dx + 4, y + 4, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => page.locator('.pb-item').count()).toBe(before + 1);
}

async function dragBy(page: Page, handle: Locator, dx: number, dy: number) {
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + dx / 2, box.y + box.height / 2 + dy / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy, { steps: 5 });
  await page.mouse.up();
}

describe('the drag-page builder', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ languageSwitch: true }) });
  });
  afterAll(async () => server?.stop());

  it('builds a page from the palette, publishes it to its menu entry, and restores the version before', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    // The park operator's role (through the role switch) in the operations platform.
    await signInAsOperator(page, server.url);
    await storeContext(page, { appCode: 'PARK_OPS' });
    await page.goto(`${server.url}/center/index`);
    await clickMenu(page, '园区运营', '页面设计');
    await page.waitForURL(/\/center\/ops\/pages/);

    // The operations board, as seeded: three widgets, version 1 published.
    const select = page.getByRole('combobox', { name: '选择页面' });
    await page.locator('.ant-select', { has: select }).click();
    await page.locator('.ant-select-item-option', { hasText: 'ops-board' }).click();
    await expect.poll(() => page.locator('.pb-item').count()).toBe(3);
    await page.getByText('已发布版本 1').waitFor();

    // Three widgets dragged in below the others, the chart widened by its resize handle.
    await dropWidget(page, 'text', 40);
    await dropWidget(page, 'chart', 40);
    await dropWidget(page, 'links', 40);
    const chart = page.locator('.pb-item[data-kind="chart"]');
    await chart.locator('.react-resizable-handle').scrollIntoViewIfNeeded();
    const narrow = (await chart.boundingBox())!.width;
    await dragBy(page, chart.locator('.react-resizable-handle'), 200, 80);
    await expect.poll(async () => (await chart.boundingBox())!.width).toBeGreaterThan(narrow + 100);
    // The chart widget's settings: a line chart now.
    await chart.click({ position: { x: 30, y: 60 } });
    const type = page.getByRole('combobox', { name: '图表类型' });
    await page.locator('.ant-select', { has: type }).click();
    await page.locator('.ant-select-item-option', { hasText: '折线图' }).click();
    // Undo and redo step over the change.
    await page.getByRole('button', { name: '撤销' }).click();
    await page.getByRole('button', { name: '重做' }).click();
    await settled(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/builder-zh-1440.png` });

    await page.getByRole('button', { name: '保存' }).click();
    await page.getByText('已保存为版本 2').waitFor();
    await page.getByRole('button', { name: '发布' }).click();
    await page.getByText('已发布版本 2').waitFor();

    // Its menu entry shows the version published: the three widgets and the three added. (The
    // 园区运营 submenu is open since the builder was opened from it.)
    await clickMenu(page, '运营看板');
    await page.waitForURL(/\/center\/ops\/board/);
    const view = page.locator('.drag-page[data-version="2"]');
    await view.waitFor();
    expect(await view.locator('.dp-widget').count()).toBe(6);
    await view.locator('.dp-chart canvas').waitFor();
    await page.screenshot({ path: `${SHOTS}/drag-page-zh-1440.png` });
    // At a phone's width, one column in reading order.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.dp-column').waitFor();
    const lefts = await view
      .locator('.dp-cell')
      .evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().left));
    expect(new Set(lefts).size).toBe(1);
    await page.setViewportSize({ width: 1440, height: 900 });

    // The version before comes back: restored as version 3, published, shown by the entry.
    await clickMenu(page, '页面设计');
    await expect.poll(() => activeTab(page)).toBe('页面设计');
    await page.getByRole('button', { name: '版本历史' }).click();
    const v1 = page.locator('.ant-drawer .ant-list-item', { hasText: '版本 1 ·' });
    // antd spaces a two-character Chinese label: 恢 复.
    await v1.getByRole('button', { name: /恢\s?复/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /恢\s?复/ })
      .click();
    await page.getByText('已恢复版本 1，并发布为版本 3').waitFor();
    await expect.poll(() => page.locator('.pb-item').count()).toBe(3);
    await clickMenu(page, '运营看板');
    const restored = page.locator('.drag-page[data-version="3"]');
    await restored.waitFor();
    expect(await restored.locator('.dp-widget').count()).toBe(3);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('my workbench', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      PORTAL_RUNTIME_CONFIG: JSON.stringify({ languageSwitch: true, apptheme: 'JZH', appSwitch: true }),
    });
  });
  afterAll(async () => server?.stop());

  it('is arranged by its user, and the layout is kept across a reload', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signIn(page, server.url);
    await storeContext(page, { appCode: 'ENT_WORKBENCH' });
    await page.goto(`${server.url}/center/workStand`);
    const cards = page.locator('.wb-grid [data-widget]');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(5);
    await page.locator('[data-widget="notices"] .ant-list-item').first().waitFor();
    await settled(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/workbench-zh-1440.png` });

    await page.getByRole('button', { name: '调整布局' }).click();
    // 我的企业 hidden, 未读通知 made wider, then kept.
    await page.getByRole('button', { name: '隐藏“我的企业”' }).click();
    const notices = page.locator('[data-widget="notices"]');
    const narrow = (await notices.boundingBox())!.width;
    await dragBy(page, notices.locator('.react-resizable-handle'), 300, 0);
    await expect.poll(async () => (await notices.boundingBox())!.width).toBeGreaterThan(narrow + 150);
    await page.getByRole('button', { name: '保存布局' }).click();
    await page.getByText('布局已保存').waitFor();

    await page.reload();
    await cards.first().waitFor();
    expect(await cards.count()).toBe(4);
    expect(await page.locator('[data-widget="enterprises"]').count()).toBe(0);
    expect((await notices.boundingBox())!.width).toBeGreaterThan(narrow + 150);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opened in another application, says which one it belongs to and switches to it', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signIn(page, server.url);
    // The member's other application (what a switch stores), then the workbench's address.
    await storeContext(page, { appCode: 'ENT_SERVICE' });
    await page.goto(`${server.url}/center/workStand`);
    await page.getByText('此页面属于“企业工作台”应用').waitFor();
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: '切换到“企业工作台”' }).click()]);
    // The same address, now in the workbench's application: the workbench itself.
    expect(new URL(page.url()).pathname).toBe('/center/workStand');
    await page.locator('.wb-grid [data-widget]').first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('portal_appCode'))).toContain('ENT_WORKBENCH');
    expect(errors).toEqual([]);
    await context.close();
  });
});
