/**
 * A member's open portal follows the operator's menu editor without a reload (ADR 046): each move
 * in 菜单管理 (a drag, then the step buttons, three in a row) is announced on the live stream, and
 * the member's side menu shows the new order within seconds.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { go, settled, signIn, signInAsOperator } from './support/shell.js';

const DESKTOP = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  // The live stream is the notices' (the bell holds it): on, as a park that uses notices has it.
  [browser, server] = await Promise.all([
    sharedBrowser(),
    startServer({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ noticeEnabled: true }) }),
  ]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

/** The top-level entries of the signed-in user's side menu, in order. */
const topMenu = (page: Page) =>
  page
    .locator('.shell-sider [role=menu] > li')
    .evaluateAll((items) =>
      items.map((li) => (li.querySelector('.ant-menu-title-content') as HTMLElement | null)?.innerText.trim() ?? ''),
    );

/** Whether `a` comes before `b` in the member's side menu. */
const before = async (page: Page, a: string, b: string) => {
  const titles = await topMenu(page);
  return titles.includes(a) && titles.includes(b) && titles.indexOf(a) < titles.indexOf(b);
};

/** A drag of the browser's own drag and drop with the pointer, onto the top edge of another node. */
async function dragOnto(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + 20, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 24, a.y + a.height / 2 + 6, { steps: 4 });
  await page.mouse.move(b.x + 20, b.y + 3, { steps: 10 });
  await page.mouse.move(b.x + 21, b.y + 3, { steps: 2 });
  await page.mouse.up();
}

describe("the member's menu follows the menu editor", () => {
  it('after a drag and two steps, each without a reload', async () => {
    const member = await openPage(browser, DESKTOP);
    await signIn(member.page, server.url);
    await member.page.locator('.shell-sider [role=menu]').waitFor();
    // The bell holds the stream; once it shows a count the stream is open.
    await member.page.locator('.notice-bell').first().waitFor();
    expect(await before(member.page, '企业服务', '消息中心')).toBe(true);
    let loads = 0;
    member.page.on('framenavigated', (f) => {
      if (f === member.page.mainFrame()) loads++;
    });

    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signInAsOperator(page, server.url);
    await go(page, '/system/menus');
    const tree = page.locator('.admin-menu-tree');
    const node = (title: string) =>
      tree.locator('.ant-tree-treenode', {
        has: page.locator('.admin-menu-title', { hasText: new RegExp(`^${title}$`) }),
      });
    await node('企业服务').waitFor();
    await settled(page);
    const toast = (text: string) => page.locator('.ant-message-notice', { hasText: text }).last();

    // 1: the drag puts 消息中心 before 企业服务.
    await dragOnto(
      page,
      node('消息中心').locator('.ant-tree-node-content-wrapper'),
      node('企业服务').locator('.ant-tree-node-content-wrapper'),
    );
    await toast('已移动').waitFor();
    await expect.poll(() => before(member.page, '消息中心', '企业服务'), { timeout: 5000 }).toBe(true);

    // 2 and 3: one step down, then one step up, each followed.
    await node('消息中心').locator('.admin-menu-title').click();
    await page.getByRole('button', { name: '下移' }).click();
    await expect.poll(() => before(member.page, '企业服务', '消息中心'), { timeout: 5000 }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: '上移' }).isDisabled()).toBe(false);
    await page.getByRole('button', { name: '上移' }).click();
    await expect.poll(() => before(member.page, '消息中心', '企业服务'), { timeout: 5000 }).toBe(true);

    // The editor and the member agree, and the member's page never reloaded.
    const editorOrder = async () => {
      const titles = await tree.locator('.ant-tree-treenode .admin-menu-title').allInnerTexts();
      return titles.indexOf('消息中心') < titles.indexOf('企业服务');
    };
    await expect.poll(editorOrder).toBe(true);
    expect(loads).toBe(0);
    expect(errors).toEqual([]);
    expect(member.errors).toEqual([]);
    await member.context.close();
    await context.close();
  });
});
