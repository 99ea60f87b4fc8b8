/**
 * i: the drag-page builder with a 50-widget page, frame times while a widget is dragged.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import type { Db } from '../../../apps/server/src/db/client.js';
import * as s from '../../../apps/server/src/db/schema.js';
import { signIn } from '../../../e2e/support/shell.js';
import { median, round } from '../../common.js';
import { newContext } from '../pages.js';
import { settings } from '../settings.js';

const BUILDER_PAGE = 'bench-50';

/**
 * A 50-widget page for the builder (ten each of text, figures, links, table and chart, 3 columns
 * by 4 rows each), shown first in its list, and the admin's default role and application the park
 * operator's (the builder is theirs).
 */
export async function seedBuilderPage(db: Db): Promise<void> {
  const kinds = ['text', 'stats', 'links', 'table', 'chart'] as const;
  const props = {
    text: { title: { zh: '说明' }, text: { zh: '园区企业服务平台的说明文字。'.repeat(3) } },
    stats: {
      title: { zh: '指标' },
      items: [1, 2, 3].map((n) => ({ label: { zh: `指标${n}` }, value: String(n * 17) })),
    },
    links: { title: { zh: '入口' }, items: [1, 2, 3].map((n) => ({ title: { zh: `入口${n}` }, path: `/bench/${n}` })) },
    table: {
      title: { zh: '表格' },
      columns: [{ zh: '名称' }, { zh: '数量' }],
      rows: [1, 2, 3, 4].map((n) => [{ zh: `第${n}行` }, { zh: String(n) }]),
    },
    chart: {
      title: { zh: '图表' },
      type: 'bar',
      points: [1, 2, 3, 4, 5, 6].map((n) => ({ label: { zh: `${n}月` }, value: (n * 7) % 11 })),
    },
  };
  const widgets = Array.from({ length: 50 }, (_, n) => {
    const kind = kinds[n % kinds.length]!;
    return { id: `w${n + 1}`, kind, x: (n % 4) * 3, y: Math.floor(n / 4) * 4, w: 3, h: 4, props: props[kind] };
  });
  await db.transaction(async (tx) => {
    const [tenant] = await tx.select({ id: s.tenants.id }).from(s.tenants).where(eq(s.tenants.code, 'demo'));
    const [page] = await tx
      .insert(s.pageDefinitions)
      .values({
        tenantId: tenant!.id,
        code: BUILDER_PAGE,
        publishedVersion: 1,
        updatedAt: sql`now() + interval '1 day'`,
      })
      .returning({ id: s.pageDefinitions.id });
    const document = {
      format: 1 as const,
      title: { zh: '五十个组件' },
      widgets,
    } as typeof s.pageVersions.$inferInsert.document;
    await tx.insert(s.pageVersions).values({ pageId: page!.id, version: 1, document });
    await tx.execute(sql`
      UPDATE users SET
        default_role_id = (SELECT id FROM roles WHERE tenant_id = ${tenant!.id} AND code = 'park_operator'),
        default_application_id = (SELECT id FROM applications WHERE tenant_id = ${tenant!.id} AND code = 'PARK_OPS')
      WHERE tenant_id = ${tenant!.id} AND username = 'admin'`);
  });
}

export interface FrameTimes {
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  frames: number;
}

/** Frame intervals (rAF to rAF) in the page while `act` runs. */
async function framesDuring(page: Page, act: () => Promise<void>): Promise<FrameTimes> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await act();
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames.slice(1);
  });
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    medianMs: round(median(frames), 1),
    p95Ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? NaN, 1),
    maxMs: round(sorted.at(-1) ?? NaN, 1),
    frames: frames.length,
  };
}

/**
 * The builder on the 50-widget page: one widget dragged across the canvas in `builderMoves` pointer
 * steps (each step re-lays the grid), frame intervals recorded meanwhile; the baseline is the same
 * steps over the canvas with no button held.
 */
export async function measureBuilder(
  browser: Browser,
  base: string,
): Promise<{ drag: FrameTimes; baseline: FrameTimes }> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await signIn(page, base, '/center/login', 'admin');
    await page.goto(`${base}/center/ops/pages`);
    await page.locator('.pb-item').nth(49).waitFor({ timeout: 60_000 });
    await page.locator('.pb-item canvas').nth(9).waitFor({ timeout: 60_000 });
    await sleep(500);
    const box = (await page.locator('.pb-item').first().boundingBox())!;
    const x0 = box.x + box.width / 2;
    const y0 = box.y + 12;
    const path = async () => {
      for (let i = 1; i <= settings.builderMoves; i++) {
        await page.mouse.move(x0 + (i % 20) * 20, y0 + Math.floor(i / 20) * 40 + (i % 20) * 6);
      }
    };
    const baseline = await framesDuring(page, async () => {
      await page.mouse.move(x0, y0);
      await path();
    });
    const drag = await framesDuring(page, async () => {
      await page.mouse.move(x0, y0);
      await page.mouse.down();
      await path();
      await page.mouse.up();
    });
    if ((await page.locator('.pb-item').count()) !== 50) throw new Error('the builder lost a widget in the drag');
    return { drag, baseline };
  } finally {
    await context.close();
  }
}
