/**
 * The operators' console in Chromium against the real server (ADR 031): the demo admin, switched
 * to 园区运营, reviews an enterprise from its detail (not passed with a reason, then passed), reads
 * one in English, moves a menu entry by drag and drop (the member's menu follows after a reload),
 * creates a user and sets a new password the user then signs in with; the platform operator
 * creates a tenant, gives it a name and a theme and opens its portal, and 门户 opens a tenant's
 * login page beside the console without signing it out. Every console page's layout, accessibility
 * and photographs in both languages at both widths are e2e/console-tables.spec.ts's.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, openPage, sharedBrowser } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import {
  axeViolations,
  clickMenu,
  clickOpenMenuItem,
  fillCaptcha,
  go,
  settled,
  signIn,
  signInAsOperator,
  signOutFromMenu,
} from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP = { viewport: { width: 1440, height: 900 }, bypassCSP: true };
const PHONE = { width: 390, height: 844 };
type Lang = 'zh' | 'en';

let browser: Browser;
let server: RunningServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([sharedBrowser(), startServer()]);
});
afterAll(async () => {
  await closeContexts(browser);
  await server?.stop();
});

/** The demo admin in the park operator's role (the role switch of the user drop-down). */
async function asOperator(lang: Lang = 'zh') {
  const opened = await openPage(browser, DESKTOP, lang);
  const { page } = opened;
  await signInAsOperator(page, server.url);
  return opened;
}

/**
 * Signs in with a password of one's own (signIn's is the demo's). A temporary one (an operator set
 * it, ADR 033) is replaced by `own` on the page the sign-in leads to first.
 */
async function signInWith(page: Page, path: string, username: string, password: string, own?: string) {
  await page.goto(`${server.url}${path}`);
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await fillCaptcha(page);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => !u.pathname.endsWith('/login'));
  if (own) {
    await page.waitForURL(/\/user\/register-result\?/);
    await page.locator('#oldPwd').fill(password);
    await page.locator('#password').fill(own);
    await page.locator('#repeat').fill(own);
    await page.getByRole('button', { name: /确定并进入|Save and continue/ }).click();
  }
  await page.getByRole('tablist').or(page.locator('.shell-bare')).first().waitFor();
}

/** A console page, opened in the app (its own tab), once its list has arrived. */
async function openConsole(page: Page, name: string) {
  await go(page, `/system/${name}`);
  await page.locator(`.admin-${name}`).waitFor();
  await ready(page);
}

/** Nothing loading any more: no spinner, no skeleton, nothing moving. */
async function ready(page: Page) {
  await expect
    .poll(() => page.locator('.admin-page:visible .ant-spin-spinning, .admin-page:visible .ant-skeleton').count())
    .toBe(0);
  await settled(page);
}

const row = (page: Page, text: string) => page.locator('.ant-table-row', { hasText: text });
/** The value of a field of the enterprise detail, by its label. */
const detailField = (page: Page, label: string) =>
  page
    .locator('.admin-enterprise-detail .ant-descriptions-row', {
      has: page.locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) }),
    })
    .locator('.ant-descriptions-item-content');
const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice', { hasText: text });

/** A drag of the browser's own drag and drop with the pointer, from one element onto a point of another. */
async function dragOnto(page: Page, from: Locator, to: Locator, at: 'top' | 'middle') {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + 20, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 24, a.y + a.height / 2 + 6, { steps: 4 });
  const y = at === 'top' ? b.y + 3 : b.y + b.height / 2;
  await page.mouse.move(b.x + 20, y, { steps: 10 });
  await page.mouse.move(b.x + 21, y, { steps: 2 });
  await page.mouse.up();
}

/** The top-level entries of the signed-in user's side menu, in order. */
const topMenu = (page: Page) =>
  page
    .locator('.shell-sider [role=menu] > li')
    .evaluateAll((items) =>
      items.map((li) => (li.querySelector('.ant-menu-title-content') as HTMLElement | null)?.innerText.trim() ?? ''),
    );

