/**
 * The behavioural captcha widgets end to end, in real Chromium against the real built server: the
 * login form with `CAPTCHA_BEHAVIOUR=1` in test mode (slider answer x = 150; click-word answers
 * (60,60) (150,60) (240,60) in the 310×155 frame), the slider as a pop-up, click-word inline.
 * Mouse, touch and keyboard; failure and a new
 * image; a client over its get limit (6201) sees no images; English on a plain-http origin that is
 * not localhost (no WebCrypto there).
 */
import { mkdirSync } from 'node:fs';
import type { RuntimeConfig } from '@portal/contracts';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContexts, launch, openPage, sharedBrowser, signedFetch, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { settled } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
let slider: RunningServer;
let clickWord: RunningServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [slider, clickWord, browser] = await Promise.all([
    startServer({ CAPTCHA_BEHAVIOUR: '1', PORTAL_RUNTIME_CONFIG: '{"languageSwitch":true}' }),
    startServer({
      CAPTCHA_BEHAVIOUR: '1',
      PORTAL_RUNTIME_CONFIG: '{"languageSwitch":true,"captchaType":"clickWord","captchaMode":"fixed"}',
    }),
    sharedBrowser(),
  ]);
});
afterAll(async () => {
  await closeContexts(browser);
  await Promise.all([slider?.stop(), clickWord?.stop()]);
});

const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 } };
const PHONE: BrowserContextOptions = {
  ...STILL,
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
};

/** Waits for the dialog's challenge; the dialog zooms in, and positions are right once it stopped. */
async function dialogReady(page: Page) {
  await page.locator('.bc-slider.is-ready .bc-background').waitFor();
  await settled(page);
}

/** Fills the login form and submits it: with the behavioural captcha on, that opens the check. */
async function submitLogin(page: Page, base: string, password = 'Demo@2026!') {
  await page.goto(`${base}/center/login`);
  await page.locator('#username').fill('member');
  await page.locator('#password').fill(password);
  await page.keyboard.press('Enter');
  await dialogReady(page);
  // The behavioural captcha replaces the image one.
  expect(await page.locator('#imgvercode, .login-captcha-image').count()).toBe(0);
}

