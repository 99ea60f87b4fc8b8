import { signRequest } from '@portal/contracts/node-signing';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

let workerBrowser: Promise<Browser> | undefined;

/**
 * This worker's Chromium: launched by the first spec file that asks and kept for the files the
 * worker runs next (the e2e project runs a worker's files one after another in one module graph,
 * `isolate: false` in vitest.config.ts, so this module and its Chromium outlive a file). A launch
 * costs about two seconds and most of a CPU-second, once per file before. A file opens its own
 * contexts on it (each as separate as a new browser's: own storage, cookies, cache) and closes
 * them with `closeContexts` in its `afterAll`; it never closes the browser. A file that needs
 * Chromium started with other flags uses `launch` and closes what it launched. Playwright stops
 * the browser when the worker exits.
 */
export async function sharedBrowser(): Promise<Browser> {
  const running = await workerBrowser?.catch(() => undefined);
  if (running?.isConnected()) return running;
  workerBrowser = launch();
  return workerBrowser;
}

/** Closes every context (and so every page) a file opened on the shared browser. */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  if (browser) await Promise.all(browser.contexts().map((c) => c.close()));
}

/** Flags for this machine: headless Debian Chromium with no background traffic (see env docs). */
export function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/**
 * Context options of a test that is not about motion: the reader asked for less of it, which the
 * portal honours (antd's dialogs, drawers and menus open without animating), so no step waits for
 * an animation to end. A test of what happens while something moves leaves it out.
 */
export const STILL: BrowserContextOptions = { reducedMotion: 'reduce' };

/** Calls the API from Node with a correctly signed request, as any client would. */
export async function signedFetch(
  base: string,
  signSecret: string,
  path: string,
  opts: { token?: string; body?: Record<string, unknown>; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${path}`, {
    method: opts.body ? 'POST' : 'GET',
    headers: {
      ...signRequest(signSecret, path, opts.body),
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization_front: opts.token } : {}),
      ...opts.headers,
    },
    body: opts.body ? JSON.stringify(opts.body) : null,
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & { status: number; message: string },
  };
}

/** A new context in `lang` and its page, with the page's uncaught errors collected. */
export async function openPage(browser: Browser, options: BrowserContextOptions, lang: 'zh' | 'en' = 'zh') {
  const context = await browser.newContext(options);
  // The portal's own document only: an embedded page of another origin may not use its storage.
  await context.addInitScript((v) => {
    if (window.top === window) localStorage.setItem('portal_locale', JSON.stringify({ v, e: null }));
  }, lang);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}
