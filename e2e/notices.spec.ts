/**
 * Notices in Chromium against two instances of the real server on one database: each reply way
 * end to end with an attachment up and down (zh at 1440 px, en at 390 px); the bell's count live
 * in two tabs while notices are published on the other instance; a dropped connection misses no
 * notice; and notice bodies from an XSS corpus run nothing.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { signRequest } from '@portal/contracts/node-signing';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/db/embedded.js';
import { closeContexts, openPage, sharedBrowser, STILL } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { settled, signIn, signedInState } from './support/shell.js';

const SHOTS = 'e2e/artifacts';
const DESKTOP: BrowserContextOptions = { ...STILL, viewport: { width: 1440, height: 900 } };
const PHONE: BrowserContextOptions = {
  ...STILL,
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
};
const RUNTIME = JSON.stringify({ noticeEnabled: true, languageSwitch: true });

let a: RunningServer;
let b: RunningServer;
let browser: Browser;
/** The member signed in once on instance A, for the tests that neither sign in nor end the session. */
let member: Awaited<ReturnType<typeof signedInState>>;
let proxy: { url: string; drop: (ms: number) => Promise<void>; close: () => Promise<void> };
let publish: (notice: Record<string, unknown>) => Promise<string>;

/** A TCP relay in front of instance A whose connections can be cut, as a network drop does. */
async function relay(port: number) {
  const own = await freePort();
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const gone = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', gone).on('close', gone);
    upstream.on('error', gone).on('close', gone);
  });
  await new Promise<void>((done) => server.listen(own, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${own}`,
    async drop(ms: number) {
      refusing = true;
      for (const s of sockets) s.destroy();
      await new Promise((r) => setTimeout(r, ms));
      refusing = false;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

beforeAll(async () => {
  a = await startServer({ PORTAL_RUNTIME_CONFIG: RUNTIME });
  // The second instance: the same database and files, its own process.
  b = await startServer({
    PORTAL_RUNTIME_CONFIG: RUNTIME,
    DATABASE_URL: a.databaseUrl,
    FILES_DIR: a.filesDir,
  });
  browser = await sharedBrowser();
  proxy = await relay(a.port);
  member = await signedInState(browser, a.url);
  // The operator (admin in the park operator's role) publishes on instance B.
  const config = await (await fetch(`${b.url}/center/config.js`)).text();
  const secret = /"signSecret":"([^"]+)"/.exec(config)![1]!;
  const call = async (path: string, body: Record<string, unknown>, token?: string) => {
    const res = await fetch(`${b.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization_front: token } : {}),
        ...signRequest(secret, path, body),
      },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { status: number; data: unknown };
  };
  const page = await browser.newPage();
  await signIn(page, b.url, '/center/login', 'admin');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('portal_token')!).v as string);
  await page.close();
  const roles = await fetch(`${b.url}/api/front/member/getUserRolesNew`, {
    headers: { authorization_front: token, ...signRequest(secret, '/api/front/member/getUserRolesNew') },
  });
  const operator = ((await roles.json()) as { data: { id: string; title: string }[] }).data.find(
    (r) => r.title === '园区运营',
  )!;
  const switched = await call('/api/front/member/switchContext', { roleId: operator.id }, token);
  const operatorToken = switched.data as string;
  publish = async (notice) => {
    const res = await call(
      '/api/admin/notices',
      { remark: '<p>请阅知。</p>', audience: { kind: 'users', ids: [2] }, ...notice },
      operatorToken,
    );
    expect(res.status).toBe(200);
    return (res.data as { id: string }).id;
  };
}, 120_000);

afterAll(async () => {
  await closeContexts(browser);
  await proxy?.close();
  await Promise.all([a?.stop(), b?.stop()]);
});

const badge = async (page: Page) => Number((await page.locator('.notice-bell .ant-badge').innerText()).trim() || '0');

/** Opens a notice of the message page by its title. */
async function openNotice(page: Page, title: string) {
  await page.locator('.message-item', { hasText: title }).click();
  await page.locator('.notice-drawer .ant-drawer-title', { hasText: title }).waitFor();
  await settled(page);
}

