/**
 * The audit log a person reads (ADR 044), in Chromium against the real server: the demo admin, as
 * park operator, approves 蓝海智能制造有限公司; the 审计日志 page says so in a sentence naming the
 * enterprise (in English mode by its English name), opens to the state before and after, filters by
 * who did it and exports what it shows as CSV. Photographed in both languages at desktop and phone
 * width (e2e/artifacts/audit-*.png); at desktop width no header is cut and no column is pinned over
 * another.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { go, settled, signIn, signInAsOperator } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE = { width: 390, height: 844 };
const ENTERPRISE = '蓝海智能制造有限公司';

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer()]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

async function ready(page: Page) {
  await expect
    .poll(() => page.locator('.admin-page:visible .ant-spin-spinning, .admin-page:visible .ant-skeleton').count())
    .toBe(0);
  await settled(page);
}
async function openAudit(page: Page) {
  await go(page, '/system/audit');
  await page.locator('.admin-audit').waitFor();
  await ready(page);
}
const row = (page: Page, text: string) => page.locator('.ant-table-row', { hasText: text });
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice', { hasText: text });

/** The table's headers that are cut (their text wider than their cell), and whether any column is pinned. */
async function tableProblems(page: Page) {
  return page.evaluate(() => {
    const cut = Array.from(document.querySelectorAll<HTMLElement>('.admin-audit .ant-table-thead th'))
      .filter((th) => th.scrollWidth > th.clientWidth + 1)
      .map((th) => th.innerText);
    const pinned = document.querySelectorAll(
      '.admin-audit .ant-table-cell-fix-left, .admin-audit .ant-table-cell-fix-right',
    ).length;
    return { cut, pinned };
  });
}

/** Filters by who did it, then exports; the downloaded file's text. */
async function filterAndExport(page: Page, labels: { actor: string; apply: RegExp; exportButton: RegExp }) {
  await page.getByLabel(labels.actor, { exact: true }).fill('admin');
  await page.getByRole('button', { name: labels.apply }).click();
  await ready(page);
  const actors = await page.locator('.ant-table-row td:nth-child(5)').allInnerTexts();
  expect(actors.length).toBeGreaterThan(0);
  expect(actors.every((a) => a.endsWith('admin'))).toBe(true);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: labels.exportButton }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-\d{8}-\d{6}\.csv$/);
  const file = `${SHOTS}/${download.suggestedFilename()}`;
  await download.saveAs(file);
  return readFileSync(file, 'utf8');
}

describe('the audit log', () => {
  it('says who approved which enterprise, in Chinese and in English; filters by who; exports CSV', async () => {
    // Someone else signs in first: the actor filter has something to leave out.
    const member = await openPage(browser, DESKTOP);
    await signIn(member.page, server.url);
    await member.context.close();

    const { context, page, errors } = await openPage(browser, DESKTOP, 'zh');
    await signInAsOperator(page, server.url);
    await go(page, '/system/enterprises');
    await page.locator('.admin-enterprises').waitFor();
    await ready(page);
    await row(page, ENTERPRISE)
      .getByRole('button', { name: `查看 ${ENTERPRISE}` })
      .click();
    await page
      .locator('.admin-enterprise-detail')
      .getByRole('button', { name: /^通\s?过$/ })
      .click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /^通\s?过$/ })
      .click();
    await toast(page, `“${ENTERPRISE}”已通过审核`).waitFor();

    await openAudit(page);
    const approved = row(page, `系统管理员 通过了 ${ENTERPRISE} 的入驻审核`);
    await approved.waitFor();
    await row(page, '张敏 登录成功').waitFor();
    await approved.locator('.ant-table-row-expand-icon').click();
    const status = page.locator('.admin-audit-detail tr', { hasText: '审核状态' });
    await status.getByText('待审核').waitFor();
    await status.getByText('已通过').waitFor();
    await page.locator('.admin-audit-subject', { hasText: `企业：${ENTERPRISE}` }).waitFor();
    expect(await tableProblems(page)).toEqual({ cut: [], pinned: 0 });
    await page.screenshot({ path: `${SHOTS}/audit-zh-1440.png` });

    const csv = await filterAndExport(page, { actor: '操作人', apply: /查\s?询/, exportButton: /导出 CSV/ });
    await toast(page, /已导出 \d+ 条记录/).waitFor();
    expect(csv.startsWith('\ufeff时间,操作人,用户名,IP 地址,操作,说明,对象类型,对象,对象 ID,变更\r\n')).toBe(true);
    expect(csv).toContain(`系统管理员 通过了 ${ENTERPRISE} 的入驻审核`);
    expect(csv).toContain('审核状态：待审核 → 已通过');
    expect(csv).not.toContain('张敏 登录成功');
    expect(await row(page, '张敏').count()).toBe(0);

    await page.setViewportSize(PHONE);
    await ready(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/audit-zh-390.png` });
    expect(errors).toEqual([]);
    await context.close();

    // English mode: the sentence in English, the enterprise by its English name.
    const en = await openPage(browser, DESKTOP, 'en');
    await signInAsOperator(en.page, server.url);
    await openAudit(en.page);
    const english = row(
      en.page,
      'System Administrator approved Lanhai Intelligent Manufacturing Co., Ltd.’s registration',
    );
    await english.waitFor();
    await english.locator('.ant-table-row-expand-icon').click();
    const enStatus = en.page.locator('.admin-audit-detail tr', { hasText: 'Review status' });
    await enStatus.getByText('Awaiting review').waitFor();
    await enStatus.getByText('Approved').waitFor();
    expect(await tableProblems(en.page)).toEqual({ cut: [], pinned: 0 });
    expect(await en.page.locator('.admin-audit .ant-table').first().innerText()).not.toMatch(/[\u4e00-\u9fff]/);
    await en.page.screenshot({ path: `${SHOTS}/audit-en-1440.png` });
    const enCsv = await filterAndExport(en.page, { actor: 'Who', apply: /Search/, exportButton: /Export CSV/ });
    await toast(en.page, /Exported \d+ entries/).waitFor();
    expect(enCsv).toContain('Time,Who,Username,IP address,Action,What happened,Object type,Object,Object ID,Changes');
    expect(enCsv).toContain('System Administrator approved Lanhai Intelligent Manufacturing Co., Ltd.’s registration');
    await en.page.setViewportSize(PHONE);
    await ready(en.page);
    await en.page.screenshot({ path: `${SHOTS}/audit-en-390.png` });
    expect(en.errors).toEqual([]);
    await en.context.close();
  });
});