/** How long after `start` `change` comes true (it is polled every 50 ms). */
async function msUntil(change: () => Promise<boolean>, start = Date.now()) {
  while (!(await change())) {
    if (Date.now() - start > 10_000) throw new Error('no change within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - start;
}

const background = (page: Page) => page.locator('.bc-background').getAttribute('src');

/** Drags the slider handle by `dx` px with the mouse. */
async function drag(page: Page, dx: number) {
  const box = (await page.getByRole('slider').boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + dx / 2, y, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + dx, y, { steps: 4 });
  await page.mouse.up();
}

/** Clicks at (x, y) of the 310×155 frame on the drawn image, whatever its drawn size. */
async function clickAt(page: Page, x: number, y: number) {
  const box = (await page.locator('.bc-image').boundingBox())!;
  await page.mouse.click(box.x + (x * box.width) / 310, box.y + (y * box.height) / 155);
}

describe('slider puzzle', () => {
  it('opens on submit, closes and reopens, fails with a new image, passes, and opens fresh after a refused login (mouse)', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await submitLogin(page, slider.url, 'Wrong@2026!');
    const dialog = page.getByRole('dialog', { name: '请完成安全验证' });
    await page.getByText('向右拖动滑块填充拼图').waitFor();
    await page.screenshot({ path: `${SHOTS}/captcha-slider-zh-1440.png` });

    // Closed without passing: nothing is sent; sending again opens it again with a new image.
    const first = await background(page);
    await dialog.getByRole('button', { name: /close|关闭/i }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.keyboard.press('Enter');
    await dialogReady(page);
    const second = await background(page);
    expect(second).not.toBe(first);

    await drag(page, 80);
    await page.locator('.bc-tip.is-failure', { hasText: '验证失败' }).waitFor();
    const failedAt = Date.now();
    expect(await page.locator('.bc-slider.is-failure').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/captcha-slider-failure-zh-1440.png` });
    // docs/product/behaviour.md#captcha: the failure stays 1 s, then a new image with the handle back at the left.
    const changed = await msUntil(async () => (await background(page)) !== second, failedAt);
    expect(changed).toBeGreaterThanOrEqual(800);
    await expect.poll(() => page.getByRole('slider').getAttribute('aria-valuenow')).toBe('0');

    await drag(page, 150);
    const tip = page.locator('.bc-tip.is-success');
    await tip.waitFor();
    const passedAt = Date.now();
    expect(await tip.textContent()).toMatch(/^\d+\.\d{2}s验证成功$/);
    expect(await page.locator('.bc-slider.is-success').count()).toBe(1);
    // The success shows for 1 s only (without a closing animation when motion is reduced): one photo, of the dialog.
    await page.locator('.ant-modal-content').screenshot({ path: `${SHOTS}/captcha-slider-dialog-zh.png` });
    // docs/product/behaviour.md#captcha: shown for 1 s, then the dialog closes and the login goes out: the password is wrong.
    expect(await msUntil(async () => (await dialog.count()) === 0, passedAt)).toBeGreaterThanOrEqual(800);
    await page.getByText('用户名、密码或验证码错误').waitFor();

    // The pass was spent: sending again asks again, with a new challenge, not the old success.
    await page.locator('#password').fill('Demo@2026!');
    await page.keyboard.press('Enter');
    await dialogReady(page);
    await drag(page, 150);
    await page.locator('.bc-tip.is-success').waitFor();
    await page.waitForURL(/\/center\/index/);
    await page.getByText('欢迎回来，张敏').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works with touch on a small phone, where the image is drawn narrower than 310 px', async () => {
    const { context, page } = await openPage(browser, { ...PHONE, viewport: { width: 320, height: 640 } });
    await submitLogin(page, slider.url);
    await page.screenshot({ path: `${SHOTS}/captcha-slider-zh-320.png` });
    const drawn = (await page.locator('.bc-image').boundingBox())!.width;
    expect(drawn).toBeLessThan(300);
    // The answer, 150 px of the 310 px frame, is this far on the drawn image.
    const target = (150 * drawn) / 310;
    const box = (await page.getByRole('slider').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const at = (x: number) => [{ x: box.x + box.width / 2 + x, y: box.y + box.height / 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (const f of [0.25, 0.5, 0.75, 1]) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(target * f) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.locator('.bc-tip.is-success').waitFor();
    await page.waitForURL(/\/center\/index/);
    await context.close();
  });

  it('works with the keyboard alone, in English, on a plain-http origin that is not localhost', async () => {
    const intranet = await launch([`--host-resolver-rules=MAP intranet.test 127.0.0.1`]);
    try {
      const { context, page, errors } = await openPage(intranet, PHONE, 'en');
      await submitLogin(page, `http://intranet.test:${slider.port}`);
      expect(await page.evaluate(() => typeof crypto.subtle)).toBe('undefined');
      await page.getByRole('dialog', { name: 'Security check' }).waitFor();
      const handle = page.getByRole('slider', { name: /Puzzle slider/ });
      await handle.focus();
      for (let i = 0; i < 14; i++) await page.keyboard.press('Shift+ArrowRight');
      for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      expect(await handle.getAttribute('aria-valuenow')).toBe('149');
      await page.screenshot({ path: `${SHOTS}/captcha-slider-en-390.png` });
      await page.keyboard.press('Enter');
      const tip = page.locator('.bc-tip.is-success');
      await tip.waitFor();
      expect(await tip.textContent()).toMatch(/^Verified in \d+\.\d{2} s$/);
      await page.screenshot({ path: `${SHOTS}/captcha-slider-success-en-390.png` });
      await page.waitForURL(/\/center\/index/);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await intranet.close();
    }
  });

  it('asks to retry, and does not fall back to the image captcha, when getCaptchaType fails', async () => {
    const { context, page } = await openPage(browser, DESKTOP);
    await page.route('**/api/front/captcha/getCaptchaType**', (route) => route.abort());
    await page.goto(`${slider.url}/center/login`);
    const alert = page.getByRole('alert').filter({ hasText: '无法获取验证方式，请重试' });
    await alert.waitFor();
    expect(await page.locator('#imgvercode').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/captcha-kind-failed-zh-1440.png` });
    await page.unroute('**/api/front/captcha/getCaptchaType**');
    await page.locator('#username').fill('member');
    await page.locator('#password').fill('Demo@2026!');
    await alert.getByRole('button', { name: /重\s*试/ }).click();
    await expect.poll(() => alert.count()).toBe(0);
    await page.locator('#password').press('Enter');
    await dialogReady(page);
    await context.close();
  });

  it('shows the server’s reason and no images when the client is over its get limit (6201)', async () => {
    const ua = 'captcha-limit-test';
    const { context, page } = await openPage(browser, { ...DESKTOP, userAgent: ua });
    await page.goto(`${slider.url}/center/login`);
    const { signSecret } = await page.evaluate(
      () => (window as unknown as { __PORTAL_CONFIG__: RuntimeConfig }).__PORTAL_CONFIG__,
    );
    // The same client as the page (address and user agent) takes its whole minute's allowance.
    for (let i = 0; ; i++) {
      const r = await signedFetch(slider.url, signSecret, '/api/front/captcha/get', {
        body: { captchaType: 'blockPuzzle' },
        headers: { 'user-agent': ua },
      });
      if (r.body.repCode === '6201') break;
      expect(i).toBeLessThan(100);
    }
    await page.locator('#username').fill('member');
    await page.locator('#password').fill('Demo@2026!');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'get接口请求次数超限，请稍后再试!' }).waitFor();
    await settled(page);
    expect(await page.locator('.bc-background, .bc-piece').count()).toBe(0);
    expect(await page.getByRole('slider').getAttribute('aria-disabled')).toBe('true');
    await page.screenshot({ path: `${SHOTS}/captcha-slider-limited-zh-1440.png` });
    await context.close();
  });
});

/** Fills the login form; the inline check is already there. */
async function fillInline(page: Page, base: string, password = 'Demo@2026!') {
  await page.goto(`${base}/center/login`);
  await page.locator('#username').fill('member');
  await page.locator('#password').fill(password);
  await page.locator('.bc-background').waitFor();
}

describe('click-word, inline', () => {
  it('asks for the check, fails on wrong clicks with a new image, passes in order and signs in (mouse)', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    await fillInline(page, clickWord.url, 'Wrong@2026!');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const hint = page.locator('.bc-bar-text');
    await expect.poll(() => hint.textContent()).toMatch(/^请依次点击【.,.,.】$/);
    // As wide as the fields above it.
    const widthOf = (selector: string) => page.locator(selector).evaluate((e) => e.getBoundingClientRect().width);
    expect(Math.abs((await widthOf('.bc-image')) - (await widthOf('.login-field:has(#password)')))).toBeLessThan(1);
    await page.keyboard.press('Enter');
    await page.getByText('请完成安全验证').waitFor();
    await page.screenshot({ path: `${SHOTS}/captcha-click-zh-1440.png` });

    const first = await background(page);
    await clickAt(page, 150, 120); // the decoy first
    await clickAt(page, 60, 60);
    expect(await page.locator('.bc-mark').allTextContents()).toEqual(['1', '2']);
    await page.screenshot({ path: `${SHOTS}/captcha-click-marks-zh-1440.png` });
    await clickAt(page, 240, 60);
    await page.locator('.bc-click.is-failure .bc-bar-text', { hasText: '验证失败' }).waitFor();
    // docs/product/behaviour.md#captcha: refreshed after 0.7 s, the marks gone.
    expect(await msUntil(async () => (await background(page)) !== first)).toBeGreaterThanOrEqual(500);
    await expect.poll(() => page.locator('.bc-mark').count()).toBe(0);

    const pass = async () => {
      await clickAt(page, 60, 60);
      await clickAt(page, 150, 60);
      await clickAt(page, 240, 60);
      await page.locator('.bc-click.is-success .bc-bar-text', { hasText: '验证成功' }).waitFor();
    };
    // A wrong password after a pass: the server's message, and a new check (the pass is spent).
    await pass();
    const passed = await background(page);
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await page.getByText('用户名、密码或验证码错误').waitFor();
    await expect.poll(() => background(page)).not.toBe(passed);
    await expect.poll(() => page.locator('.bc-click.is-ready').count()).toBe(1);

    await page.locator('#password').fill('Demo@2026!');
    await pass();
    await page.screenshot({ path: `${SHOTS}/captcha-click-success-zh-1440.png` });
    // Enter sends the form while the passed check still has the focus.
    expect(await page.evaluate(() => document.activeElement?.closest('#captchaVerification') !== null)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/center\/index/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works with the keyboard alone, in English, on a phone', async () => {
    const { context, page, errors } = await openPage(browser, PHONE, 'en');
    await fillInline(page, clickWord.url);
    const area = page.getByRole('application', { name: /Click in order/ });
    await area.focus();
    // The cross-hair starts at the centre (155, 77.5); Shift moves 20 px, plain arrows 5 px.
    const press = async (key: string, times: number) => {
      for (let i = 0; i < times; i++) await page.keyboard.press(key);
    };
    await press('ArrowUp', 3); // y 62.5
    await press('Shift+ArrowLeft', 4);
    await press('ArrowLeft', 3); // x 60
    await page.keyboard.press('Enter');
    await press('Shift+ArrowRight', 4);
    await press('ArrowRight', 2); // x 150
    await page.keyboard.press('Enter');
    await page.keyboard.press('Backspace'); // takes the second mark back …
    expect(await page.locator('.bc-mark').count()).toBe(1);
    await page.keyboard.press('Enter'); // … and sets it again
    await press('Shift+ArrowRight', 4);
    await press('ArrowRight', 2); // x 240
    expect(await page.locator('.bc-mark').count()).toBe(2);
    await page.screenshot({ path: `${SHOTS}/captcha-click-en-390.png` });
    await page.keyboard.press('Enter');
    await page.locator('.bc-click.is-success .bc-bar-text', { hasText: 'Verified' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/captcha-click-success-en-390.png` });
    // On to the button with Tab (the spent check's controls are out of the way), and send.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 60))).toContain('submit');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/center\/index/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
