/**
 * 通知公告 in Chromium against the real server: the operator (admin in the park operator's role)
 * has the bell, publishes a notice from the console with a preview as the member sees it, the
 * member gets it live and replies, the operator follows it in the notice's recipients (filtered,
 * exported as CSV) and withdraws it, and it leaves the member's bell and list at once. Then every
 * screen of the page in zh and en at 1440 and 390 px, with its tables measured: nothing under the
 * pinned column and no clipped header at 1440, nothing wider than a phone at 390.
 */
import { readFile, mkdir } from 'node:fs/promises';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { go, openSignedIn, operatorState, settled, signIn } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 } };
const PHONE = { width: 390, height: 844 };
const RUNTIME = JSON.stringify({ noticeEnabled: true, languageSwitch: true });

let server: RunningServer;
let browser: Browser;
/** The demo admin in the park operator's role, signed in once for every test. */
let operator: Awaited<ReturnType<typeof operatorState>>;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer({ PORTAL_RUNTIME_CONFIG: RUNTIME })]);
  await mkdir(SHOTS, { recursive: true });
  operator = await operatorState(browser, server.url);
}, 120_000);
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

const badge = async (page: Page) => Number((await page.locator('.notice-bell .ant-badge').innerText()).trim() || '0');

/** Nothing loading any more: no spinner, no skeleton, nothing moving. */
async function ready(page: Page) {
  await expect.poll(() => page.locator('.admin-page:visible .ant-spin-spinning').count()).toBe(0);
  await settled(page);
}

async function openNotices(page: Page) {
  await go(page, '/system/notices');
  await page.locator('.admin-notices').waitFor();
  await ready(page);
}

/** The visible tables' problems at this width: a clipped header, a column under the pinned one. */
function tableProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const all = (root: ParentNode, selector: string) => Array.from(root.querySelectorAll(selector)) as HTMLElement[];
    for (const table of all(document, '.admin-page .ant-table-wrapper')) {
      if (!table.offsetParent) continue;
      for (const th of all(table, 'thead th')) {
        if (th.scrollWidth > th.clientWidth + 1) problems.push(`clipped header: ${th.innerText}`);
      }
      const pinned = all(table, 'thead th.ant-table-cell-fix-right')[0];
      if (pinned) {
        const edge = pinned.getBoundingClientRect().left;
        for (const th of all(table, 'thead th:not(.ant-table-cell-fix-right)')) {
          if (th.getBoundingClientRect().right > edge + 1) problems.push(`under the pinned column: ${th.innerText}`);
        }
      }
    }
    return problems;
  });
}