describe('replying', () => {
  for (const [lang, options, width] of [
    ['zh', DESKTOP, 1440],
    ['en', PHONE, 390],
  ] as const) {
    it(`answers each reply way, with an attachment up and down (${lang}, ${width} px)`, async () => {
      const zh = lang === 'zh';
      const tag = `${lang}${width}`;
      await publish({ title: `阅办-${tag}`, replyWay: 0 });
      await publish({ title: `文字-${tag}`, replyWay: 1 });
      await publish({ title: `附件-${tag}`, replyWay: 2, translations: { en: { title: `Files-${tag}` } } });
      const { context, page, errors } = await openPage(browser, { ...options, storageState: member }, lang);
      await page.goto(`${a.url}/center/message/index`);

      await openNotice(page, `阅办-${tag}`);
      await page.screenshot({ path: `${SHOTS}/notice-confirm-${lang}-${width}.png` });
      await page.getByRole('button', { name: zh ? /^阅\s*办$/ : 'Acknowledge' }).click();
      await page.getByText(zh ? '成功' : 'Success', { exact: true }).waitFor();
      await page.locator('.notice-drawer').waitFor({ state: 'hidden' });
      await openNotice(page, `阅办-${tag}`);
      expect(await page.getByRole('button', { name: zh ? '已阅办' : 'Acknowledged' }).isDisabled()).toBe(true);
      await page.keyboard.press('Escape');

      await openNotice(page, `文字-${tag}`);
      await page.getByRole('button', { name: zh ? '提交回复' : 'Submit reply' }).click();
      await page.getByText(zh ? '长度在 2 到 255 个字符' : 'Between 2 and 255 characters').waitFor();
      await page.locator('.notice-drawer textarea').fill(zh ? '收到，按时参加' : 'Noted, we will attend');
      await page.getByRole('button', { name: zh ? '提交回复' : 'Submit reply' }).click();
      await page.locator('.notice-drawer').waitFor({ state: 'hidden' });

      const files = zh ? '附件' : 'Files';
      await openNotice(page, `${files}-${tag}`);
      const input = page.locator('.notice-drawer input[type=file]');
      await input.setInputFiles({ name: 'virus.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
      await page
        .getByText(zh ? 'virus.exe 该文件格式不符合要求' : 'virus.exe: this file type is not accepted')
        .waitFor();
      // A page named .png: refused by the server for its content.
      await input.setInputFiles({ name: 'page.png', mimeType: 'image/png', buffer: Buffer.from('<html></html>') });
      await page.getByText(zh ? 'page.png 该文件格式不符合要求' : 'page.png: this file type is not accepted').waitFor();
      const uploaded = page.waitForResponse((r) => r.url().includes('/api/front/letter/uploadReplyFile'));
      await input.setInputFiles({ name: '回执.txt', mimeType: 'text/plain', buffer: Buffer.from('已收到通知。\n') });
      // The answer's `data` is the stored path itself, and the reply names it so.
      const answer = (await (await uploaded).json()) as { status: number; data: unknown };
      expect(answer.status).toBe(200);
      expect(answer.data).toMatch(/^files\/[0-9a-f-]{36}$/);
      const replied = page.waitForRequest((r) => r.url().includes('/api/front/letter/reply?'));
      await page.locator('.ant-upload-list-item-done', { hasText: '回执.txt' }).waitFor();
      await page.locator('.notice-drawer textarea').fill(zh ? '材料见附件' : 'See the attachment');
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/notice-reply-${lang}-${width}.png` });
      await page.getByRole('button', { name: zh ? '提交回复' : 'Submit reply' }).click();
      expect((await replied).postDataJSON()).toMatchObject({ fileList: [{ addr: answer.data, fileName: '回执.txt' }] });
      await page.locator('.notice-drawer').waitFor({ state: 'hidden' });

      await openNotice(page, `${files}-${tag}`);
      await page.screenshot({ path: `${SHOTS}/notice-answered-${lang}-${width}.png` });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: '回执.txt' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('回执.txt');
      const body = await download.createReadStream().then(
        (s) =>
          new Promise<string>((done) => {
            let t = '';
            s.on('data', (c: Buffer) => (t += c.toString()));
            s.on('end', () => done(t));
          }),
      );
      expect(body).toBe('已收到通知。\n');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

describe('the live count', () => {
  it('follows notices published on the other instance in two tabs, and misses none across a drop', async () => {
    const { context, page } = await openPage(browser, DESKTOP);
    await signIn(page, proxy.url, '/center/login', 'member');
    const second = await context.newPage();
    await second.goto(`${proxy.url}/center/index`);
    await second.getByRole('tablist').waitFor();
    await expect.poll(() => badge(second), { timeout: 10_000 }).toBe(await badge(page));
    const before = await badge(page);

    await publish({ title: '实时-1', replyWay: 0 });
    await expect.poll(() => badge(page), { timeout: 10_000 }).toBe(before + 1);
    await expect.poll(() => badge(second), { timeout: 10_000 }).toBe(before + 1);

    // The connection drops; a notice arrives meanwhile; the stream resumes and catches up.
    const dropped = proxy.drop(3_000);
    await new Promise((r) => setTimeout(r, 300));
    await publish({ title: '实时-2', replyWay: 0 });
    await dropped;
    await expect.poll(() => badge(page), { timeout: 40_000 }).toBe(before + 2);
    await expect.poll(() => badge(second), { timeout: 10_000 }).toBe(before + 2);
    await page.locator('.notice-bell').click();
    await page.locator('.bell-item', { hasText: '实时-2' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/notice-bell-zh-1440.png` });
    await context.close();
  }, 120_000);
});

/** Stored XSS: each payload as a notice body, shown in the drawer and listed on the message page. */
const XSS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"></svg>',
  '<svg><script>window.__xss=1</script></svg>',
  '<a href="javascript:window.__xss=1">a</a>',
  '<a href="JaVaScRiPt:window.__xss=1">b</a>',
  '<a href="jav&#x09;ascript:window.__xss=1">c</a>',
  '<a href="data:text/html,<script>parent.__xss=1</script>">d</a>',
  '<iframe src="javascript:parent.__xss=1"></iframe>',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '<body onload="window.__xss=1">',
  '<details open ontoggle="window.__xss=1">',
  '<video><source onerror="window.__xss=1"></video>',
  '<audio src=x onerror="window.__xss=1"></audio>',
  '<input autofocus onfocus="window.__xss=1">',
  '<select autofocus onfocus="window.__xss=1"></select>',
  '<textarea autofocus onfocus="window.__xss=1"></textarea>',
  '<marquee onstart="window.__xss=1">m</marquee>',
  '<object data="javascript:window.__xss=1"></object>',
  '<embed src="javascript:window.__xss=1">',
  '<form action="javascript:window.__xss=1"><button>f</button></form>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=1"></style></mglyph></table></mtext></math>',
  '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">',
  '<svg><style><img src=x onerror="window.__xss=1"></style></svg>',
  '<p style="background:url(javascript:window.__xss=1)">s</p>',
  '<div style="width:expression(window.__xss=1)">e</div>',
  '<style>@import "javascript:window.__xss=1";</style>',
  '<link rel="stylesheet" href="javascript:window.__xss=1">',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '<base href="javascript:window.__xss=1//">',
  '<img src="x` `<script>window.__xss=1</script>"` `>',
  '<a href="#" onclick="window.__xss=1">click</a>',
  '<img srcset="x" onerror="window.__xss=1">',
  '<template><img src=x onerror="window.__xss=1"></template>',
];