describe('the operators’ console', () => {
  it('reviews an enterprise from what it registered: not passed with a reason, then passed', async () => {
    const { context, page, errors } = await asOperator();
    await clickMenu(page, '系统管理', '企业审核');
    await page.waitForURL(/\/center\/system\/enterprises/);
    await ready(page);
    const name = '蓝海智能制造有限公司';
    await row(page, name).waitFor();
    // The list names the contact the company gave.
    await row(page, name).getByText('周建华').waitFor();

    // Its detail: everything it registered, and who registered it.
    const detail = page.locator('.admin-enterprise-detail');
    await row(page, name)
      .getByRole('button', { name: `查看 ${name}` })
      .click();
    await detailField(page, '统一社会信用代码').getByText('91320500MA1MX2QW7B').waitFor();
    expect(await detailField(page, '所属行业').innerText()).toContain('制造业 / 计算机、通信和其他电子设备制造业');
    expect(await detailField(page, '所在地区').innerText()).toContain('江苏省 / 苏州市 / 虎丘区');
    expect(await detailField(page, '联系人').innerText()).toContain('周建华');
    expect(await detailField(page, '职务').innerText()).toContain('总经理');
    expect(await detailField(page, '注册人').innerText()).toContain('系统管理员');
    expect(await detailField(page, '注册人手机号').innerText()).toMatch(/13800000001\s*已验证/);
    expect(await detailField(page, '审核状态').innerText()).toContain('待审核');

    // Not passed, from the detail: the reason is required.
    await detail.getByRole('button', { name: /^不通过$/ }).click();
    const dialog = page.locator('.ant-modal-content');
    await dialog.getByRole('button', { name: '不通过' }).click();
    await dialog.getByText('请填写未通过的原因').waitFor();
    await dialog.getByLabel('未通过原因').fill('营业执照照片不清晰，请重新上传');
    await dialog.getByRole('button', { name: '不通过' }).click();
    await toast(page, `“${name}”未通过审核`).waitFor();
    // The detail, still open, shows the decision; the queue no longer holds it.
    await detailField(page, '未通过原因').getByText('营业执照照片不清晰，请重新上传').waitFor();
    expect(await detailField(page, '审核状态').innerText()).toContain('未通过');
    await detail
      .locator('.ant-drawer-footer')
      .getByRole('button', { name: /^关\s?闭$/ })
      .click();
    await expect.poll(() => row(page, name).count()).toBe(0);

    // In the list of those not passed, with the reason; then passed from its detail.
    await page.locator('.ant-segmented-item', { hasText: '未通过' }).click();
    await ready(page);
    await row(page, name).getByText('营业执照照片不清晰，请重新上传').waitFor();
    await row(page, name)
      .getByRole('button', { name: `查看 ${name}` })
      .click();
    await detailField(page, '审核状态').getByText('未通过').waitFor();
    await detail.getByRole('button', { name: /^通\s?过$/ }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /^通\s?过$/ })
      .click();
    await toast(page, `“${name}”已通过审核`).waitFor();
    await detailField(page, '审核状态').getByText('已通过').waitFor();
    await detail
      .locator('.ant-drawer-footer')
      .getByRole('button', { name: /^关\s?闭$/ })
      .click();
    await page.locator('.ant-segmented-item', { hasText: '已通过' }).click();
    await ready(page);
    await row(page, name).getByText('已通过').waitFor();

    // The audit log has both reviews.
    await openConsole(page, 'audit');
    // The action is chosen by its label in the catalogue; each row shows its label.
    await page.getByLabel('操作', { exact: true }).fill('审核企业');
    await page.locator('.ant-select-item-option', { hasText: '审核企业' }).click();
    await page.getByRole('button', { name: /查\s?询/ }).click();
    await ready(page);
    await expect.poll(() => page.locator('.ant-table-row').count()).toBeGreaterThanOrEqual(2);
    expect(new Set(await page.locator('.ant-table-row td:nth-child(4)').allInnerTexts())).toEqual(
      new Set(['审核企业']),
    );
    // Each says what was decided about which enterprise; the newest opens to the state before and after.
    await row(page, `系统管理员 驳回了 ${name} 的入驻审核`).waitFor();
    await row(page, `系统管理员 通过了 ${name} 的入驻审核`).first().locator('.ant-table-row-expand-icon').click();
    await page.locator('.admin-audit-detail tr', { hasText: '审核状态' }).getByText('未通过').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an application in English: its names, industry and region in English, the Chinese of record beside', async () => {
    const { context, page, errors } = await asOperator('en');
    await openConsole(page, 'enterprises');
    // In English the list names the enterprise by its English name only (ADR 047).
    const name = 'Qiming Biomedicine Co., Ltd.';
    await row(page, name).getByText('Wang Lei').waitFor();
    expect(await row(page, name).innerText()).not.toContain('启明生物医药有限公司');
    await row(page, name)
      .getByRole('button', { name: `View ${name}` })
      .click();
    await detailField(page, 'Industry')
      .getByText('Information transmission, software and information technology services')
      .waitFor();
    expect(await detailField(page, 'Region').innerText()).toMatch(/^Shanghai\s+310115$/);
    expect(await detailField(page, 'Enterprise').innerText()).toMatch(
      /^Qiming Biomedicine Co\., Ltd\.\s+启明生物医药有限公司$/,
    );
    expect(await detailField(page, 'Contact').innerText()).toMatch(/^Wang Lei\s+王磊$/);
    expect(await detailField(page, 'Position').innerText()).toMatch(/^R&D director\s+研发总监$/);
    expect(await detailField(page, 'Registered by').innerText()).toMatch(/^System Administrator/);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/admin-enterprise-detail-en-1440.png` });
    await page.setViewportSize(PHONE);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/admin-enterprise-detail-en-390.png` });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves a menu entry by drag and drop, and the member’s menu follows after a reload', async () => {
    const member = await openPage(browser, DESKTOP);
    await signIn(member.page, server.url);
    await member.page.locator('.shell-sider [role=menu]').waitFor();
    const before = await topMenu(member.page);
    expect(before.indexOf('消息中心')).toBeGreaterThan(before.indexOf('企业服务'));

    const { context, page, errors } = await asOperator();
    await openConsole(page, 'menus');
    const tree = page.locator('.admin-menu-tree');
    const node = (title: string) =>
      tree.locator('.ant-tree-treenode', {
        has: page.locator('.admin-menu-title', { hasText: new RegExp(`^${title}$`) }),
      });
    await node('企业服务').waitFor();
    await dragOnto(
      page,
      node('消息中心').locator('.ant-tree-node-content-wrapper'),
      node('企业服务').locator('.ant-tree-node-content-wrapper'),
      'top',
    );
    await toast(page, '已移动').waitFor();
    await ready(page);
    const titles = await tree.locator('.ant-tree-treenode .admin-menu-title').allInnerTexts();
    expect(titles.indexOf('消息中心')).toBeLessThan(titles.indexOf('企业服务'));

    await member.page.reload();
    await member.page.locator('.shell-sider [role=menu]').waitFor();
    const after = await topMenu(member.page);
    expect(after.indexOf('消息中心')).toBeLessThan(after.indexOf('企业服务'));
    expect(errors).toEqual([]);
    expect(member.errors).toEqual([]);
    await member.context.close();
    await context.close();
  });

  it('adds a child entry, hides and deletes it, and exports the menu and imports it back', async () => {
    const { context, page, errors } = await asOperator();
    await openConsole(page, 'menus');
    const tree = page.locator('.admin-menu-tree');
    const title = (text: string) => tree.locator('.admin-menu-title', { hasText: new RegExp(`^${text}$`) });
    await title('园区运营').click();
    await page.getByRole('button', { name: '添加子菜单' }).click();
    const drawer = page.locator('.ant-drawer-content');
    // The path starts under the parent's.
    expect(await drawer.getByLabel('路径').inputValue()).toBe('/ops/');
    await drawer.getByLabel('菜单标题').fill('巡检记录');
    await drawer.getByLabel('英文标题').fill('Inspections');
    await drawer.getByLabel('路由名称').fill('opsInspections');
    await drawer.getByLabel('路径').fill('/ops/inspections');
    await drawer.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '已创建').waitFor();
    // Shown and chosen, its branch open.
    await title('巡检记录').waitFor();
    await page.locator('.admin-menu-selected', { hasText: '巡检记录' }).waitFor();
    await page.getByRole('button', { name: '隐藏' }).click();
    await tree.locator('.admin-menu-node.is-hidden', { hasText: '巡检记录' }).waitFor();
    // A parent cannot be deleted; the new entry can.
    await title('园区运营').click();
    await expect.poll(() => page.getByRole('button', { name: /删\s?除/ }).isDisabled()).toBe(true);
    await title('巡检记录').click();
    await page.getByRole('button', { name: /删\s?除/ }).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /删\s?除/ })
      .click();
    await toast(page, '已删除').waitFor();
    await expect.poll(() => title('巡检记录').count()).toBe(0);

    // Out as a file and back in: the same entries.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /导\s?出/ }).click(),
    ]);
    const file = `${SHOTS}/admin-menus-export.json`;
    await download.saveAs(file);
    type Entry = { children?: Entry[] };
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: number; menus: Entry[] };
    expect(exported.format).toBe(1);
    const count = (list: Entry[]): number => list.reduce((n, m) => n + 1 + count(m.children ?? []), 0);
    await page.locator('input[type=file][accept*=json]').setInputFiles(file);
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /导\s?入/ })
      .click();
    await toast(page, `已导入 ${count(exported.menus)} 个菜单项`).waitFor();
    await title('系统管理').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates a user, sets a new password, and the user signs in with it', async () => {
    const { context, page, errors } = await asOperator();
    await openConsole(page, 'users');
    await page.getByRole('button', { name: '新建用户' }).click();
    const drawer = page.locator('.ant-drawer-content');
    // Typing starts in the first field; every required one is marked.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('username');
    expect(await drawer.locator('label.ant-form-item-required').allInnerTexts()).toEqual([
      '用户名',
      '姓名',
      '密码',
      '确认密码',
    ]);
    await drawer.getByLabel('用户名').fill('e2e_zhou');
    await drawer.getByLabel('姓名').fill('周宁');
    await drawer.getByLabel('英文名称').fill('Zhou Ning');
    await drawer.getByLabel('手机号').fill('13900001234');
    await drawer.getByLabel('密码', { exact: true }).fill('Kv7#mRq2Tz');
    await drawer.getByLabel('确认密码').fill('Kv7#mRq2Tz');
    await drawer.getByLabel('角色').click();
    await page.locator('.ant-select-item-option', { hasText: '企业成员' }).click();
    await page.keyboard.press('Escape');
    await drawer.getByLabel('所属企业').click();
    await drawer.getByLabel('所属企业').fill('星河');
    await page.locator('.ant-select-item-option', { hasText: '星河科技有限公司' }).click();
    await page.keyboard.press('Escape');
    await drawer.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '已创建').waitFor();
    await row(page, 'e2e_zhou').getByText('企业成员').waitFor();

    // A new password, with the strength rule checked in the dialog first.
    await row(page, 'e2e_zhou')
      .getByRole('button', { name: /更多操作|更\s?多/ })
      .click();
    await clickOpenMenuItem(page, '重置密码');
    const dialog = page.locator('.ant-modal-content');
    await dialog.getByLabel('新密码').fill('short');
    await dialog.getByLabel('确认密码').fill('short');
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await dialog.getByText('密码强度不够').waitFor();
    await dialog.getByLabel('新密码').fill('Np4$wXe8Lc');
    await dialog.getByLabel('确认密码').fill('Np4$wXe8Lc');
    await dialog.getByRole('button', { name: /确\s?定|OK/ }).click();
    await toast(page, '密码已重置').waitFor();

    // A username taken: the server's message, and the form stays open. Typing starts while the
    // drawer still slides in, in a field of one's choice: the typing stays there (the first field
    // takes the focus at the end of the opening only when none was chosen).
    await page.getByRole('button', { name: '新建用户' }).click();
    await drawer.getByLabel('英文名称').pressSequentially('Same Name', { delay: 80 });
    expect(await drawer.getByLabel('英文名称').inputValue()).toBe('Same Name');
    expect(await drawer.getByLabel('用户名').inputValue()).toBe('');
    await drawer.getByLabel('用户名').fill('member');
    await drawer.getByLabel('姓名').fill('重名');
    await drawer.getByLabel('密码', { exact: true }).fill('Kv7#mRq2Tz');
    await drawer.getByLabel('确认密码').fill('Kv7#mRq2Tz');
    await drawer.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '该用户名已被注册').waitFor();
    await drawer.getByRole('button', { name: /取\s?消/ }).click();
    // One's own account offers no changes here (the server refuses them too).
    await row(page, '系统管理员').getByText('请在个人设置中修改').waitFor();
    expect(await row(page, '系统管理员').getByRole('button').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    const user = await openPage(browser, DESKTOP);
    // The operator chose that password (temporary, as by default): the user chooses their own first.
    await signInWith(user.page, '/center/login', 'e2e_zhou', 'Np4$wXe8Lc', 'Zq6&vTn3Wd');
    await user.page.locator('.shell-user').getByText('周宁').waitFor();
    expect(user.errors).toEqual([]);
    await user.context.close();
  });
});

