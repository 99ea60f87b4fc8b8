/**
 * The park's open device pages in Chromium against the real server (ADR 026): without a session,
 * the public devices with filters and search and their alerts, in zh and en at 1440 and 390 px,
 * without serious accessibility violations; signed in with alert:handle, an alert acknowledged and
 * closed from the page.
 */
import pg from 'pg';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { axeViolations, settled, signIn } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE: BrowserContextOptions = {
  ...STILL,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  bypassCSP: true,
};

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ languageSwitch: true }) });
  browser = await sharedBrowser();
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

describe('the open device pages', () => {
  it('show the public devices and their alerts to anyone, filtered and searched, in zh and en', async () => {
    for (const [lang, options, width] of [
      ['zh', DESKTOP, 1440],
      ['en', DESKTOP, 1440],
      ['zh', PHONE, 390],
      ['en', PHONE, 390],
    ] as const) {
      const { context, page, errors } = await openPage(browser, options, lang);
      await page.goto(`${server.url}/center/deviceManage/devices?tc=demo`);
      const rows = page.locator('.ant-table-row');
      await expect.poll(() => rows.count()).toBe(8);
      // The substation's meter is not public.
      expect(await page.getByText('EM-SUB-01').count()).toBe(0);
      expect(await page.getByText(lang === 'zh' ? '温度 23.5 °C' : 'Temperature 23.5 °C').count()).toBe(1);
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/devices-${lang}-${width}.png`, fullPage: true });

      await page.getByRole('searchbox').fill(lang === 'zh' ? '电梯' : 'lift');
      await page.getByRole('searchbox').press('Enter');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().innerText()).toContain('LIFT-B-02');

      await page.getByRole('link', { name: lang === 'zh' ? '设备告警' : 'Device alerts' }).click();
      await page.waitForURL(/\/deviceManage\/alerts\?tc=demo/);
      await expect.poll(() => rows.count()).toBe(4);
      expect(await rows.first().innerText()).toContain(lang === 'zh' ? 'B栋2号电梯困人报警' : 'passenger trapped');
      // The state filter: only the open ones.
      // antd's combobox is its hidden search input: the select around it takes the click.
      const state = page.getByRole('combobox', { name: lang === 'zh' ? '处理状态' : 'State' });
      await page.locator('.ant-select', { has: state }).click();
      await page.locator('.ant-select-item-option', { hasText: lang === 'zh' ? '待处理' : 'Open' }).click();
      await expect.poll(() => rows.count()).toBe(2);
      // Nobody signed in: nothing to act with.
      expect(await page.getByRole('button', { name: lang === 'zh' ? '确认' : 'Acknowledge' }).count()).toBe(0);
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/alerts-${lang}-${width}.png`, fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('let a signed-in user whose role holds alert:handle acknowledge and close an alert', async () => {
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    await db.query(`
      INSERT INTO role_permissions (role_id, permission_id)
      SELECT r.id, p.id FROM roles r JOIN permissions p ON p.tenant_id = r.tenant_id AND p.code = 'alert:handle'
      WHERE r.code = 'ent_admin' ON CONFLICT DO NOTHING`);
    await db.end();
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signIn(page, server.url, '/center/login', 'admin');
    await page.goto(`${server.url}/center/deviceManage/alerts?tc=demo`);
    const row = page.locator('.ant-table-row', { hasText: 'A栋空调机组回水温度偏高' });
    await row.getByRole('button', { name: '确认', exact: true }).click();
    await expect.poll(() => row.innerText()).toContain('已确认');
    await row.getByRole('button', { name: '关闭', exact: true }).click();
    await expect.poll(() => row.innerText()).toContain('已关闭');
    expect(await row.getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