describe('notice bodies', () => {
  it(`run none of ${XSS.length} XSS payloads in the drawer or the message page`, async () => {
    expect(XSS.length).toBeGreaterThanOrEqual(30);
    for (const [i, payload] of XSS.entries()) await publish({ title: `XSS-${i}`, remark: payload, replyWay: 0 });
    const { context, page } = await openPage(browser, { ...DESKTOP, storageState: member });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${a.url}/center/message/index`);
    // Counts the payloads whose body was shown and then read back free of anything that could run.
    let checked = 0;
    for (let i = 0; i < XSS.length; i++) {
      await page.locator('.message-search input').fill(`XSS-${i}`);
      await page.locator('.message-search input').press('Enter');
      await page
        .locator('.message-item', { hasText: new RegExp(`^XSS-${i}`) })
        .first()
        .click();
      await page.locator('.notice-drawer .ant-drawer-title', { hasText: `XSS-${i}` }).waitFor();
      // (An empty body is hidden: a payload that sanitises to nothing leaves an empty one.)
      const body = page.locator('.notice-drawer .notice-body');
      await body.waitFor({ state: 'attached' });
      // Click every link and button inside the body, as a curious reader would.
      for (const el of await page.locator('.notice-body a, .notice-body button').all())
        await el.click({ force: true, timeout: 1000 }).catch(() => undefined);
      // What the body holds, element by element: nothing that runs, loads a document or points at script.
      const runnable = await body.evaluate((root) =>
        Array.from(root.querySelectorAll('*')).flatMap((el) => [
          ...(/^(script|iframe|frame|object|embed|base|meta|link|style)$/i.test(el.tagName) ? [el.tagName] : []),
          ...Array.from(el.attributes)
            .filter(
              (a) =>
                /^on/i.test(a.name) ||
                // Browsers skip spaces and control characters inside a scheme: so does this check.
                /^(javascript|data|vbscript):/i.test([...a.value].filter((c) => c > ' ').join('')),
            )
            .map((a) => `${el.tagName}[${a.name}]`),
        ]),
      );
      expect(runnable, `payload ${i}`).toEqual([]);
      expect(
        await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
        `payload ${i}`,
      ).toBeUndefined();
      checked++;
      await page.keyboard.press('Escape');
      await page.locator('.notice-drawer').waitFor({ state: 'hidden' });
    }
    expect(checked).toBe(XSS.length);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(page.url()).toContain('/center/message/index');
    await context.close();
  }, 180_000);
});