describe('the platform operator', () => {
  it('creates a tenant with its own name and theme, and its portal shows them', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signIn(page, server.url, '/center/login?tc=platform', 'platform');
    await clickMenu(page, '系统管理', '租户管理');
    await page.waitForURL(/\/center\/system\/tenants/);
    await ready(page);
    await row(page, 'demo').waitFor();
    await page.screenshot({ path: `${SHOTS}/admin-tenants-zh-1440.png` });

    await page.getByRole('button', { name: '新建租户' }).click();
    const drawer = page.locator('.ant-drawer-content');
    await drawer.getByLabel('租户编码').fill('binjiang');
    await drawer.getByLabel('名称', { exact: true }).fill('滨江园区');
    await drawer.getByLabel('英文名称').fill('Binjiang Park');
    await drawer.getByLabel('用户名').fill('bjadmin');
    await drawer.getByLabel('姓名').fill('滨江管理员');
    await drawer.getByLabel('密码', { exact: true }).fill('Rv7#kLm9Tz');
    await drawer.getByLabel('确认密码').fill('Rv7#kLm9Tz');
    // Not temporary: the tenant's operator signs in with it as it is.
    await drawer.getByLabel('临时密码：下次登录时须先修改').uncheck();
    await drawer.getByRole('button', { name: /保\s?存/ }).click();
    await toast(page, '租户 binjiang 已创建').waitFor();

    // Managed: the other pages act on it, as the bar says.
    await row(page, 'binjiang')
      .getByRole('button', { name: /管\s?理/ })
      .click();
    await page.locator('.admin-tenant-bar', { hasText: '滨江园区（binjiang）' }).waitFor();
    await openConsole(page, 'users');
    await row(page, 'bjadmin').getByText('滨江管理员').waitFor();
    expect(await row(page, '系统管理员').count()).toBe(0);
    await openConsole(page, 'settings');
    await page.locator('.admin-tenant-bar', { hasText: 'binjiang' }).waitFor();
    const field = (key: string) => page.locator(`.admin-setting[data-key="${key}"]`);
    await field('siteName').locator('.admin-setting-follow').click();
    await field('siteName').getByRole('textbox').fill('滨江园区服务门户');
    await field('theme').locator('.admin-setting-follow').click();
    await field('theme').locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: '顶部菜单' }).click();
    await page
      .getByRole('button', { name: /保\s?存/ })
      .first()
      .click();
    await toast(page, '已保存').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/admin-settings-managed-zh-1440.png` });

    // Its portal: its name on the login page, its operator in the top-menu layout.
    const portal = await openPage(browser, DESKTOP);
    await portal.page.goto(`${server.url}/center/login?tc=binjiang`);
    await portal.page.getByText('滨江园区服务门户').first().waitFor();
    await signInWith(portal.page, '/center/login?tc=binjiang', 'bjadmin', 'Rv7#kLm9Tz');
    await portal.page.locator('.shell.shell-top').waitFor();
    await portal.page.locator('.shell-brand', { hasText: '滨江园区服务门户' }).first().waitFor();
    await portal.page.screenshot({ path: `${SHOTS}/admin-tenant-portal-zh-1440.png` });
    expect(portal.errors).toEqual([]);
    await portal.context.close();

    // Back to one's own tenant.
    await page.getByRole('button', { name: '返回本租户' }).click();
    await expect.poll(() => page.locator('.admin-tenant-bar').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('sets the security policy in 租户设置, and the registration page follows its password rules', async () => {
    const shots = process.env.POLICY_SHOTS;
    for (const lang of ['zh', 'en'] as const) {
      const { context, page, errors } = await asOperator(lang);
      await openConsole(page, 'settings');
      await page.getByRole('tab', { name: lang === 'zh' ? '安全策略' : 'Security policy' }).click();
      const form = page.locator('.admin-security-policy');
      await form.waitFor();
      await ready(page);
      const field = (key: string) => form.locator(`.admin-setting[data-key="${key}"]`);
      await field('passwordMinLength').getByRole('spinbutton').fill('12');
      await field('passwordNotCommon').getByRole('switch').click();
      await form.getByRole('button', { name: lang === 'zh' ? /保\s?存/ : 'Save' }).click();
      await toast(page, lang === 'zh' ? '已保存' : 'Saved').waitFor();
      // Measured once the save's button is back at rest (a colour mid-transition is no contrast).
      await expect.poll(() => form.locator('.ant-btn-loading').count()).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      await settled(page);
      if (lang === 'zh') expect(await axeViolations(page)).toEqual([]);
      if (shots) await page.screenshot({ path: `${shots}/security-policy-${lang}-1440.png`, fullPage: true });
      await page.setViewportSize(PHONE);
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      if (shots) await page.screenshot({ path: `${shots}/security-policy-${lang}-390.png`, fullPage: true });
      await page.setViewportSize(DESKTOP.viewport);

      // The registration page of the tenant follows: its hint and its message name 12 characters.
      const register = await context.newPage();
      await register.goto(`${server.url}/center/user/register?tenantCode=demo`);
      const item = register.locator('.ant-form-item', { has: register.locator('#password') });
      await item.getByText(lang === 'zh' ? '至少12位，区分大小写' : 'At least 12 characters, case sensitive').waitFor();
      await register.locator('#password').fill('Harbour#26x');
      await item.getByText(lang === 'zh' ? '密码长度至少12位' : 'A password has at least 12 characters').waitFor();
      if (shots) await register.screenshot({ path: `${shots}/register-password-rule-${lang}-1440.png` });
      await register.close();

      // Back to the product's defaults, for the other tests.
      await form.getByRole('button', { name: lang === 'zh' ? '恢复产品默认' : 'Use the product defaults' }).click();
      await form.getByRole('button', { name: lang === 'zh' ? /保\s?存/ : 'Save' }).click();
      await expect.poll(() => toast(page, lang === 'zh' ? '已保存' : 'Saved').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("opens a tenant's login page from 门户 in a new tab, and the console's tab stays signed in", async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await signIn(page, server.url, '/center/login?tc=platform', 'platform');
    await openConsole(page, 'tenants');
    const token = () => page.evaluate(() => localStorage.getItem('portal_token'));
    const before = await token();
    expect(before).toBeTruthy();

    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      row(page, 'demo').getByRole('link', { name: /门户/ }).click(),
    ]);
    const tabErrors: string[] = [];
    tab.on('pageerror', (e) => tabErrors.push(e.message));
    // The demo's login page, saying which session this browser holds; no mismatch, no sign-out.
    await tab.waitForURL(/\/center\/login\?tc=demo$/);
    await tab.locator('#username').waitFor();
    await tab.getByText('本浏览器已登录租户 platform；在此登录会结束那里的会话').waitFor();
    await settled(tab);
    expect(await tab.getByText('租户编码不一致，您已被登出请重新登陆').count()).toBe(0);
    expect(new URL(tab.url()).pathname).toBe('/center/login');
    await tab.screenshot({ path: `${SHOTS}/admin-tenant-portal-login-zh-1440.png` });

    // The console's tab: the same session, still working, its tenant still remembered.
    expect(await token()).toBe(before);
    await page.reload();
    await openConsole(page, 'tenants');
    await row(page, 'demo').waitFor();
    expect(page.url()).toMatch(/\/center\/system\/tenants/);
    expect(await token()).toBe(before);
    const remembered = await page.evaluate(() => localStorage.getItem('portal_tenantCode'));
    expect(JSON.parse(remembered ?? '{}')).toMatchObject({ v: 'platform' });

    // Signed out in the console, the login tab stays where it is, now without that session.
    await signOutFromMenu(page);
    await page.waitForURL(/\/center\/login/);
    await expect.poll(() => tab.getByText('本浏览器已登录租户 platform').count()).toBe(0);
    expect(new URL(tab.url()).search).toBe('?tc=demo');
    expect(errors).toEqual([]);
    expect(tabErrors).toEqual([]);
    await context.close();
  });
});
