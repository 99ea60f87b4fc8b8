import { it } from 'vitest';
import { launch, openPage } from './support/browser.js';
import { startServer } from './support/server.js';
import { go, settled, signInAsOperator } from './support/shell.js';

it('probe', async () => {
  const s = await startServer({ PORTAL_RUNTIME_CONFIG: JSON.stringify({ noticeEnabled: true, languageSwitch: true }) });
  const browser = await launch();
  const { page, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } });
  page.on('console', (m) => console.log('console', m.type(), m.text()));
  page.on('requestfailed', (r) => console.log('failed', r.url()));
  page.on('response', (r) => { if (r.status() >= 400) console.log('status', r.status(), r.url()); });
  await signInAsOperator(page, s.url);
  await go(page, '/system/notices');
  await new Promise((r) => setTimeout(r, 3000));
  await settled(page);
  console.log('errors', errors);
  await page.screenshot({ path: '/tmp/probe.png' });
  await browser.close();
  await s.stop();
}, 120_000);