describe('通知公告', () => {
  it('publishes from the console, follows the reply in the recipients, exports and withdraws', async () => {
    const op = await openPage(browser, { ...DESKTOP, storageState: operator }, 'zh');
    const member = await openPage(browser, DESKTOP, 'zh');
    await openSignedIn(op.page, server.url);
    // The operator's role holds messageIndex: the header has the bell.
    await op.page.locator('.notice-bell').waitFor();
    await signIn(member.page, server.url, '/center/login', 'member');
    await member.page.goto(`${server.url}/center/message/index`);
    await member.page.locator('.message-item').first().waitFor();
    const before = await badge(member.page);

    const page = op.page;
    await openNotices(page);
    await page.getByRole('button', { name: '发布通知' }).click();
    const drawer = page.locator('.ant-drawer', { hasText: '回复方式' });
    await drawer.waitFor();
    await settled(page);
    await drawer.getByLabel('标题', { exact: true }).fill('控制台发布-消防演练');
    await drawer.getByLabel('正文', { exact: true }).fill('周五下午三点消防演练。\n\n请各企业安排人员参加。');
    await drawer.getByRole('radio', { name: '文字回复' }).check();
    await drawer.getByText('指定用户').click();
    const pick = drawer.getByRole('combobox', { name: '选择指定用户' });
    await pick.click();
    await pick.fill('member');
    await page.locator('.ant-select-item-option', { hasText: '张敏' }).click();
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: /^预\s?览$/ }).click();
    const preview = page.locator('.notice-preview');
    await preview.locator('.ant-drawer-title', { hasText: '控制台发布-消防演练' }).waitFor();
    await expect.poll(() => preview.locator('.notice-preview-body p').count()).toBe(2);
    await settled(page);
    await preview.getByRole('button', { name: 'Close' }).or(preview.locator('.ant-drawer-close')).first().click();
    await settled(page);
    await page.getByRole('button', { name: '发布通知' }).last().click();
    await page.locator('.ant-message-notice', { hasText: '已发布，接收人 1 位' }).waitFor();

    // The member's bell counts it at once, and their list shows it.
    await expect.poll(() => badge(member.page), { timeout: 10_000 }).toBe(before + 1);
    await member.page.locator('.message-item', { hasText: '控制台发布-消防演练' }).click();
    const own = member.page.locator('.notice-drawer');
    await own.locator('.ant-drawer-title', { hasText: '控制台发布-消防演练' }).waitFor();
    await settled(member.page);
    await own.locator('textarea').fill('收到，准时参加');
    await member.page.getByRole('button', { name: '提交回复' }).click();
    await own.waitFor({ state: 'hidden' });

    // The operator follows it: the list's counts (read again), the recipient's reply in the detail.
    await page.reload();
    await openNotices(page);
    const row = page.locator('.ant-table-row', { hasText: '控制台发布-消防演练' });
    await expect.poll(async () => (await row.innerText()).replace(/\s+/g, ' ')).toContain('已读 1 / 1 已回复 1 / 1');
    await row.getByRole('button', { name: /^详\s?情$/ }).click();
    await page.locator('.admin-notice-detail').waitFor();
    await page.locator('.ant-segmented-item', { hasText: '已回复' }).click();
    const reply = page.locator('.ant-table-row', { hasText: '张敏' });
    await expect.poll(() => reply.innerText()).toContain('收到，准时参加');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: '导出 CSV' }).click(),
    ]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain('姓名,用户名,状态,阅读时间,回复时间,回复内容,附件');
    expect(csv).toMatch(/张敏,member,已回复,.*收到，准时参加/);

    // Withdrawn: gone from the member's list at once, still here marked withdrawn.
    await page.getByRole('button', { name: /^撤\s?回$/ }).click();
    await page.locator('.ant-modal-confirm', { hasText: '不可恢复' }).waitFor();
    await settled(page);
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /^撤\s?回$/ })
      .click();
    await page.locator('.ant-message-notice', { hasText: '已撤回通知' }).waitFor();
    await page.locator('.admin-notice-detail .ant-tag', { hasText: '已撤回' }).waitFor();
    await expect
      .poll(() => member.page.locator('.message-item', { hasText: '控制台发布-消防演练' }).count(), { timeout: 10_000 })
      .toBe(0);
    expect(await badge(member.page)).toBe(before);
    expect(op.errors).toEqual([]);
    expect(member.errors).toEqual([]);
    await op.context.close();
    await member.context.close();
  }, 180_000);

  it('shows the list, the form, the preview and the detail in zh and en at 1440 and 390 px', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const zh = lang === 'zh';
      const { context, page, errors } = await openPage(browser, { ...DESKTOP, storageState: operator }, lang);
      await openSignedIn(page, server.url);
      for (const width of [1440, 390] as const) {
        await page.setViewportSize(width === 1440 ? DESKTOP.viewport! : PHONE);
        await openNotices(page);
        const shot = (what: string) =>
          page.screenshot({ path: `${SHOTS}/console-notices-${what}-${lang}-${width}.png` });
        if (width === 1440) expect(await tableProblems(page), `list ${lang}`).toEqual([]);
        else
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
        await shot('list');

        await page
          .getByRole('button', { name: zh ? '发布通知' : 'Publish a notice' })
          .first()
          .click();
        const drawer = page.locator('.ant-drawer', { hasText: zh ? '回复方式' : 'Answer' });
        await drawer.waitFor();
        await settled(page);
        await drawer
          .getByLabel(zh ? '标题' : 'Title', { exact: true })
          .fill(zh ? '园区停车场改造通知' : 'Car park works');
        await drawer
          .getByLabel(zh ? '正文' : 'Body', { exact: true })
          .fill(
            zh
              ? '下周一起停车场分区施工。\n\n请按指示牌停放车辆。'
              : 'The car park is rebuilt from Monday.\n\nPlease follow the signs.',
          );
        await drawer.getByText(zh ? '按角色' : 'By role').click();
        await settled(page);
        await shot('form');
        await drawer.getByRole('button', { name: zh ? /^预\s?览$/ : 'Preview' }).click();
        await page.locator('.notice-preview .notice-preview-body').waitFor();
        await settled(page);
        await shot('preview');
        await page.locator('.notice-preview .ant-drawer-close').click();
        await settled(page);
        await page.locator('.ant-drawer:visible .ant-drawer-close').first().click();
        await settled(page);

        // The detail of a seeded notice: every member of the demo got it.
        await page
          .locator('.ant-table-row')
          .first()
          .getByRole('button', { name: zh ? /^详\s?情$/ : 'Details' })
          .click();
        await page.locator('.admin-notice-detail .ant-table-row').first().waitFor();
        await ready(page);
        if (width === 1440) expect(await tableProblems(page), `detail ${lang}`).toEqual([]);
        else
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
          ).toBeLessThanOrEqual(0);
        await shot('detail');
        await page.getByRole('button', { name: zh ? '返回列表' : 'Back to the list' }).click();
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 240_000);
});
