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
import { launch, signedFetch } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

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
    launch(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([slider?.stop(), clickWord?.stop()]);
});

const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** A page whose storage already holds the language, as the header toggle would leave it. */
async function open(b: Browser, options: BrowserContextOptions, lang: 'zh' | 'en' = 'zh') {
  const context = await b.newContext(options);
  await context.addInitScript((v) => localStorage.setItem('portal_locale', JSON.stringify({ v, e: null })), lang);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Fills the login form and submits it: with the behavioural captcha on, that opens the check. */
async function submitLogin(page: Page, base: string) {
  await page.goto(`${base}/center/login`);
  await page.locator('#username').fill('member');
  await page.locator('#password').fill('Demo@2026!');
  expect(await page.locator('#imgvercode').count()).toBe(0);
  await page.keyboard.press('Enter');
  await page.locator('.bc-background').waitFor();
  // The dialog zooms in: positions are right once the animation is over.
  await expect.poll(() => page.locator('.ant-modal[class*="zoom"]').count()).toBe(0);
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
  it('fails on a wrong position with a new image, then passes at the answer and signs in (mouse)', async () => {
    const { context, page, errors } = await open(browser, DESKTOP);
    await submitLogin(page, slider.url);
    await page.getByRole('dialog', { name: '请完成安全验证' }).waitFor();
    await page.getByText('向右拖动滑块填充拼图').waitFor();
    await page.screenshot({ path: `${SHOTS}/captcha-slider-zh-1440.png` });

    const first = await background(page);
    await drag(page, 80);
    await page.locator('.bc-tip.is-failure', { hasText: '验证失败' }).waitFor();
    expect(await page.locator('.bc-slider.is-failure').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/captcha-slider-failure-zh-1440.png` });
    // §4: a new image after 1 s, the handle back at the left.
    await expect.poll(() => background(page), { timeout: 5000 }).not.toBe(first);
    await expect.poll(() => page.getByRole('slider').getAttribute('aria-valuenow')).toBe('0');

    await drag(page, 150);
    const tip = page.locator('.bc-tip.is-success');
    await tip.waitFor();
    expect(await tip.textContent()).toMatch(/^\d+\.\d{2}s验证成功$/);
    expect(await page.locator('.bc-slider.is-success').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/captcha-slider-success-zh-1440.png` });
    await page.locator('.ant-modal-content').screenshot({ path: `${SHOTS}/captcha-slider-dialog-zh.png` });
    // §4: the pop-up closes after 1 s and the success goes on to the login.
    await page.waitForURL(/\/center\/index/);
    await page.getByText('欢迎回来，张敏').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works with touch on a phone', async () => {
    const { context, page } = await open(browser, PHONE);
    await submitLogin(page, slider.url);
    await page.screenshot({ path: `${SHOTS}/captcha-slider-zh-390.png` });
    const box = (await page.getByRole('slider').boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const at = (x: number) => [{ x: box.x + box.width / 2 + x, y: box.y + box.height / 2 }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (const x of [30, 60, 90, 120, 150]) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x) });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.locator('.bc-tip.is-success').waitFor();
    await page.waitForURL(/\/center\/index/);
    await context.close();
  });

  it('works with the keyboard alone, in English, on a plain-http origin that is not localhost', async () => {
    const intranet = await launch([`--host-resolver-rules=MAP intranet.test 127.0.0.1`]);
    try {
      const { context, page, errors } = await open(intranet, PHONE, 'en');
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

  it('shows the server’s reason and no images when the client is over its get limit (6201)', async () => {
    const ua = 'captcha-limit-test';
    const { context, page } = await open(browser, { ...DESKTOP, userAgent: ua });
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
    await expect.poll(() => page.locator('.ant-modal[class*="zoom"]').count()).toBe(0);
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
    const { context, page, errors } = await open(browser, DESKTOP);
    await fillInline(page, clickWord.url, 'Wrong@2026!');
    expect(await page.getByRole('dialog').count()).toBe(0);
    const hint = page.locator('.bc-bar-text');
    await expect.poll(() => hint.textContent()).toMatch(/^请依次点击【.,.,.】$/);
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
    // §4: refreshed after 0.7 s, the marks gone.
    await expect.poll(() => background(page), { timeout: 5000 }).not.toBe(first);
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
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByText('用户名、密码或验证码错误').waitFor();
    await expect.poll(() => background(page)).not.toBe(passed);
    await expect.poll(() => page.locator('.bc-click.is-ready').count()).toBe(1);

    await page.locator('#password').fill('Demo@2026!');
    await pass();
    await page.screenshot({ path: `${SHOTS}/captcha-click-success-zh-1440.png` });
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/\/center\/index/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works with the keyboard alone, in English, on a phone', async () => {
    const { context, page, errors } = await open(browser, PHONE, 'en');
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
