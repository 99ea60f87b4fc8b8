/**
 * e: JS heap, DOM nodes and listeners on home, with many tabs open, after closing them all.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { pageMemory, signIn } from '../../../e2e/support/shell.js';
import { round } from '../../common.js';
import type { Leaf } from '../menu.js';
import { firstScreen, newContext, openTabs, spread, tabCount } from '../pages.js';
import { log, settings, TARGETS } from '../settings.js';

export interface Memory {
  heapUsedMb: number;
  heapTotalMb: number;
  nodes: number;
  listeners: number;
  documents: number;
  tabs: number;
  /** Side-menu entries in the DOM (a submenu once opened stays rendered, hidden, in antd's inline menu). */
  menuItems: number;
  subMenus: number;
}

async function memory(page: Page, cdp: CDPSession): Promise<Memory> {
  // A second's settling: effects, transitions and idle callbacks finish first.
  const { heapUsedMb, heapTotalMb, nodes, listeners, documents } = await pageMemory(cdp, 1000);
  return {
    heapUsedMb,
    heapTotalMb,
    nodes,
    listeners,
    documents,
    tabs: await tabCount(page),
    ...(await page.evaluate(() => ({
      menuItems: document.querySelectorAll('.shell-sider .ant-menu-item').length,
      subMenus: document.querySelectorAll('.shell-sider .ant-menu-submenu').length,
    }))),
  };
}

export interface MemoryResult {
  baseline: Memory;
  open: Memory;
  closed: Memory;
  /** After a second round of the same tabs. */
  closedAgain: Memory;
  openRatio: number;
  closedRatio: number;
  closedDeltaMb: number;
  /** Heap after the second round's closing minus after the first's: what each round leaks. */
  roundGrowthMb: number;
  comesBack: boolean;
}

/** Opens a tab for each leaf, measures, closes them all from the home tab's menu, measures. */
async function openAndClose(page: Page, cdp: CDPSession, list: Leaf[]): Promise<{ open: Memory; closed: Memory }> {
  await openTabs(page, list);
  const open = await memory(page, cdp);
  if (open.tabs !== list.length + 1) throw new Error(`expected ${list.length + 1} tabs, found ${open.tabs}`);
  log(`memory with ${open.tabs} tabs: ${open.heapUsedMb} MB, ${open.nodes} nodes, ${open.listeners} listeners`);

  // Context menu of the home tab → 关闭全部. The strip is scrolled to the home tab first, as a user
  // would: a scroll while the menu is open closes it (a right click on a tab out of view would).
  const home = page.locator('[role=tab]').first();
  await home.scrollIntoViewIfNeeded();
  await sleep(300);
  await home.click({ button: 'right' });
  const closeAll = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: '关闭全部' });
  await closeAll.waitFor();
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await closeAll.click();
  await page.waitForFunction(() => document.querySelectorAll('[role=tab]').length === 1, undefined, {
    timeout: 30_000,
  });
  await page.waitForURL(/\/center\/index/);
  // The dropdown's closing animation ends before the measurement.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const closed = await memory(page, cdp);
  log(`memory after closing: ${closed.heapUsedMb} MB, ${closed.nodes} nodes, ${closed.listeners} listeners`);
  return { open, closed };
}

export async function measureMemory(browser: Browser, base: string, leaves: Leaf[]): Promise<MemoryResult> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await signIn(page, base);
    await firstScreen(page);
    const cdp = await context.newCDPSession(page);
    const baseline = await memory(page, cdp);
    log(`memory on home: ${baseline.heapUsedMb} MB, ${baseline.nodes} nodes, ${baseline.listeners} listeners`);

    const list = spread(leaves, settings.memoryTabs, 7);
    if (new Set(list.map((l) => l.path)).size !== list.length) throw new Error('memory tabs are not all different');
    // Two rounds: the first also warms up what any page keeps once (compiled code, style rules);
    // a leak shows as growth from the first round's end to the second's.
    const round1 = await openAndClose(page, cdp, list);
    const round2 = await openAndClose(page, cdp, list);
    const { open, closed } = round1;
    const delta = closed.heapUsedMb - baseline.heapUsedMb;
    const growth = round2.closed.heapUsedMb - closed.heapUsedMb;
    return {
      baseline,
      open,
      closed,
      closedAgain: round2.closed,
      openRatio: round(open.heapUsedMb / baseline.heapUsedMb, 2),
      closedRatio: round(closed.heapUsedMb / baseline.heapUsedMb, 3),
      closedDeltaMb: round(delta, 2),
      roundGrowthMb: round(growth, 2),
      comesBack: growth <= Math.max(TARGETS.memoryBackRatio * closed.heapUsedMb, TARGETS.memoryBackMb),
    };
  } finally {
    await context.close();
  }
}
